/**
 * How the product writes money, dates and times (spec section 9): $ with two decimals, dd-MM-yyyy,
 * 12-hour times, each in the time zone the server names for the object (a listing's own zone for
 * its bookings; America/New_York where no object names one).
 */

import { SLOT_MINUTES } from "../constants";

/** The zone for dates with no listing (payment lists, notifications): spec section 9. */
export const DEFAULT_TIME_ZONE = "America/New_York";
export { SLOT_MINUTES };

/** Money as $ with two decimals ("$1,234.50"); "$0.00" for anything unreadable. Negative amounts keep their sign. */
export function money(value: string | number | null | undefined): string {
  const number = typeof value === "number" ? value : Number.parseFloat(value ?? "0");
  const safe = Number.isFinite(number) ? number : 0;
  const text = Math.abs(safe).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return safe < 0 ? `-$${text}` : `$${text}`;
}

function parts(date: Date, timeZone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of new Intl.DateTimeFormat("en-US", { timeZone, ...options }).formatToParts(date)) out[part.type] = part.value;
  return out;
}

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A date as dd-MM-yyyy in `timeZone`. A plain calendar date ("2026-03-05") is that day wherever
 * you are; strings already in dd-MM-yyyy pass through.
 */
export function formatDate(value: string | Date | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  if (!value) return "";
  if (typeof value === "string") {
    if (/^\d{2}-\d{2}-\d{4}$/.test(value)) return value;
    const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (plain) return `${plain[3]}-${plain[2]}-${plain[1]}`;
  }
  const date = toDate(value);
  if (!date) return String(value);
  const p = parts(date, timeZone, { day: "2-digit", month: "2-digit", year: "numeric" });
  return `${p.day}-${p.month}-${p.year}`;
}

/** The 12-hour label of minutes after midnight: 570 gives "09:30 AM", 0 gives "12:00 AM", 780 "01:00 PM". */
export function clockLabel(minutes: number): string {
  const hours24 = Math.floor(minutes / 60) % 24;
  const minute = minutes % 60;
  const suffix = hours24 < 12 ? "AM" : "PM";
  const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
  return `${String(hours12).padStart(2, "0")}:${String(minute).padStart(2, "0")} ${suffix}`;
}

/**
 * A time in 12-hour format ("09:30 AM") in `timeZone`: an instant (ISO date-time) is converted,
 * a wall-clock "HH:MM" (24-hour) is only relabelled, a label already in 12-hour form passes through.
 */
export function formatTime(value: string | Date | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  if (!value) return "";
  if (typeof value === "string") {
    if (/^\d{1,2}:\d{2}\s*[AaPp][Mm]$/.test(value.trim())) return value.trim().toUpperCase();
    const clock = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(value);
    if (clock) return clockLabel(Number(clock[1]) * 60 + Number(clock[2]));
  }
  const date = toDate(value);
  if (!date) return String(value);
  const p = parts(date, timeZone, { hour: "2-digit", minute: "2-digit", hour12: false, hourCycle: "h23" });
  return clockLabel((Number(p.hour) % 24) * 60 + Number(p.minute));
}

/** dd-MM-yyyy hh:mm AM/PM in `timeZone`, for a moment (a notification, a message). */
export function formatDateTime(value: string | Date | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  if (!value) return "";
  return `${formatDate(value, timeZone)} ${formatTime(value, timeZone)}`;
}

/** Every 30-minute slot from `from` to `to` minutes after midnight (both included), as 12-hour labels. */
export function timeSlots(from = 0, to = 24 * 60 - SLOT_MINUTES, step = SLOT_MINUTES): { minutes: number; label: string }[] {
  const slots = [];
  for (let minutes = from; minutes <= to; minutes += step) slots.push({ minutes, label: clockLabel(minutes) });
  return slots;
}

/** A percentage with up to two decimals ("12.5%"). */
export function percent(value: string | number | null | undefined): string {
  const number = typeof value === "number" ? value : Number.parseFloat(value ?? "0");
  const safe = Number.isFinite(number) ? number : 0;
  return `${Number(safe.toFixed(2))}%`;
}

/** A menu or bell counter: nothing for 0, the number up to 9, then "9+". */
export function counterText(value: number | null | undefined): string {
  if (!value || value <= 0) return "";
  return value > 9 ? "9+" : String(value);
}

/** The sidebar user name: at most 6 characters, then two dots when it was longer. */
export function shortName(name: string | null | undefined): string {
  const text = (name ?? "").trim();
  return text.length > 6 ? `${text.slice(0, 6)}..` : text;
}

export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? "";
  return value.length > max ? `${value.slice(0, max)}...` : value;
}

/**
 * The name a person is shown by: the server's `displayName` (first and last name, else the user
 * name, else the e-mail's local part: one rule, `User.display_name`); older shapes without it
 * fall back to the same rule here.
 */
export function fullName(
  person: { displayName?: string; fullName?: string; firstName?: string; lastName?: string; userName?: string; email?: string } | null | undefined,
): string {
  if (!person) return "";
  return (
    person.displayName ||
    person.fullName ||
    `${person.firstName ?? ""} ${person.lastName ?? ""}`.trim() ||
    person.userName ||
    (person.email ?? "").split("@")[0]
  ).trim();
}
