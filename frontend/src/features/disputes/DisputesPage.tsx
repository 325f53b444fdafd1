/**
 * Disputes: `/disputes` (every role, status tabs), `/dispute-requests` (pending, host side and staff),
 * `/dispute-payments` (decided disputes; with `?id=` the dispute detail of spec 2.7: status badge,
 * reject reason, refunded amount, evidence, the conversation for staff, the staff's decision form).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, call, listFilters, pageCount } from "../../shared/api/client";
import { useApiQuery } from "../../shared/api/hooks";
import { apiKey, invalidate, queryClient } from "../../shared/api/query";
import { formatDate, formatDateTime, fullName, money, truncate } from "../../shared/format";
import { useListState } from "../../shared/hooks/useListState";
import { Badge } from "../../shared/ui/Badge";
import { Dialog } from "../../shared/ui/Dialog";
import { Spinner } from "../../shared/ui/Spinner";
import { type Column, DataTable } from "../../shared/ui/Table";
import { toast } from "../../shared/ui/toast";
import { type BookingSide, otherParty } from "../bookings/bookings";
import { FilterHeader } from "../bookings/FilterHeader";
import { isImage } from "../messages/api";
import { countersChanged } from "../notifications/counters";
import { decisionError, type Dispute, DISPUTE_TABS } from "./types";
import "./disputes.css";
import type { IslandProps } from "../../shared/ui/mountIsland";

type PageProps = IslandProps<"DashboardDisputes">;
/** From the server: the user's side (the list names the other party) and whether the user decides disputes (staff). */
type Props = Pick<PageProps, "view" | "side" | "staff" | "route"> & Partial<Pick<PageProps, "mode" | "id">>;

/** The word for a party of a booking (who raised the dispute, who wrote a message). */
const PARTY_WORD: Record<"renter" | "host", string> = { renter: "Renter", host: "Host" };

export const detailHref = (dispute: Pick<Dispute, "_id">) => `/dispute-payments?id=${encodeURIComponent(dispute._id)}`;

type ListPath = "/api/dispute/get-all" | "/api/dispute/dispute-requests" | "/api/dispute/dispute-payments";

/** One page of a dispute list; the three lists answer the same shape. */
async function disputePage(path: ListPath, query: { page: number; limit: number } & Record<string, string | number>, signal: AbortSignal) {
  const init = { params: { query }, signal };
  switch (path) {
    case "/api/dispute/get-all":
      return (await call(api.GET(path, init))).data;
    case "/api/dispute/dispute-requests":
      return (await call(api.GET(path, init))).data;
    case "/api/dispute/dispute-payments":
      return (await call(api.GET(path, init))).data;
  }
}

