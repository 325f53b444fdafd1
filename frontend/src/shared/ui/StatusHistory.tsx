/**
 * A record's status history as the API gives it (`statusHistory` on detail responses: who, when,
 * from, to, why), oldest first. The server decides who sees it; an empty history shows nothing.
 */
import type { Schemas } from "../api/client";
import { formatDateTime } from "../format";

export type StatusChange = Schemas["StatusChangeSchema"];

function actorName(actor: StatusChange["actor"]): string {
  if (!actor) return "the system";
  const name = actor.displayName || `${actor.firstName} ${actor.lastName}`.trim() || "someone";
  return actor.role ? `${name} (${actor.role})` : name;
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
