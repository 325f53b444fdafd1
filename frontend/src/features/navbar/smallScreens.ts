/**
 * Small screens (under 768 px): the navbar's links fold behind a menu button, and the search
 * page's filters open as a drawer from the left. Without JavaScript both stay in the page's flow.
 */
export function enhanceMenu(header: HTMLElement | null): void {
  const toggle = header?.querySelector<HTMLButtonElement>(".nav-toggle");
  const links = header?.querySelector<HTMLElement>(".nav-links");
  if (!header || !toggle || !links) return;
  header.classList.add("navbar--menu");
  toggle.hidden = false;
  const set = (open: boolean) => {
    links.classList.toggle("is-open", open);
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => set(!links.classList.contains("is-open")));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && links.classList.contains("is-open")) {
      set(false);
      toggle.focus();
    }
  });
}

export function enhanceFilters(root: ParentNode = document): void {
  const panel = root.querySelector<HTMLElement>("[data-filters-drawer]");
  const open = root.querySelector<HTMLButtonElement>(".filters-open");
  const close = panel?.querySelector<HTMLButtonElement>(".filters-close");
  if (!panel || !open || !close) return;
  const backdrop = document.createElement("div");
  backdrop.className = "filters-backdrop";
  panel.after(backdrop);
  panel.classList.add("filters--drawer");
  open.hidden = false;
  close.hidden = false;
  const set = (value: boolean) => {
    panel.classList.toggle("is-open", value);
    backdrop.classList.toggle("is-open", value);
    open.setAttribute("aria-expanded", String(value));
    if (value) panel.querySelector<HTMLElement>("input, select, button")?.focus();
    else open.focus();
  };
  open.addEventListener("click", () => set(true));
  close.addEventListener("click", () => set(false));
  backdrop.addEventListener("click", () => set(false));
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") set(false);
  });
}

/** The listing page's bottom Request bar (phones and tablets) steps aside while the booking widget it
 * points to is on the screen, so it never covers the widget's own button. */
export function enhanceBookBar(root: Document = document): void {
  const bar = root.querySelector<HTMLElement>(".book-bar");
  const box = root.getElementById("book");
  if (!bar || !box || typeof IntersectionObserver === "undefined") return;
  new IntersectionObserver(([entry]) => bar.classList.toggle("book-bar--away", entry.isIntersecting), { threshold: 0.15 }).observe(box);
}