function DisputeList({ side, mode, decided }: { side: BookingSide; mode: "disputes" | "requests"; decided: boolean }) {
  const tabs = decided ? DISPUTE_TABS.filter((tab) => tab.value !== "pending") : mode === "requests" ? undefined : DISPUTE_TABS;
  const [state, update] = useListState({ tab: "all", page: 1, search: "" }, { allowedTabs: tabs?.map((tab) => tab.value) });
  const path: ListPath = decided ? "/api/dispute/dispute-payments" : mode === "requests" ? "/api/dispute/dispute-requests" : "/api/dispute/get-all";
  const filters = listFilters({ status: tabs && state.tab !== "all" ? state.tab : undefined, search: state.search });
  const query = useQuery({
    queryKey: apiKey(path, { page: state.page, ...filters }),
    queryFn: ({ signal }) => disputePage(path, { page: state.page, limit: 10, ...filters }, signal),
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const columns: Column<Dispute>[] = [
    { key: "listing", header: "Listing", render: (d) => truncate(d.listingId.title, 20) },
    {
      key: "party",
      header: otherParty(side) === "host" ? "Host" : "Renter",
      render: (d) => truncate(fullName(otherParty(side) === "host" ? d.hostId : d.renterId), 20) || "—",
    },
    { key: "reason", header: "Reason", render: (d) => truncate(d.reason, 40) },
    { key: "amount", header: "Refund", render: (d) => (d.refundAmount ? money(d.refundAmount) : "—") },
    { key: "date", header: "Raised on", render: (d) => formatDate(d.createdAt) },
    { key: "status", header: "Status", render: (d) => <Badge status={d.status} /> },
  ];
  return (
    <>
      <FilterHeader title={decided ? "Dispute Payments" : mode === "requests" ? "Dispute Requests" : "Disputes"} onSearch={(text) => update({ search: text })} />
      <DataTable<Dispute>
        columns={columns}
        rows={data?.disputes ?? []}
        rowKey={(d) => d._id}
        loading={query.isPending}
        tabs={tabs}
        tab={state.tab}
        onTab={(value) => update({ tab: value })}
        actions={[{ label: "View", href: detailHref, ariaLabel: (d) => `View dispute about ${d.listingId.title}` }]}
        page={state.page}
        totalPages={data ? pageCount(data) : 1}
        onPage={(next) => update({ page: next })}
      />
    </>
  );
}

function StaffConversation({ disputeId }: { disputeId: string }) {
  const query = useApiQuery(
    "/api/chat/dispute/{dispute_id}",
    { params: { path: { dispute_id: disputeId }, query: { limit: 50 } } },
    { silent: true, select: (answer) => [...answer.data.messages].reverse() },
  );
  if (query.isPending) return <Spinner />;
  const messages = query.data ?? [];
  if (messages.length === 0) return <p className="dash-empty">The renter and the host did not write to each other.</p>;
  return (
    <ol className="dispute-chat">
      {messages.map((message) => (
        <li key={message._id}>
          <strong>{PARTY_WORD[message.senderSide]}</strong> <span className="dash-note">{formatDateTime(message.createdAt)}</span>
          {message.text && <p>{message.text}</p>}
          {message.attachments.map((attachment) => (
            <a key={attachment._id} href={attachment.url} target="_blank" rel="noreferrer" className="chat-file">
              {attachment.name}
            </a>
          ))}
        </li>
      ))}
    </ol>
  );
}

function DecisionForm({ dispute }: { dispute: Dispute }) {
  const [status, setStatus] = useState<"approved" | "rejected" | null>(null);
  const [refund, setRefund] = useState("");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setStatus(null);
    setError(null);
  };
  const submit = async () => {
    if (!status) return;
    const problem = decisionError(status, refund, reason, dispute.refundableAmount);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const body = status === "approved" ? { status, refundAmount: refund.trim() } : { status, reason: reason.trim() };
      const answer = await call(api.PATCH("/api/dispute/update-status/{dispute_id}", { params: { path: { dispute_id: dispute._id } }, body }));
      toast.success(answer.message || "Dispute updated.");
      countersChanged();
      setStatus(null);
      queryClient().setQueryData(apiKey("/api/dispute/get-single/{dispute_id}", { params: { path: { dispute_id: dispute._id } } }), answer);
      void invalidate(["/api/dispute", "/api/payment", "/api/booking", "/api/invoice"]);
    } catch {
      /* toasted; the form keeps what was typed */
    } finally {
      setBusy(false);
    }
  };
  const formId = `decision-${dispute._id}`;
  return (
    <section className="dash-card" aria-labelledby="decision-title">
      <h2 id="decision-title">Decision</h2>
      {dispute.refundableAmount != null && <p className="dash-note">Up to {money(dispute.refundableAmount)} can be refunded.</p>}
      <div className="dash-actions">
        <button type="button" className="button" onClick={() => setStatus("approved")}>
          Approve with refund
        </button>
        <button type="button" className="button button--danger" onClick={() => setStatus("rejected")}>
          Reject
        </button>
      </div>
      {status && (
        <Dialog
          title={status === "approved" ? "Approve dispute" : "Reject dispute"}
          onClose={close}
          footer={
            <>
              <button type="button" className="button button--ghost" onClick={close} disabled={busy}>
                Cancel
              </button>
              <button type="submit" form={formId} className="button" disabled={busy || (status === "rejected" && !reason.trim())} aria-busy={busy || undefined}>
                {status === "approved" ? "Approve" : "Submit"}
              </button>
            </>
          }
        >
          <form
            id={formId}
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
            noValidate
          >
            {status === "approved" ? (
              <label className="dispute-field">
                Refund amount ($)
                <input
                  type="text"
                  inputMode="decimal"
                  name="refundAmount"
                  value={refund}
                  aria-invalid={Boolean(error) || undefined}
                  aria-describedby={error ? "decision-error" : undefined}
                  onChange={(event) => setRefund(event.currentTarget.value)}
                  placeholder={dispute.refundableAmount ?? ""}
                />
              </label>
            ) : (
              <label className="dispute-field">
                Reason
                <textarea
                  name="reason"
                  value={reason}
                  maxLength={1000}
                  aria-invalid={Boolean(error) || undefined}
                  aria-describedby={error ? "decision-error" : undefined}
                  onChange={(event) => setReason(event.currentTarget.value)}
                />
              </label>
            )}
            {error && (
              <p id="decision-error" className="field-error" role="alert">
                {error}
              </p>
            )}
          </form>
        </Dialog>
      )}
    </section>
  );
}

