/**
 * A record's status history as the API gives it (`statusHistory` on detail responses: who, when,
 * from, to, why), oldest first. The server decides who sees it; an empty history shows nothing.
 */
import type { Schemas } from "../api/client";
import { formatDateTime } from "../format";

export type StatusChange = Schemas["StatusChangeSchema"];

interface Actor {
  firstName?: string;
  lastName?: string;
  role?: string;
}

function actorName(actor: unknown): string {
  if (!actor || typeof actor !== "object") return "the system";
  const { firstName = "", lastName = "", role = "" } = actor as Actor;
  const name = `${firstName} ${lastName}`.trim() || "someone";
  return role ? `${name} (${role})` : name;
}

export function StatusHistoryItems({ rows }: { rows: readonly StatusChange[] | undefined }) {
  return (
    <>
      {(rows ?? []).map((row, index) => (
        <li key={index}>
          {row.fromStatus ? `${row.fromStatus} → ` : ""}
          {row.toStatus} · {formatDateTime(row.createdAt)} · by {actorName(row.actor)}
          {row.reason ? `: ${row.reason}` : ""}
        </li>
      ))}
    </>
  );
}

export function StatusHistory({ rows, title = "History" }: { rows: readonly StatusChange[] | undefined; title?: string }) {
  if (!rows?.length) return null;
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      <ul className="plain-list">
        <StatusHistoryItems rows={rows} />
      </ul>
    </section>
  );
}
