/**
 * /payment-details?paymentId= (or ?bookingId=), admin, host and subHost: one payment's story:
 * authorisation, capture, extension charges, refunds with their credit notes, the invoices, the
 * commission, the host's earning and the payout it went into.
 */
import { Badge } from "../../shared/ui/Badge";
import { Spinner } from "../../shared/ui/Spinner";
import { FilterHeader } from "../bookings/FilterHeader";
import { formatDate, money } from "../../shared/format";
import { useApiQuery } from "../../shared/api/hooks";
import type { Schemas } from "../../shared/api/client";
import type { IslandProps } from "../../shared/ui/mountIsland";

/** The answer of GET /api/payment/details. */
export type PaymentStory = Schemas["PaymentDetails"];

const STEP_LABELS: Record<PaymentStory["steps"][number]["kind"], string> = {
  created: "Payment started",
  authorized: "Card authorised (held)",
  captured: "Captured",
  extension: "Extension paid",
  refund: "Refunded",
  released: "Hold released",
  "payout-onhold": "Payout requested",
  "payout-released": "Paid out to the host",
  "payout-failed": "Payout rejected",
};

export function stepLabel(kind: PaymentStory["steps"][number]["kind"]): string {
  return STEP_LABELS[kind] ?? kind;
}

export function PaymentDetailsPage({ paymentId = "", bookingId = "" }: Partial<Pick<IslandProps<"DashboardPaymentDetails">, "paymentId" | "bookingId">>) {
  const query = useApiQuery(
    "/api/payment/details",
    { params: { query: { paymentId: paymentId || undefined, bookingId: bookingId || undefined } } },
    { enabled: Boolean(paymentId || bookingId), retry: false, select: (answer) => answer.data },
  );
  const story = query.data;
  const failed = !(paymentId || bookingId) || query.isError;
  if (failed) {
    return (
      <>
        <FilterHeader title="Payment Details" />
        <div className="dash-card dash-empty">
          No payment to show. Open one from <a href="/payments">Payments</a>.
        </div>
      </>
    );
  }
  if (!story) {
    return (
      <div className="dash-loading">
        <Spinner size="large" />
      </div>
    );
  }
  return (
    <>
      <FilterHeader title="Payment Details" />
      <div className="dash-grid dash-detail">
        <section className="dash-card" aria-labelledby="payment-title">
          <h2 id="payment-title">{story.listing.title}</h2>
          <dl>
            <dt>Status</dt>
            <dd>
              <Badge status={story.status} />
            </dd>
            <dt>Booking</dt>
            <dd>
              <a href={`/booking-detail/${story.booking._id}`}>View booking</a> <Badge status={story.booking.status} />
            </dd>
            <dt>Renter</dt>
            <dd>{story.renter.displayName}</dd>
            <dt>Host</dt>
            <dd>{story.host.displayName}</dd>
            <dt>Amount</dt>
            <dd>{money(story.totalAmount)}</dd>
            <dt>Captured</dt>
            <dd>{money(story.capturedAmount)}</dd>
            <dt>Extensions</dt>
            <dd>{money(story.extendedAmount)}</dd>
            <dt>Refunded</dt>
            <dd data-testid="refunded">{money(story.refundedAmount)}</dd>
            <dt>Commission</dt>
            <dd>
              {money(story.booking.commission)}
              {story.booking.commissionPercent ? ` (${story.booking.commissionPercent}%)` : ""}
            </dd>
            {story.paymentId && (
              <>
                <dt>Provider reference</dt>
                <dd>{story.paymentId}</dd>
              </>
            )}
          </dl>
        </section>
        <section className="dash-card" aria-labelledby="steps-title">
          <h2 id="steps-title">History</h2>
          <ol className="payment-steps">
            {story.steps.map((step, index) => (
              <li key={index}>
                <strong>{stepLabel(step.kind)}</strong> {step.amount ? money(step.amount) : ""} <span className="dash-note">{formatDate(step.at)}</span>
              </li>
            ))}
          </ol>
        </section>
        <section className="dash-card" aria-labelledby="refunds-title">
          <h2 id="refunds-title">Refunds and credit notes</h2>
          {story.refunds.length === 0 ? (
            <p className="dash-empty">No refunds.</p>
          ) : (
            <ul>
              {story.refunds.map((refund) => (
                <li key={refund._id}>
                  {money(refund.amount)}: {refund.sourceLabel}
                  {refund.reason ? ` (${refund.reason})` : ""}, {formatDate(refund.createdAt)}
                  {refund.creditNote && <> · credit note {refund.creditNote.number}</>}
                </li>
              ))}
            </ul>
          )}
          <h3>Invoices</h3>
          {story.invoices.length === 0 ? (
            <p className="dash-empty">No invoices yet.</p>
          ) : (
            <ul>
              {story.invoices.map((invoice) => (
                <li key={invoice._id}>
                  <a href={invoice.pdf}>{invoice.number}</a> {invoice.kind === "creditNote" ? "Credit note" : "Invoice"} {money(invoice.amount)},{" "}
                  {formatDate(invoice.issuedAt)}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="dash-card" aria-labelledby="earning-title">
          <h2 id="earning-title">Host earning and payout</h2>
          {story.earning ? (
            <dl>
              <dt>Gross</dt>
              <dd>{money(story.earning.grossAmount)}</dd>
              <dt>Commission</dt>
              <dd>{money(story.earning.commission)}</dd>
              <dt>Refunds</dt>
              <dd>{money(story.earning.refundedAmount)}</dd>
              <dt>Earning</dt>
              <dd>{money(story.earning.amount)}</dd>
              <dt>Payout</dt>
              <dd>
                {story.payout ? (
                  <>
                    {money(story.payout.amount)} <Badge status={story.payout.status} /> requested {formatDate(story.payout.requestedAt)}
                  </>
                ) : (
                  "Not paid out yet"
                )}
              </dd>
            </dl>
          ) : (
            <p className="dash-empty">The host earns from this payment once the booking is completed.</p>
          )}
        </section>
      </div>
    </>
  );
}
