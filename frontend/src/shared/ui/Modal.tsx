import { type ReactNode, useEffect, useRef } from "react";

/** A modal dialog (native <dialog>: focus kept inside, Escape closes). */
export function Modal({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && typeof element.showModal === "function" && !element.open) element.showModal();
    const cancel = (event: Event) => {
      event.preventDefault();
      onClose();
    };
    element?.addEventListener("cancel", cancel);
    return () => element?.removeEventListener("cancel", cancel);
  }, [onClose]);
  return (
    <dialog ref={dialog} className={`dash-modal${wide ? " dash-modal--wide" : ""}`} aria-labelledby="dash-modal-title">
      <header className="dash-modal__head">
        <h2 id="dash-modal-title">{title}</h2>
        <button type="button" className="dash-modal__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}
