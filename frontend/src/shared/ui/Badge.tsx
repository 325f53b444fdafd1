/** Status badges for the whole vocabulary of spec section 4.5. */
import "./css/kit.css";

export const BADGE_STATUSES = [
  "available",
  "ongoing",
  "inprogress",
  "open",
  "closed",
  "cancelled",
  "rejected",
  "failed",
  "availableSoon",
  "verified",
  "released",
  "completed",
  "approved",
  "refunded",
  "pending",
  "requested",
  "new",
  "disputed",
  "cleared",
  "paid",
  "unpaid",
  "onhold",
  "manual",
  "expired",
] as const;

const LABELS: Record<string, string> = {
  inprogress: "In Progress",
  availableSoon: "Available Soon",
  onhold: "On Hold",
};

/** Payouts speak their own words: onhold = Pending, released = Approved, failed = Rejected. */
const PAYOUT_LABELS: Record<string, string> = { onhold: "Pending", released: "Approved", failed: "Rejected" };

const TONES: Record<string, string> = {
  available: "green",
  ongoing: "blue",
  inprogress: "blue",
  open: "blue",
  closed: "grey",
  cancelled: "red",
  rejected: "red",
  failed: "red",
  availableSoon: "yellow",
  verified: "green",
  released: "green",
  completed: "green",
  approved: "green",
  refunded: "purple",
  pending: "yellow",
  requested: "yellow",
  new: "blue",
  disputed: "orange",
  cleared: "green",
  paid: "green",
  unpaid: "red",
  onhold: "yellow",
  manual: "grey",
  expired: "grey",
};

export function badgeLabel(status: string, kind: "default" | "payout" = "default"): string {
  if (kind === "payout" && PAYOUT_LABELS[status]) return PAYOUT_LABELS[status];
  if (LABELS[status]) return LABELS[status];
  if (!status) return "";
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** The dashboard's invoices show a completed payment as paid and anything else as unpaid. */
export function invoiceStatus(paymentStatus: string): "paid" | "unpaid" {
  return paymentStatus === "completed" ? "paid" : "unpaid";
}

/** A status as a coloured, non-clickable badge ("payout" speaks the payout words). */
export function Badge({ status, kind = "default" }: { status: string; kind?: "default" | "payout" }) {
  const tone = TONES[status] ?? "grey";
  return <span className={`badge badge--${tone}`} data-status={status}>{badgeLabel(status, kind)}</span>;
}
