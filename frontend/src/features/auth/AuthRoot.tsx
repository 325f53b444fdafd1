import { createRoot, type Root } from "react-dom/client";
import { type AuthStep, STEP_PAGES } from "./authModal";
import { AuthModal } from "./AuthModal";

let root: Root | null = null;
let opened = 0;

export function showAuthModal(step: AuthStep): void {
  if (!root) {
    const container = document.createElement("div");
    container.id = "auth-modal-root";
    document.body.appendChild(container);
    root = createRoot(container);
  }
  opened += 1;
  const close = () => {
    root?.render(null);
    // Closing leaves the auth page: a reload should not open the modal again.
    const url = new URL(window.location.href);
    url.searchParams.delete("auth");
    url.searchParams.delete("role");
    if (STEP_PAGES[url.pathname]) url.pathname = "/";
    if (url.href !== window.location.href) window.history.replaceState(null, "", url);
  };
  root.render(
    <AuthModal
      key={opened}
      initialStep={step}
      becomeHost={window.location.pathname === "/become-host"}
      defaultRole={new URLSearchParams(window.location.search).get("role") === "host" ? "host" : undefined}
      onClose={close}
    />,
  );
}
