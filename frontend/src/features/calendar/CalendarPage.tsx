/**
 * /calender (every role): month, week and day views of the renter's bookings, the host's
 * listings' bookings and blocked dates, or the platform's bookings for staff. Each booking opens
 * its page; hosts copy each listing's iCal link. The view and day live in the URL.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ChevronLeft, ChevronRight, Copy } from "lucide-react";
import { api, call, type Schemas } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { useListState } from "../../shared/hooks/useListState";
import { Badge } from "../../shared/ui/Badge";
import { Spinner } from "../../shared/ui/Spinner";
import { toast } from "../../shared/ui/toast";
import "../../shared/ui/css/dashboard.css";
import "./calendar.css";
import { ExternalCalendarsPanel } from "./ExternalCalendars";
import { ResetCalendarLinks } from "./ResetCalendarLinks";
import { bookingsOn, type CalendarBooking, type CalendarView, monthWeeks, step, today, viewRange, viewTitle, VIEWS, WEEKDAY_LABELS, addDays } from "./grid";
import type { IslandProps } from "../../shared/ui/mountIsland";

type CalendarData = Schemas["Calendar"];
type Blocked = Schemas["CalendarBlocked"];
type Imported = Schemas["CalendarImported"];

/** The imported events touching a local day (yyyy-MM-dd) of their listing's zone. */
function importedOn(rows: Imported[], day: string): Imported[] {
  return rows.filter((row) => {
    const first = new Intl.DateTimeFormat("en-CA", { timeZone: row.timeZone }).format(new Date(row.start));
    const last = new Intl.DateTimeFormat("en-CA", { timeZone: row.timeZone }).format(new Date(new Date(row.end).getTime() - 1));
    return first <= day && day <= last;
  });
}

function ImportedEntry({ row }: { row: Imported }) {
  const when = `${new Date(row.start).toLocaleString("en-US", { timeZone: row.timeZone, dateStyle: "medium", timeStyle: "short" })} to ${new Date(row.end).toLocaleString("en-US", { timeZone: row.timeZone, dateStyle: "medium", timeStyle: "short" })}`;
  return (
    <span className="cal-imported" title={`${row.title}: blocked by ${row.calendarName}${row.summary ? ` (${row.summary})` : ""}, ${when}`}>
      {row.calendarName}: {row.title}
    </span>
  );
}

function useCalendar(from: string, to: string) {
  return useQuery({
    queryKey: apiKey("/api/booking/calendar", { from, to }),
    queryFn: ({ signal }) =>
      call(api.GET("/api/booking/calendar", { params: { query: { from, to } }, signal })).then((answer) => answer.data),
    placeholderData: (previous) => previous,
  });
}

function Entry({ booking }: { booking: CalendarBooking }) {
  return (
    <a className={`cal-entry cal-entry--${booking.status}`} href={booking.link} title={`${booking.title}: ${booking.checkInDate} to ${booking.checkOutDate} (${booking.status})`}>
      {booking.title}
    </a>
  );
}

function DayCell({ day, data, inMonth }: { day: string; data?: CalendarData; inMonth: boolean }) {
  const bookings = bookingsOn(data?.bookings ?? [], day);
  const blocked = (data?.blocked ?? []).filter((row) => row.date === day);
  const imported = importedOn(data?.imported ?? [], day);
  return (
    <td className={`cal-day${inMonth ? "" : " cal-day--outside"}${day === today() ? " cal-day--today" : ""}`}>
      <span className="cal-date">{Number(day.slice(8))}</span>
      {bookings.slice(0, 3).map((booking) => (
        <Entry key={booking._id} booking={booking} />
      ))}
      {bookings.length > 3 && <span className="cal-more">+{bookings.length - 3} more</span>}
      {blocked.map((row) => (
        <span key={row.listingId} className="cal-blocked" title={`${row.title} is blocked`}>
          Blocked: {row.title}
        </span>
      ))}
      {imported.map((row) => (
        <ImportedEntry key={row._id} row={row} />
      ))}
    </td>
  );
}

