/** Payments, payouts and payout requests: shapes, who may do what, and the table columns. */
import { Ban, CircleCheck, CirclePause } from "lucide-react";
import type { Schemas } from "../../shared/api/client";
import { formatDate, fullName, money, truncate } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import type { Column, RowAction, Tab } from "../../shared/ui/Table";

export type Payout = Schemas["Payout"];
export type Balance = Schemas["Balance"];
export type Payment = Schemas["Payment"];

/** The three decisions an admin can take on a payout request, as the API names them. */
export type PayoutDecision = "released" | "onhold" | "failed";

export const DECISIONS: Record<PayoutDecision, { label: string; verb: string; done: string }> = {
  released: { label: "Release", verb: "release", done: "Approved" },
  onhold: { label: "Hold", verb: "hold", done: "Pending" },
  failed: { label: "Fail", verb: "fail", done: "Rejected" },
};

/**
 * Which decisions a payout row offers: only a request still waiting (onhold) can be decided;
 * released and failed are final. Hold keeps a waiting request pending and records the decision.
 * The payout-requests page itself opens for the admin only (the server decides that).
 */
export function payoutDecisions(payout: Pick<Payout, "status">): PayoutDecision[] {
  return payout.status === "onhold" ? ["released", "onhold", "failed"] : [];
}

const DECISION_ICONS = { released: CircleCheck, onhold: CirclePause, failed: Ban } as const;

/** The row actions of the payout requests table. */
export function payoutActions(decide: (payout: Payout, decision: PayoutDecision) => void): RowAction<Payout>[] {
  return (Object.keys(DECISIONS) as PayoutDecision[]).map((decision) => ({
    label: DECISIONS[decision].label,
    icon: DECISION_ICONS[decision],
    tone: decision === "failed" ? ("danger" as const) : undefined,
    when: (payout: Payout) => payoutDecisions(payout).includes(decision),
    onClick: (payout: Payout) => decide(payout, decision),
  }));
}

/** A payment shows as paid when completed and unpaid otherwise (spec 4.5). */
export function paymentDisplayStatus(payment: Pick<Payment, "status" | "displayStatus">): string {
  return payment.displayStatus || (payment.status === "completed" ? "paid" : "unpaid");
}

export const PAYOUT_TABS: Tab[] = [
  { value: "onhold", label: "Pending" },
  { value: "released", label: "Approved" },
  { value: "failed", label: "Rejected" },
  { value: "all", label: "All" },
];

export function payoutColumns(withHost: boolean): Column<Payout>[] {
  const columns: Column<Payout>[] = [
    { key: "date", header: "Requested", render: (p) => formatDate(p.requestedAt ?? p.createdAt) },
  ];
  if (withHost) {
    columns.push({ key: "host", header: "Host", render: (p) => truncate(fullName(p.host), 30) || "—" });
  }
  columns.push(
    { key: "amount", header: "Amount", render: (p) => money(p.amount) },
    { key: "status", header: "Status", render: (p) => <Badge status={p.status} kind="payout" /> },
    { key: "decided", header: "Decided", render: (p) => (p.decidedAt ? formatDate(p.decidedAt) : "—") },
    { key: "note", header: "Note", render: (p) => truncate(p.note, 40) || "—" },
  );
  return columns;
}

/** `withHost`: the server's page flag for a user who sees every host's payments (the admin). */
export function paymentColumns(withHost: boolean): Column<Payment>[] {
  const columns: Column<Payment>[] = [
    { key: "date", header: "Date", render: (p) => formatDate(p.createdAt) },
    { key: "listing", header: "Listing", render: (p) => truncate(p.listingId?.title ?? "—", 20) },
    { key: "renter", header: "Renter", render: (p) => truncate(fullName(p.renter), 20) || "—" },
  ];
  if (withHost) {
    columns.push({ key: "host", header: "Host", render: (p) => truncate(fullName(p.host), 20) || "—" });
  }
  columns.push(
    { key: "amount", header: "Amount", render: (p) => money(p.totalAmount) },
    { key: "status", header: "Status", render: (p) => <Badge status={paymentDisplayStatus(p)} /> },
    { key: "details", header: "Details", render: (p) => <a href={`/payment-details?paymentId=${encodeURIComponent(p._id)}`}>View</a> },
  );
  return columns;
}
