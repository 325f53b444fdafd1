import { type ReactNode, useId } from "react";
import { Dialog } from "./Dialog";
import { Spinner } from "./Spinner";

export interface ConfirmDialogProps {
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A request is in flight: both buttons wait, the confirm button shows a spinner. */
  busy?: boolean;
  /** "danger" paints the confirm button red (delete, reject, cancel a membership). */
  tone?: "default" | "danger";
  onConfirm: () => void;
  onCancel: () => void;
  /** More content under the message (a warning, a summary). */
  children?: ReactNode;
}

/** A yes/no question in a modal dialog; Escape and × answer no. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel = "Yes",
  cancelLabel = "Cancel",
  busy,
  tone = "default",
  onConfirm,
  onCancel,
  children,
}: ConfirmDialogProps) {
  const messageId = useId();
  return (
    <Dialog
      title={title}
      onClose={() => {
        if (!busy) onCancel();
      }}
      size="small"
      describedBy={messageId}
      className="confirm-dialog"
      footer={
        <>
          <button type="button" className="button button--ghost" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={`button${tone === "danger" ? " button--danger" : ""}`}
            onClick={onConfirm}
            disabled={busy}
            aria-busy={busy || undefined}
          >
            {busy ? <Spinner label={confirmLabel} /> : confirmLabel}
          </button>
        </>
      }
    >
      <p id={messageId}>{message}</p>
      {children}
    </Dialog>
  );
}
