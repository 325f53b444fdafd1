/**
 * Toasts shared by every island: top-center, closing after 4000 ms, no progress bar.
 * Plain DOM (no framework) so any island, and the API client, can show one.
 */
import "./css/toast.css";

export type ToastKind = "success" | "error" | "info";

export const TOAST_DURATION_MS = 4000;
const FLASH_KEY = "spacemarket:flashToast";

function region(): HTMLElement {
  let element = document.getElementById("toasts");
  if (!element) {
    element = document.createElement("div");
    element.id = "toasts";
    element.className = "toasts";
    element.setAttribute("role", "status");
    element.setAttribute("aria-live", "polite");
    document.body.appendChild(element);
  }
  return element;
}

export function showToast(message: string, kind: ToastKind = "info"): void {
  const toast = document.createElement("div");
  toast.className = `toast toast--${kind}`;
  if (kind === "error") toast.setAttribute("role", "alert");
  const text = document.createElement("span");
  text.textContent = message;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast__close";
  close.setAttribute("aria-label", "Close");
  close.textContent = "×";
  const remove = () => toast.remove();
  close.addEventListener("click", remove);
  toast.append(text, close);
  region().appendChild(toast);
  window.setTimeout(remove, TOAST_DURATION_MS);
}

export const toast = {
  success: (message: string) => showToast(message, "success"),
  error: (message: string) => showToast(message, "error"),
  info: (message: string) => showToast(message, "info"),
};

/** Show a toast on the next page (used right before a navigation). */
export function flashToast(message: string, kind: ToastKind = "info"): void {
  try {
    window.sessionStorage.setItem(FLASH_KEY, JSON.stringify({ message, kind }));
  } catch {
    /* storage unavailable: the message is lost with the page */
  }
}

export function showFlashedToast(): void {
  try {
    const raw = window.sessionStorage.getItem(FLASH_KEY);
    if (!raw) return;
    window.sessionStorage.removeItem(FLASH_KEY);
    const { message, kind } = JSON.parse(raw) as { message: string; kind: ToastKind };
    showToast(message, kind);
  } catch {
    /* ignore a malformed flash */
  }
}
