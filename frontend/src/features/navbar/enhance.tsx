import { useState } from "react";
import { createRoot } from "react-dom/client";
import { api, call } from "../../shared/api/client";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { initialAuthStep, isAuthStep, openAuthModal } from "../../features/auth/authModal";
import { navigation } from "../../shared/browser/navigation";
import { clearStoredSession } from "../../shared/api/session";
import "./navbar.css";
import { enhanceBookBar, enhanceFilters, enhanceMenu } from "./smallScreens";
import type { IslandProps } from "../../shared/ui/mountIsland";

/** The navbar's props from the server (IslandPropsNavbar). */
export type NavbarProps = Partial<IslandProps<"Navbar">>;

export const STICKY_AFTER_PX = 300;

function SignOut({ onDone }: { onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmDialog
      title="Sign Out"
      message="Are you sure you want to sign out?"
      confirmLabel="Sign Out"
      busy={busy}
      onCancel={onDone}
      onConfirm={async () => {
        setBusy(true);
        try {
          await call(api.POST("/api/user/logout", { body: {} }), { ownAuthErrors: true });
        } catch {
          /* the local state is cleared all the same */
        }
        clearStoredSession();
        navigation.assign("/");
      }}
    />
  );
}

/** The navbar's behaviour on top of the server-rendered HTML: sticky header, auth links, Sign Out. */
export function enhanceNavbar(props: NavbarProps) {
  const header = document.querySelector<HTMLElement>("header.navbar");
  enhanceMenu(header);
  enhanceFilters();
  enhanceBookBar();

  // Sticky after 300 px of scrolling, on every page but home.
  if (header && window.location.pathname !== "/") {
    const onScroll = () => header.classList.toggle("navbar--sticky", window.scrollY > STICKY_AFTER_PX);
    window.addEventListener("scroll", onScroll, { passive: true });
    onScroll();
  }

  // Login / Sign up / any [data-auth-open] link opens the modal instead of the no-JavaScript page.
  document.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest<HTMLElement>("[data-auth-open]");
    if (!link) return;
    const step = link.dataset.authOpen;
    if (!isAuthStep(step)) return;
    event.preventDefault();
    void openAuthModal(step);
  });

  // Sign Out asks first.
  const signOutForm = document.querySelector<HTMLFormElement>("form[data-sign-out]");
  if (signOutForm) {
    let host: HTMLElement | null = null;
    signOutForm.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!host) {
        host = document.createElement("div");
        document.body.appendChild(host);
      }
      const root = createRoot(host);
      root.render(<SignOut onDone={() => root.render(null)} />);
    });
  }

  if (!props.signedIn) clearStoredSession();
  const step = initialAuthStep(window.location);
  if (step && !props.signedIn) void openAuthModal(step);
}

