/** Reject with a reason (spec 5: Submit stays disabled until a reason is typed, and while loading). */
import { useId, useState } from "react";
import { Dialog } from "../../shared/ui/Dialog";
import { Spinner } from "../../shared/ui/Spinner";

export function ReasonDialog({
  title,
  busy,
  onSubmit,
  onClose,
}: {
  title: string;
  busy: boolean;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState("");
  const id = useId();
  const ready = reason.trim().length > 0 && !busy;
  return (
    <Dialog
      title={title}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button type="button" className="button button--quiet" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="button button--danger" disabled={!ready} onClick={() => onSubmit(reason.trim())}>
            {busy ? <Spinner label="Sending" /> : "Submit"}
          </button>
        </>
      }
    >
      <div className="form-field">
        <label className="form-field__label" htmlFor={id}>
          Reason <span aria-hidden="true">*</span>
        </label>
        <textarea
          id={id}
          className="form-field__input"
          rows={4}
          maxLength={1000}
          value={reason}
          aria-required="true"
          onChange={(event) => setReason(event.currentTarget.value)}
        />
      </div>
    </Dialog>
  );
}
