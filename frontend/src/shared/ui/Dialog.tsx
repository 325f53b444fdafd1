/**
 * Modal dialogs on the native <dialog>: the browser keeps focus inside and Escape cancels; ids
 * come from useId (any number may be open on a page); focus goes back to the element that opened
 * the dialog when it closes.
 */
import { type ReactNode, useEffect, useId, useRef } from "react";
import { X } from "lucide-react";
import "./css/kit.css";

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom, right-aligned. */
  footer?: ReactNode;
  size?: "small" | "medium" | "wide";
  /** The element that describes the dialog (an id inside children), for screen readers. */
  describedBy?: string;
  className?: string;
  /** Hide the × button (a question that must be answered by its own buttons). */
  hideClose?: boolean;
}

/** Open `dialog` as a modal (or as a plain open dialog where showModal is missing, e.g. jsdom). */
function open(dialog: HTMLDialogElement): void {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") {
    try {
      dialog.showModal();
      return;
    } catch {
      /* not connected yet or not supported: fall through */
    }
  }
  dialog.setAttribute("open", "");
}

export function Dialog({ title, onClose, children, footer, size = "medium", describedBy, className, hideClose }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    open(dialog);
    const cancel = (event: Event) => {
      event.preventDefault();
      closeRef.current();
    };
    dialog.addEventListener("cancel", cancel);
    return () => {
      dialog.removeEventListener("cancel", cancel);
      if (dialog.open && typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
      // Back to the button that opened it, if it is still on the page.
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog--${size}${className ? ` ${className}` : ""}`}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
    >
      <header className="dialog__head">
        <h2 id={titleId}>{title}</h2>
        {!hideClose && (
          <button type="button" className="dialog__close" aria-label="Close" onClick={onClose}>
            <X aria-hidden="true" size={20} />
          </button>
        )}
      </header>
      <div className="dialog__body">{children}</div>
      {footer && <footer className="dialog__actions">{footer}</footer>}
    </dialog>
  );
}
