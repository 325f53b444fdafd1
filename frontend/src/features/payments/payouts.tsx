/** Payments, payouts and payout requests: shapes, who may do what, and the table columns. */
import { StatusBadge } from "../../shared/ui/badges";
import { formatDate, fullName, money, truncate } from "../../shared/format";
import type { Column, RowAction, Tab } from "../../shared/ui/Table";

export interface Party {
  _id: string;
  firstName?: string;
  lastName?: string;
  email?: string;
}

export interface Payout {
  _id: string;
  host: Party | null;
  amount: string;
  status: "onhold" | "released" | "failed" | string;
  statusLabel?: string;
  method: string;
  transferId?: string;
  note?: string;
  requestedAt: string;
  createdAt: string;
  decidedAt: string | null;
}

export interface Balance {
  available: string;
  pending: string;
  paid: string;
}

export interface Payment {
  _id: string;
  createdAt: string;
  bookingId: string;
  listingId: { title: string; propertyType: string } | null;
  renter: Party | null;
  host: Party | null;
  totalAmount: string;
  extendedAmount?: string;
  refundedAmount?: string;
  status: string;
  displayStatus?: "paid" | "unpaid";
  type: string;
  paymentId?: string;
}

/** The three decisions an admin can take on a payout request, as the API names them. */
export type PayoutDecision = "released" | "onhold" | "failed";

export const DECISIONS: Record<PayoutDecision, { label: string; verb: string; done: string }> = {
  released: { label: "Release", verb: "release", done: "Approved" },
  onhold: { label: "Hold", verb: "hold", done: "Pending" },
  failed: { label: "Fail", verb: "fail", done: "Rejected" },
};

/**
 * Which decisions a payout row offers. Only a request still waiting (onhold) can be decided:
 * released and failed are final. Hold keeps a waiting request pending and records the decision.
 */
export function payoutDecisions(role: string, payout: Pick<Payout, "status">): PayoutDecision[] {
  if (role !== "admin" || payout.status !== "onhold") return [];
  return ["released", "onhold", "failed"];
}

/** The row actions of the payout requests table (the shared Table filters them by role and row). */
export function payoutActions(decide: (payout: Payout, decision: PayoutDecision) => void): RowAction<Payout>[] {
  return (Object.keys(DECISIONS) as PayoutDecision[]).map((decision) => ({
    label: DECISIONS[decision].label,
    roles: ["admin"],
    when: (payout: Payout) => payoutDecisions("admin", payout).includes(decision),
    onClick: (payout: Payout) => decide(payout, decision),
  }));
}

/** Only the host itself asks to be paid, and only when something is available and nothing is waiting. */
export function mayRequestPayout(role: string, balance: Balance | null, payouts: Pick<Payout, "status">[] = []): boolean {
  if (role !== "host" || !balance) return false;
  if (payouts.some((payout) => payout.status === "onhold")) return false;
  return Number.parseFloat(balance.available) > 0;
}

/** The Payout page shows the balance to the host side; the admin has no balance of its own. */
export function showsBalance(role: string): boolean {
  return role === "host" || role === "subHost";
}

/** A payment shows as paid when completed and unpaid otherwise (spec 4.5). */
export function paymentDisplayStatus(payment: Pick<Payment, "status" | "displayStatus">): "paid" | "unpaid" {
  return payment.status === "completed" ? "paid" : "unpaid";
}

export const PAYOUT_TABS: Tab[] = [
  { value: "onhold", label: "Pending" },
  { value: "released", label: "Approved" },
  { value: "failed", label: "Rejected" },
  { value: "", label: "All" },
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
    { key: "status", header: "Status", render: (p) => <StatusBadge status={p.status} kind="payout" /> },
    { key: "decided", header: "Decided", render: (p) => (p.decidedAt ? formatDate(p.decidedAt) : "—") },
    { key: "note", header: "Note", render: (p) => truncate(p.note, 40) || "—" },
  );
  return columns;
}

export function paymentColumns(role: string): Column<Payment>[] {
  const columns: Column<Payment>[] = [
    { key: "date", header: "Date", render: (p) => formatDate(p.createdAt) },
    { key: "listing", header: "Listing", render: (p) => truncate(p.listingId?.title ?? "—", 20) },
    { key: "renter", header: "Renter", render: (p) => truncate(fullName(p.renter), 20) || "—" },
  ];
  if (role === "admin") {
    columns.push({ key: "host", header: "Host", render: (p) => truncate(fullName(p.host), 20) || "—" });
  }
  columns.push(
    { key: "amount", header: "Amount", render: (p) => money(p.totalAmount) },
    { key: "status", header: "Status", render: (p) => <StatusBadge status={paymentDisplayStatus(p)} /> },
  );
  return columns;
}
