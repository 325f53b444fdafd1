import { useEffect, useRef } from "react";

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal yes/no question (native <dialog>: focus stays inside, Escape cancels). */
export function ConfirmDialog({ title, message, confirmLabel = "Yes", cancelLabel = "Cancel", busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && typeof element.showModal === "function" && !element.open) element.showModal();
    const cancel = (event: Event) => {
      event.preventDefault();
      onCancel();
    };
    element?.addEventListener("cancel", cancel);
    return () => element?.removeEventListener("cancel", cancel);
  }, [onCancel]);
  return (
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby="confirm-title" aria-describedby="confirm-message">
      <h2 id="confirm-title">{title}</h2>
      <p id="confirm-message">{message}</p>
      <div className="confirm-dialog__actions">
        <button type="button" className="button button--ghost" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="button" className="button" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined}>
          {busy ? <span className="spinner" aria-hidden="true" /> : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