function DisputeDetail({ id, staff }: { id: string; staff: boolean }) {
  const query = useApiQuery("/api/dispute/get-single/{dispute_id}", { params: { path: { dispute_id: id } } }, { silent: true, retry: false });
  useEffect(() => {
    if (query.isError) toast.error("Error getting dispute data");
  }, [query.isError]);
  const dispute = query.data?.data;
  if (query.isError) return <div className="dash-card dash-empty">Error getting dispute data</div>;
  if (!dispute) {
    return (
      <div className="dash-loading">
        <Spinner size="large" />
      </div>
    );
  }
  const refunded = dispute.refundedAmount ?? dispute.paymentId?.refundedAmount ?? null;
  return (
    <>
      <FilterHeader title="Dispute" />
      <div className="dash-grid dash-detail">
        <section className="dash-card" aria-labelledby="dispute-title">
          <h2 id="dispute-title">{dispute.listingId.title}</h2>
          <dl>
            <dt>Status</dt>
            <dd>
              <Badge status={dispute.status} />
            </dd>
            {dispute.status === "rejected" && dispute.rejectReason && (
              <>
                <dt>Reject reason</dt>
                <dd data-testid="reject-reason">{dispute.rejectReason}</dd>
              </>
            )}
            {dispute.refundAmount && (
              <>
                <dt>Refund decided</dt>
                <dd>{money(dispute.refundAmount)}</dd>
              </>
            )}
            {refunded && Number(refunded) > 0 && (
              <>
                <dt>Refunded amount</dt>
                <dd data-testid="refunded-amount">{money(refunded)}</dd>
              </>
            )}
            <dt>Raised by</dt>
            <dd>{PARTY_WORD[dispute.raisedBy.role]}</dd>
            <dt>Raised on</dt>
            <dd>{formatDate(dispute.createdAt)}</dd>
            <dt>Booking</dt>
            <dd>
              <a href={`/booking-detail/${dispute.bookingId._id}`}>
                {dispute.bookingId.checkInDate} {dispute.bookingId.startTime} to {dispute.bookingId.checkOutDate} {dispute.bookingId.endTime}
              </a>{" "}
              <Badge status={dispute.bookingId.status} />
            </dd>
            <dt>Booking total</dt>
            <dd>{money(dispute.bookingId.totalAmount)}</dd>
            <dt>Renter</dt>
            <dd>{fullName(dispute.renterId) || "—"}</dd>
            <dt>Host</dt>
            <dd>{fullName(dispute.hostId) || "—"}</dd>
            {dispute.decidedBy && (
              <>
                <dt>Decided by</dt>
                <dd>
                  {dispute.decidedBy.displayName} ({dispute.decidedBy.role}) on {formatDate(dispute.decidedAt)}
                </dd>
              </>
            )}
          </dl>
          <h3>Reason</h3>
          <p className="dispute-reason">{dispute.reason}</p>
        </section>
        <section className="dash-card" aria-labelledby="evidence-title">
          <h2 id="evidence-title">Evidence</h2>
          {dispute.evidence.length === 0 ? (
            <p className="dash-empty">No files were attached.</p>
          ) : (
            <ul className="dispute-evidence">
              {dispute.evidence.map((file) => (
                <li key={file._id}>
                  {isImage(file) ? (
                    <a href={file.url} target="_blank" rel="noreferrer">
                      <img src={file.url} alt={file.name} loading="lazy" />
                    </a>
                  ) : (
                    <a href={file.url} download={file.name}>
                      {file.name}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
        {staff && (
          <section className="dash-card" aria-labelledby="conversation-title">
            <h2 id="conversation-title">Conversation</h2>
            <StaffConversation disputeId={dispute._id} />
          </section>
        )}
      </div>
      {dispute.can.decide && <DecisionForm dispute={dispute} />}
    </>
  );
}

export function DisputesPage({ view, mode = "disputes", id = "", side, staff, route }: Props) {
  if (view === "detail" && id) return <DisputeDetail id={id} staff={staff} />;
  return <DisputeList side={side} mode={mode} decided={route === "dispute-payments"} />;
}
