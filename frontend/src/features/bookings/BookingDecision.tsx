/** Approve (with confirmation) and reject (with a reason) a pending booking or extension (spec 4.4 and 5). */
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, call } from "../../shared/api/client";
import { invalidate } from "../../shared/api/query";
import { navigation } from "../../shared/browser/navigation";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { Dialog } from "../../shared/ui/Dialog";
import { Spinner } from "../../shared/ui/Spinner";
import { flashToast } from "../../shared/ui/toast";
import { countersChanged } from "../notifications/counters";
import { type Booking, checkInPassed, type Extension } from "./bookings";

export const APPROVE_TEXT = "Are you sure you want to approve this booking?";
export const DATE_PASSED_TEXT = "The booking date has passed. Are you sure you want to approve this booking?";
export const AFTER_DECISION = "/booking-requests";

export function RejectModal({ busy, onSubmit, onClose }: { busy: boolean; onSubmit: (reason: string) => void; onClose: () => void }) {
  const [reason, setReason] = useState("");
  const id = useId();
  return (
    <Dialog title="Reject Booking" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (reason.trim()) onSubmit(reason.trim());
        }}
      >
        <label htmlFor={id}>Reason</label>
        <textarea id={id} value={reason} maxLength={1000} onChange={(event) => setReason(event.currentTarget.value)} />
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button" disabled={!reason.trim() || busy} aria-busy={busy || undefined}>
            {busy ? <Spinner label="Submit" /> : "Submit"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** After a decision: the server's sentence as a toast that survives the move to /booking-requests. */
function decided(message: string | undefined): void {
  if (message) flashToast(message, "success");
  countersChanged();
  void invalidate(["/api/booking", "/api/dashboard"]);
  navigation.assign(AFTER_DECISION);
}

export function useBookingDecision() {
  const [target, setTarget] = useState<{ booking: Booking; action: "approve" | "reject" } | null>(null);
  const decide = useMutation({
    mutationFn: ({ booking, status, reason }: { booking: Booking; status: "approved" | "rejected"; reason?: string }) =>
      call(
        api.PATCH("/api/booking/update-status/{booking_id}", {
          params: { path: { booking_id: booking._id } },
          body: reason ? { status, reason } : { status },
        }),
      ),
    onSuccess: (answer) => {
      setTarget(null);
      decided(answer.message);
    },
    // A refusal: the client showed the server's sentence; loading simply ends (spec 8).
  });

  const dialogs = target ? (
    target.action === "approve" ? (
      <ConfirmDialog
        title="Approve Booking"
        message={checkInPassed(target.booking) ? DATE_PASSED_TEXT : APPROVE_TEXT}
        confirmLabel="Approve"
        busy={decide.isPending}
        onConfirm={() => decide.mutate({ booking: target.booking, status: "approved" })}
        onCancel={() => setTarget(null)}
      />
    ) : (
      <RejectModal
        busy={decide.isPending}
        onSubmit={(reason) => decide.mutate({ booking: target.booking, status: "rejected", reason })}
        onClose={() => setTarget(null)}
      />
    )
  ) : null;

  return {
    approve: (booking: Booking) => setTarget({ booking, action: "approve" }),
    reject: (booking: Booking) => setTarget({ booking, action: "reject" }),
    dialogs,
  };
}

/** Approve or reject an extension request; rejecting from the confirmation sends an empty reason (spec 4.4). */
export function useExtensionDecision(booking: Booking, extension: Extension) {
  return useMutation({
    mutationFn: (status: "approved" | "rejected") =>
      call(
        api.PUT("/api/booking/update-extend-status/{booking_id}", {
          params: { path: { booking_id: booking._id } },
          body: { status, requestId: extension._id, reason: "" },
        }),
      ),
    onSuccess: (answer) => decided(answer.message),
  });
}
