import type { Schemas } from "../../shared/api/client";

/** A dispute as the API sends it (GET /api/dispute/...). */
export type Dispute = Schemas["DisputeSchema"];
export type Evidence = Schemas["DisputeEvidenceFile"];

export const DISPUTE_TABS = [
  { value: "all", label: "All" },
  { value: "pending", label: "Pending" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
];

export const MAX_EVIDENCE = 5;
export const EVIDENCE_MAX_BYTES = 10 * 1024 * 1024;

/** Checks the decision form before sending: the same rules the server enforces. */
export function decisionError(status: "approved" | "rejected", refund: string, reason: string, refundable: string | null | undefined): string | null {
  if (status === "rejected") return reason.trim() ? null : "Please give a reason for rejecting.";
  const amount = Number(refund);
  if (!refund.trim() || !Number.isFinite(amount)) return "The refund amount must be a number.";
  if (amount <= 0) return "The refund amount must be more than $0.00.";
  if (!/^\d+(\.\d{1,2})?$/.test(refund.trim())) return "The refund amount can have at most 2 decimal places.";
  if (refundable != null && amount > Number(refundable)) return `The refund can be at most $${Number(refundable).toFixed(2)}, what was paid less earlier refunds.`;
  return null;
}

/** Checks evidence files before upload: images or PDFs, 10 MB each, at most 5. */
export function evidenceError(files: File[]): string | null {
  if (files.length > MAX_EVIDENCE) return `Attach at most ${MAX_EVIDENCE} files.`;
  for (const file of files) {
    if (!/^image\/(png|jpeg|webp)$|^application\/pdf$/.test(file.type)) return `${file.name}: only images and PDFs can be attached.`;
    if (file.size > EVIDENCE_MAX_BYTES) return `${file.name} is larger than 10 MB.`;
  }
  return null;
}
