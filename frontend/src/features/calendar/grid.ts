/**
 * Dates for the calendar's month, week and day views (weeks run Sunday to Saturday, as the
 * dashboard's charts), as yyyy-MM-dd strings so no time zone shifts a day. No React here.
 */
import type { Schemas } from "../../shared/api/client";

export type CalendarView = "month" | "week" | "day";

export const VIEWS: readonly CalendarView[] = ["month", "week", "day"];

function parts(day: string): [number, number, number] {
  const [year, month, date] = day.split("-").map(Number);
  return [year, month, date];
}

function utc(day: string): Date {
  const [year, month, date] = parts(day);
  return new Date(Date.UTC(year, month - 1, date));
}

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const date = utc(day);
  date.setUTCDate(date.getUTCDate() + days);
  return isoDay(date);
}

export function weekday(day: string): number {
  return utc(day).getUTCDay();
}

/** Today in the viewer's own clock, as yyyy-MM-dd. */
export function today(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The first and last dates a view shows around `day`. */
export function viewRange(view: CalendarView, day: string): { from: string; to: string } {
  if (view === "day") return { from: day, to: day };
  if (view === "week") {
    const from = addDays(day, -weekday(day));
    return { from, to: addDays(from, 6) };
  }
  const first = `${day.slice(0, 7)}-01`;
  const from = addDays(first, -weekday(first));
  const [year, month] = parts(first);
  const last = isoDay(new Date(Date.UTC(year, month, 0)));
  const to = addDays(last, 6 - weekday(last));
  return { from, to };
}

/** The weeks (rows of seven dates) of the month view around `day`. */
export function monthWeeks(day: string): string[][] {
  const { from, to } = viewRange("month", day);
  const weeks: string[][] = [];
  for (let start = from; start <= to; start = addDays(start, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, offset) => addDays(start, offset)));
  }
  return weeks;
}

/** The day a step forward or back lands on (a month, a week or a day). */
export function step(view: CalendarView, day: string, direction: 1 | -1): string {
  if (view === "day") return addDays(day, direction);
  if (view === "week") return addDays(day, 7 * direction);
  const [year, month] = parts(day);
  const target = new Date(Date.UTC(year, month - 1 + direction, 1));
  return isoDay(target);
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const WEEKDAY_LABELS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The heading of a view: "March 2030", "3 Mar – 9 Mar 2030", "Sunday 3 March 2030". */
export function viewTitle(view: CalendarView, day: string): string {
  const [year, month, date] = parts(day);
  if (view === "month") return `${MONTHS[month - 1]} ${year}`;
  if (view === "day") return `${["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][weekday(day)]} ${date} ${MONTHS[month - 1]} ${year}`;
  const { from, to } = viewRange("week", day);
  const short = (value: string) => `${Number(value.slice(8))} ${MONTHS[Number(value.slice(5, 7)) - 1].slice(0, 3)}`;
  return `${short(from)} – ${short(to)} ${to.slice(0, 4)}`;
}

/** dd-MM-yyyy (how the API writes booking dates) as yyyy-MM-dd. */
export function fromDisplayDate(value: string): string {
  const [date, month, year] = value.split("-");
  return `${year}-${month}-${date}`;
}

/** One booking of GET /api/booking/calendar. */
export type CalendarBooking = Schemas["CalendarEvent"];

/** The bookings that cover `day` (from check-in to check-out, both included). */
export function bookingsOn<T extends Pick<CalendarBooking, "checkInDate" | "checkOutDate">>(bookings: readonly T[], day: string): T[] {
  return bookings.filter((booking) => fromDisplayDate(booking.checkInDate) <= day && day <= fromDisplayDate(booking.checkOutDate));
}
