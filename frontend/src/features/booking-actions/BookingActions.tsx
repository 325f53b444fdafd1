/**
 * The booking detail's action area: pay now, cancel (with the refund the policy gives shown before
 * confirming; the host side gives a reason and refunds in full), request an extension, pay an
 * approved extension, review after completion, raise a dispute with evidence. Each button shows
 * only when the server's `can` allows it.
 */
import { type FormEvent, type ReactNode, useCallback, useEffect, useState } from "react";
import { api, call, type Schemas } from "../../shared/api/client";
import { upload } from "../../shared/api/upload";
import { invalidate } from "../../shared/api/query";
import { navigation } from "../../shared/browser/navigation";
import { money } from "../../shared/format";
import { Dialog } from "../../shared/ui/Dialog";
import { toast } from "../../shared/ui/toast";
import { evidenceError, MAX_EVIDENCE } from "../disputes/types";
import { payReturnUrl } from "../bookings/bookings";
import { countersChanged } from "../notifications/counters";
import { type ActionBooking, EXTENSION_UNITS, type ExtensionUnit, extensionBody, reviewBody, unpaidExtension } from "./actions";
import "./booking-actions.css";

type Open = "cancel" | "extend" | "review" | "dispute" | null;

export const EXTENSION_PAID = "Payment successful. Your extension is paid.";
export const EXTENSION_PAYMENT_CANCELLED = "Payment cancelled. The extension is still to pay.";

/** Back on the booking from an extension's checkout (`?type=extension&success=…&sessionId=…`): confirm
 * the payment (the webhook may not have arrived yet), say so, and drop the query from the address. */
export function useExtensionCheckoutReturn(): void {
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.get("type") !== "extension") return;
    const success = params.get("success");
    const sessionId = params.get("sessionId");
    window.history.replaceState(null, "", window.location.pathname);
    if (success === "true") {
      const confirm = sessionId
        ? call(api.PUT("/api/payment/checkout-success", { body: { sessionId } }), { silent: true }).catch(() => undefined)
        : Promise.resolve();
      void confirm.then(() => {
        toast.success(EXTENSION_PAID);
        void invalidate(["/api/booking", "/api/payment", "/api/invoice"]);
      });
    } else if (success === "false") {
      toast.error(EXTENSION_PAYMENT_CANCELLED);
    }
  }, []);
}

/** The checkout returns to the booking; a booking's own payment returns through the booking flow's last
 * step, which confirms it and then opens the booking. */
async function checkout(bookingId: string, extensionId?: string, slug?: string): Promise<void> {
  const back =
    !extensionId && slug
      ? `${window.location.origin}${payReturnUrl(slug, bookingId)}`
      : `${window.location.origin}/booking-detail/${bookingId}`;
  const answer = await call(api.POST("/api/payment/checkout", { body: { bookingId, ...(extensionId ? { extensionId } : {}), redirectUrl: back } }));
  if (answer.data?.url) navigation.assign(answer.data.url);
}