function IcalLinks({ bookings, blocked }: { bookings: CalendarBooking[]; blocked: Blocked[] }) {
  const listings = new Map<string, string>();
  for (const row of [...bookings, ...blocked]) listings.set(row.listingId, row.title);
  const { data } = useQuery({
    queryKey: apiKey("/api/listing/get-all", { calendar: true }),
    queryFn: ({ signal }) => call(api.GET("/api/listing/get-all", { params: { query: { page: 1, limit: 10 } }, signal }), { silent: true }).then((answer) => answer.data.listings),
  });
  for (const listing of data ?? []) listings.set(listing._id, listing.title);
  const copy = async (listingId: string) => {
    try {
      const answer = await call(api.GET("/api/listing/calendar-url/{listing_id}", { params: { path: { listing_id: listingId } } }));
      await navigator.clipboard?.writeText(answer.data.url);
      toast.success("Calendar link copied.");
    } catch {
      /* the toast already said why */
    }
  };
  if (!listings.size) return null;
  return (
    <section className="dash-card" aria-labelledby="ical-title">
      <h2 id="ical-title">Calendar links</h2>
      <p className="dash-note">Add a listing's bookings to another calendar (Google, Outlook, Apple) with its private iCal link.</p>
      <ResetCalendarLinks />
      <ul className="plain-list">
        {[...listings].map(([id, title]) => (
          <li key={id}>
            {title}{" "}
            <button type="button" className="button button--quiet" onClick={() => void copy(id)} aria-label={`Copy iCal link of ${title}`}>
              <Copy aria-hidden="true" size={14} /> Copy iCal link
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The host's listings, one chosen, and that listing's imported calendars. */
function ImportedCalendars() {
  const { data } = useQuery({
    queryKey: apiKey("/api/listing/get-all", { calendar: true }),
    queryFn: ({ signal }) => call(api.GET("/api/listing/get-all", { params: { query: { page: 1, limit: 10 } }, signal }), { silent: true }).then((answer) => answer.data.listings),
  });
  const [chosen, setChosen] = useState("");
  const listings = data ?? [];
  const listing = listings.find((item) => item._id === chosen) ?? listings[0];
  if (!listing) return null;
  return (
    <>
      {listings.length > 1 && (
        <div className="form-field cal-listing-choice">
          <label className="form-field__label" htmlFor="imported-listing">
            Listing whose imported calendars to manage
          </label>
          <select id="imported-listing" className="form-field__input" value={listing._id} onChange={(event) => setChosen(event.currentTarget.value)}>
            {listings.map((item) => (
              <option key={item._id} value={item._id}>
                {item.title}
              </option>
            ))}
          </select>
        </div>
      )}
      <ExternalCalendarsPanel listingId={listing._id} listingTitle={listing.title} />
    </>
  );
}

/** `hostSide`: from the server, the user works on its host's listings (the iCal links are offered). */
export function CalendarPage({ hostSide = false }: Partial<Pick<IslandProps<"DashboardCalendar">, "hostSide">>) {
  const [state, setState] = useListState({ view: "month", day: today() });
  const view = (VIEWS.includes(state.view as CalendarView) ? state.view : "month") as CalendarView;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(state.day) ? state.day : today();
  const { from, to } = viewRange(view, day);
  const calendar = useCalendar(from, to);
  const data = calendar.data;
  return (
    <>
      <div className="dash-title">
        <h1>My Calender</h1>
      </div>
      <section className="dash-card" aria-labelledby="cal-title">
        <div className="cal-toolbar">
          <div className="cal-nav">
            <button type="button" className="button button--quiet" onClick={() => setState({ day: step(view, day, -1) })} aria-label={`Previous ${view}`}>
              <ChevronLeft aria-hidden="true" size={18} />
            </button>
            <button type="button" className="button button--quiet" onClick={() => setState({ day: today() })}>
              Today
            </button>
            <button type="button" className="button button--quiet" onClick={() => setState({ day: step(view, day, 1) })} aria-label={`Next ${view}`}>
              <ChevronRight aria-hidden="true" size={18} />
            </button>
          </div>
          <h2 id="cal-title">{viewTitle(view, day)}</h2>
          <div className="tabs" role="tablist" aria-label="View">
            {VIEWS.map((item) => (
              <button key={item} type="button" role="tab" className="tab" aria-selected={item === view} onClick={() => setState({ view: item })}>
                {item.charAt(0).toUpperCase() + item.slice(1)}
              </button>
            ))}
          </div>
        </div>
        {calendar.isPending ? (
          <Spinner size="large" />
        ) : view === "month" ? (
          <div className="cal-scroll">
            <table className="cal-month">
              <thead>
                <tr>
                  {WEEKDAY_LABELS.map((label) => (
                    <th key={label} scope="col">
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {monthWeeks(day).map((week) => (
                  <tr key={week[0]}>
                    {week.map((date) => (
                      <DayCell key={date} day={date} data={data} inMonth={date.slice(0, 7) === day.slice(0, 7)} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <ol className="cal-list">
            {Array.from({ length: view === "week" ? 7 : 1 }, (_, offset) => addDays(from, offset)).map((date) => {
              const bookings = bookingsOn(data?.bookings ?? [], date);
              const blocked = (data?.blocked ?? []).filter((row) => row.date === date);
              const imported = importedOn(data?.imported ?? [], date);
              return (
                <li key={date} className={date === today() ? "cal-list__day cal-day--today" : "cal-list__day"}>
                  <h3>{viewTitle("day", date)}</h3>
                  {bookings.length === 0 && blocked.length === 0 && imported.length === 0 && <p className="dash-note">No bookings</p>}
                  <ul className="plain-list">
                    {bookings.map((booking) => (
                      <li key={booking._id}>
                        <a href={booking.link}>{booking.title}</a> {booking.checkInDate === booking.checkOutDate ? "" : `${booking.checkInDate} to ${booking.checkOutDate}`}{" "}
                        {new Date(booking.start).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" })}–{new Date(booking.end).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" })} <Badge status={booking.status} />
                      </li>
                    ))}
                    {blocked.map((row) => (
                      <li key={row.listingId}>
                        <span className="cal-blocked">Blocked: {row.title}</span>
                      </li>
                    ))}
                    {imported.map((row) => (
                      <li key={row._id}>
                        <ImportedEntry row={row} />{" "}
                        {new Date(row.start).toLocaleTimeString("en-US", { timeZone: row.timeZone, hour: "2-digit", minute: "2-digit" })}–{new Date(row.end).toLocaleTimeString("en-US", { timeZone: row.timeZone, hour: "2-digit", minute: "2-digit" })}
                      </li>
                    ))}
                  </ul>
                </li>
              );
            })}
          </ol>
        )}
      </section>
      {hostSide && data && <IcalLinks bookings={data.bookings} blocked={data.blocked} />}
      {hostSide && <ImportedCalendars />}
    </>
  );
}
