/**
 * A listing's imported calendars (other marketplaces, the host's Google or Outlook calendar): the
 * list with each feed's status, last sync, error and event count; add one by name and iCal URL;
 * "Sync now"; remove. Their events block the listing's time (shown on /calender).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefreshCw, Trash2 } from "lucide-react";
import { type KeyboardEvent, useId, useState } from "react";
import { api, ApiError, call, type Schemas } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { formatDateTime } from "../../shared/format";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { toast } from "../../shared/ui/toast";
import "./calendar.css";

type ExternalCalendar = Schemas["ExternalCalendar"];
const PATH = "/api/listing/{listing_id}/calendars";
/** After an add or "Sync now", the list is read again every 2 s for a minute (the worker applies it). */
const WATCH_MS = 60_000;

function fieldErrors(error: unknown): Record<string, string[]> {
  if (error instanceof ApiError && error.body && typeof error.body === "object" && "errors" in error.body) {
    return ((error.body as { errors?: Record<string, string[]> }).errors ?? {}) as Record<string, string[]>;
  }
  return {};
}

export function ExternalCalendarsPanel({ listingId, listingTitle }: { listingId: string; listingTitle?: string }) {
  const queries = useQueryClient();
  const [watchUntil, setWatchUntil] = useState(0);
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [removing, setRemoving] = useState<ExternalCalendar | null>(null);
  const nameId = useId();
  const urlId = useId();
  const key = apiKey(PATH, { listingId });
  const calendars = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => call(api.GET(PATH, { params: { path: { listing_id: listingId } }, signal })).then((answer) => answer.data),
    refetchInterval: () => (Date.now() < watchUntil ? 2000 : false),
  });
  const changed = () => {
    setWatchUntil(Date.now() + WATCH_MS);
    void queries.invalidateQueries({ queryKey: key });
    void queries.invalidateQueries({ queryKey: ["/api/booking/calendar"] });
  };
  const add = useMutation({
    mutationFn: () => call(api.POST(PATH, { params: { path: { listing_id: listingId } }, body: { name, url } }), { silent: true }),
    onSuccess: (answer) => {
      toast.success(answer.message);
      setName("");
      setUrl("");
      changed();
    },
  });
  const syncNow = useMutation({
    mutationFn: (calendarId: string) => call(api.POST(`${PATH}/{calendar_id}/sync`, { params: { path: { listing_id: listingId, calendar_id: calendarId } } })),
    onSuccess: (answer) => {
      toast.success(answer.message);
      changed();
    },
  });
  const remove = useMutation({
    mutationFn: (calendarId: string) => call(api.DELETE(`${PATH}/{calendar_id}`, { params: { path: { listing_id: listingId, calendar_id: calendarId } } })),
    onSuccess: (answer) => {
      toast.success(answer.message);
      setRemoving(null);
      changed();
    },
  });
  const errors = fieldErrors(add.error);
  // Not a <form>: the panel also sits inside the listing form, whose submit must not fire.
  const canAdd = !add.isPending && Boolean(name.trim()) && Boolean(url.trim());
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (canAdd) add.mutate();
  };
  const rows = calendars.data ?? [];
  const titleId = `${nameId}-title`;
  return (
    <section className="dash-card ext-cal" aria-labelledby={titleId}>
      <h2 id={titleId}>Imported calendars{listingTitle ? `: ${listingTitle}` : ""}</h2>
      <p className="dash-note">
        Listed elsewhere too? Add that calendar's iCal address (Airbnb, Peerspace, Google, Outlook, Apple). Its events block this space here, refreshed every few minutes.
      </p>
      {rows.length > 0 && (
        <div className="people-scroll">
          <table className="ext-cal__table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Address</th>
                <th scope="col">Status</th>
                <th scope="col">Last sync</th>
                <th scope="col">Events</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((calendar) => (
                <tr key={calendar._id}>
                  <th scope="row">{calendar.name}</th>
                  <td>{calendar.url}</td>
                  <td>
                    <span className={`badge badge--${calendar.status === "ok" ? "green" : "red"}`}>{calendar.status === "ok" ? "OK" : "Failing"}</span>
                    {calendar.lastError && <p className="form-field__error">{calendar.lastError}</p>}
                  </td>
                  <td>{calendar.lastSyncedAt ? formatDateTime(calendar.lastSyncedAt) : "Not yet"}</td>
                  <td>{calendar.eventCount}</td>
                  <td className="ext-cal__actions">
                    <button type="button" className="button button--quiet" disabled={syncNow.isPending} onClick={() => syncNow.mutate(calendar._id)} aria-label={`Sync ${calendar.name} now`}>
                      <RefreshCw aria-hidden="true" size={14} /> Sync now
                    </button>
                    <button type="button" className="button button--quiet" onClick={() => setRemoving(calendar)} aria-label={`Remove ${calendar.name}`}>
                      <Trash2 aria-hidden="true" size={14} /> Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="form-row ext-cal__form" role="group" aria-label="Add a calendar">
        <div className="form-field">
          <label className="form-field__label" htmlFor={nameId}>
            Calendar name
          </label>
          <input id={nameId} className="form-field__input" value={name} maxLength={80} placeholder="Peerspace" onChange={(event) => setName(event.currentTarget.value)} onKeyDown={onEnter} aria-invalid={Boolean(errors.name)} />
          {errors.name && <p className="form-field__error">{errors.name[0]}</p>}
        </div>
        <div className="form-field ext-cal__url">
          <label className="form-field__label" htmlFor={urlId}>
            iCal address
          </label>
          <input id={urlId} className="form-field__input" type="url" inputMode="url" value={url} placeholder="https://… or webcal://…" onChange={(event) => setUrl(event.currentTarget.value)} onKeyDown={onEnter} aria-invalid={Boolean(errors.url)} />
          {errors.url && <p className="form-field__error">{errors.url[0]}</p>}
          {add.error && !errors.url && !errors.name && <p className="form-field__error">{add.error.message}</p>}
        </div>
        <button type="button" className="button" disabled={!canAdd} onClick={() => add.mutate()}>
          Add calendar
        </button>
      </div>
      {removing && (
        <ConfirmDialog
          title="Remove this calendar?"
          message={`The times "${removing.name}" blocks will be free to book here again.`}
          confirmLabel="Remove"
          tone="danger"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(removing._id)}
          onCancel={() => setRemoving(null)}
        />
      )}
    </section>
  );
}