function Stars({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  return (
    <fieldset className="stars">
      <legend>Rating</legend>
      {[1, 2, 3, 4, 5].map((star) => (
        <label key={star} className={`stars__star${star <= value ? " is-on" : ""}`}>
          <input
            type="radio"
            name="rating"
            value={star}
            checked={value === star}
            onChange={() => onChange(star)}
            className="visually-hidden"
          />
          <span aria-hidden="true">★</span>
          <span className="visually-hidden">
            {star} star{star > 1 ? "s" : ""}
          </span>
        </label>
      ))}
      {value > 0 && (
        <button type="button" className="link-button" onClick={() => onChange(0)}>
          Clear
        </button>
      )}
    </fieldset>
  );
}

/** One action's dialog: its form, the error under it, and Close and submit buttons. */
function ActionDialog(props: {
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  error?: string | null;
  busy: boolean;
  submitLabel: string;
  closeLabel?: string;
  danger?: boolean;
  children: ReactNode;
}) {
  const { busy, error } = props;
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form onSubmit={props.onSubmit} noValidate>
        {props.children}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="dash-actions">
          <button type="button" className="button button--ghost" onClick={props.onClose} disabled={busy}>
            {props.closeLabel ?? "Close"}
          </button>
          <button type="submit" className={props.danger ? "button button--danger" : "button"} disabled={busy} aria-busy={busy || undefined}>
            {props.submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** `side`: the user's side of the booking as the server names it; the host side must give a reason to cancel. */
export function BookingActions({ booking, side, onChanged }: { booking: ActionBooking; side: "renter" | "host" | "staff"; onChanged: () => void }) {
  const can = booking.can;
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState("");
  const [unit, setUnit] = useState<ExtensionUnit>("additionalHours");
  const [amount, setAmount] = useState("1");
  const [rating, setRating] = useState(0);
  const [review, setReview] = useState("");
  const [remarks, setRemarks] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const close = useCallback(() => {
    setOpen(null);
    setError(null);
  }, []);
  useEffect(() => setError(null), [open]);
  const hostSide = side === "host";
  const owed = unpaidExtension(booking);

  const run = async (work: () => Promise<string | undefined>) => {
    setBusy(true);
    try {
      const message = await work();
      if (message) toast.success(message);
      setOpen(null);
      countersChanged();
      void invalidate(["/api/booking", "/api/payment", "/api/invoice", "/api/dispute", "/api/reviews"]);
      onChanged();
    } catch {
      /* the client toasted the server's sentence; the form keeps what was typed */
    } finally {
      setBusy(false);
    }
  };

  const cancel = (event: FormEvent) => {
    event.preventDefault();
    if (hostSide && !reason.trim()) {
      setError("Please give a reason for cancelling.");
      return;
    }
    void run(async () => (await call(api.PATCH("/api/booking/cancel/{booking_id}", { params: { path: { booking_id: booking._id } }, body: { reason: reason.trim() } }))).message);
  };
  const extend = (event: FormEvent) => {
    event.preventDefault();
    const { body, error: problem } = extensionBody(unit, amount);
    setError(problem ?? null);
    if (!body) return;
    void run(async () => (await call(api.POST("/api/booking/extend/{booking_id}", { params: { path: { booking_id: booking._id } }, body }))).message);
  };
  const sendReview = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await call(api.POST("/api/reviews/add", { body: reviewBody(booking.listingId._id, booking._id, rating, review, remarks) }));
      return "Review added successfully";
    });
  };
  const dispute = (event: FormEvent) => {
    event.preventDefault();
    const problem = !reason.trim() ? "Please describe what went wrong." : evidenceError(files);
    setError(problem);
    if (problem) return;
    const form = new FormData();
    form.append("bookingId", booking._id);
    form.append("reason", reason.trim());
    files.forEach((file) => form.append("files", file));
    void run(async () => (await upload<Schemas["DisputeCreateResponse"]>("/api/dispute/create", form)).message);
  };

  const any = can.pay || can.payExtension || can.cancel || can.extend || can.review || can.dispute;
  if (!any) return null;
  const refund = hostSide ? booking.totalAmount : (booking.refundIfCancelledNow ?? "0");
  return (
    <div className="booking-actions" aria-label="Booking actions" role="group">
      {can.pay && (
        <button type="button" className="button" disabled={busy} onClick={() => void run(async () => (await checkout(booking._id, undefined, booking.listingId.slug), undefined))}>
          Pay now
        </button>
      )}
      {can.payExtension && owed && (
        <button type="button" className="button" disabled={busy} onClick={() => void run(async () => (await checkout(booking._id, owed._id), undefined))}>
          Pay extension {money(owed.totalPayable ?? owed.additionalAmount)}
        </button>
      )}
      {can.extend && (
        <button type="button" className="button button--ghost" onClick={() => setOpen("extend")}>
          Request extension
        </button>
      )}
      {can.review && (
        <button type="button" className="button button--ghost" onClick={() => setOpen("review")}>
          {hostSide ? "Review renter" : "Add review"}
        </button>
      )}
      {can.dispute && (
        <button type="button" className="button button--ghost" onClick={() => setOpen("dispute")}>
          Raise dispute
        </button>
      )}
      {can.cancel && (
        <button type="button" className="button button--danger" onClick={() => setOpen("cancel")}>
          Cancel booking
        </button>
      )}

      {open === "cancel" && (
        <ActionDialog title="Cancel booking" onClose={close} onSubmit={cancel} error={error} busy={busy} submitLabel="Cancel booking" closeLabel="Keep booking" danger>
          <p data-testid="refund-preview">
            {hostSide ? "The renter will be refunded in full: " : "By the cancellation policy you will be refunded "}
            <strong>{money(refund)}</strong>
            {hostSide ? "." : ` of ${money(booking.totalAmount)}.`}
          </p>
          <label className="action-field">
            Reason{hostSide ? " *" : " (optional)"}
            <textarea value={reason} maxLength={1000} onChange={(event) => setReason(event.currentTarget.value)} aria-invalid={Boolean(error) || undefined} />
          </label>
        </ActionDialog>
      )}
      {open === "extend" && (
        <ActionDialog title="Request extension" onClose={close} onSubmit={extend} error={error} busy={busy} submitLabel="Send request">
          <p className="dash-note">The host answers your request; you pay only the extra time once it is approved.</p>
          <div className="action-row">
            <label className="action-field">
              How long
              <input type="number" min={1} max={1000} step={1} value={amount} onChange={(event) => setAmount(event.currentTarget.value)} aria-invalid={Boolean(error) || undefined} />
            </label>
            <label className="action-field">
              Unit
              <select value={unit} onChange={(event) => setUnit(event.currentTarget.value as ExtensionUnit)}>
                {EXTENSION_UNITS.map((item) => (
                  <option key={item.value} value={item.value}>
                    {item.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </ActionDialog>
      )}
      {open === "review" && (
        <ActionDialog title={hostSide ? "Review the renter" : "Add review"} onClose={close} onSubmit={sendReview} busy={busy} submitLabel="Submit review">
          <p className="dash-note">Your review is published when both of you have reviewed, or 14 days after the booking ended.</p>
          <Stars value={rating} onChange={setRating} />
          <label className="action-field">
            Review
            <textarea value={review} maxLength={2000} onChange={(event) => setReview(event.currentTarget.value)} />
          </label>
          <label className="action-field">
            Remarks (private, for the platform)
            <textarea value={remarks} maxLength={2000} onChange={(event) => setRemarks(event.currentTarget.value)} />
          </label>
        </ActionDialog>
      )}
      {open === "dispute" && (
        <ActionDialog title="Raise dispute" onClose={close} onSubmit={dispute} error={error} busy={busy} submitLabel="Raise dispute">
          <label className="action-field">
            What went wrong? *
            <textarea value={reason} maxLength={2000} onChange={(event) => setReason(event.currentTarget.value)} aria-invalid={Boolean(error) || undefined} />
          </label>
          <label className="action-field">
            Evidence (images or PDFs, up to {MAX_EVIDENCE}, 10 MB each)
            <input
              type="file"
              multiple
              accept="image/png,image/jpeg,image/webp,application/pdf"
              onChange={(event) => setFiles(Array.from(event.currentTarget.files ?? []))}
            />
          </label>
        </ActionDialog>
      )}
    </div>
  );
}
