/** Approve (with confirmation) and reject (with a reason) a pending booking (spec 4.4 and 5). */
import { useState } from "react";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { navigation } from "../../shared/browser/navigation";
import { toast } from "../../shared/ui/toast";
import { type Booking, checkInPassed } from "./bookings";
import { countersChanged } from "../notifications/counters";
import { http } from "../../shared/api/http";
import { Modal } from "../../shared/ui/Modal";

export const APPROVE_TEXT = "Are you sure you want to approve this booking?";
export const DATE_PASSED_TEXT = "The booking date has passed. Are you sure you want to approve this booking?";

export function RejectModal({ busy, onSubmit, onClose }: { busy: boolean; onSubmit: (reason: string) => void; onClose: () => void }) {
  const [reason, setReason] = useState("");
  return (
    <Modal title="Reject Booking" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (reason.trim()) onSubmit(reason.trim());
        }}
      >
        <label htmlFor="reject-reason">Reason</label>
        <textarea id="reject-reason" value={reason} maxLength={1000} onChange={(event) => setReason(event.currentTarget.value)} />
        <div className="dash-actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button" disabled={!reason.trim() || busy} aria-busy={busy || undefined}>
            {busy ? <span className="spinner" aria-hidden="true" /> : "Submit"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function useBookingDecision() {
  const [target, setTarget] = useState<{ booking: Booking; action: "approve" | "reject" } | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (booking: Booking, status: "approved" | "rejected", reason?: string) => {
    setBusy(true);
    try {
      const answer = await http.patch(`/api/booking/update-status/${booking._id}`, reason ? { status, reason } : { status });
      if (answer.message) toast.success(answer.message);
      countersChanged();
      setTarget(null);
      navigation.assign("/booking-requests");
    } catch {
      /* the client showed the server's sentence; loading simply ends */
    } finally {
      setBusy(false);
    }
  };

  const dialogs = target ? (
    target.action === "approve" ? (
      <ConfirmDialog
        title="Approve Booking"
        message={checkInPassed(target.booking) ? DATE_PASSED_TEXT : APPROVE_TEXT}
        confirmLabel="Approve"
        busy={busy}
        onConfirm={() => send(target.booking, "approved")}
        onCancel={() => setTarget(null)}
      />
    ) : (
      <RejectModal busy={busy} onSubmit={(reason) => send(target.booking, "rejected", reason)} onClose={() => setTarget(null)} />
    )
  ) : null;

  return {
    approve: (booking: Booking) => setTarget({ booking, action: "approve" }),
    reject: (booking: Booking) => setTarget({ booking, action: "reject" }),
    dialogs,
  };
}
