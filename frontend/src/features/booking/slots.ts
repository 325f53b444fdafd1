/**
 * Dates and 30-minute time slots as the renter picks them (spec section 9): 12-hour labels such as
 * "09:30 AM", inside the listing's opening hours, in America/New_York like the server.
 */
import { SLOT_MINUTES } from "../../shared/constants";
import { clockLabel, DEFAULT_TIME_ZONE } from "../../shared/format";

export { SLOT_MINUTES };
export const DISPLAY_TIME_ZONE = DEFAULT_TIME_ZONE;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

export type DayHours = { open?: string | null; close?: string | null } | null;
/** Weekday name to hours; a missing day (or an empty table) is open around the clock, null is closed. */
export type OpeningHours = Record<string, DayHours> | null | undefined;

/** "HH:MM" (24-hour) to minutes after midnight; "24:00" (or "23:59") means the end of the day. */
function clockMinutes(value: string | null | undefined, fallback: number): number {
  if (!value) return fallback;
  const match = /^(\d{1,2}):(\d{2})/.exec(value);
  if (!match) return fallback;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return value === "23:59" ? 24 * 60 : Math.min(minutes, 24 * 60);
}

/** The 12-hour label of minutes after midnight: 570 gives "09:30 AM", 0 gives "12:00 AM". */
export const slotLabel = clockLabel;

/** Minutes after midnight of a label ("09:30 AM"); null when it is not one. */
export function labelMinutes(label: string): number | null {
  const match = /^\s*(\d{1,2}):(\d{2})\s*([AaPp][Mm])\s*$/.exec(label);
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour < 1 || hour > 12 || minute > 59) return null;
  return (hour % 12) * 60 + minute + (match[3].toUpperCase() === "PM" ? 12 * 60 : 0);
}

/** The weekday of a yyyy-MM-dd date (the calendar day itself, no time zone involved). */
export function weekdayOf(isoDate: string): (typeof WEEKDAYS)[number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return null;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(day.getTime()) ? null : WEEKDAYS[day.getUTCDay()];
}

/** [opens, closes] in minutes for the day, or null when the space is closed that day. */
export function openingFor(hours: OpeningHours, isoDate: string): [number, number] | null {
  const weekday = weekdayOf(isoDate);
  if (!weekday) return null;
  if (!hours || typeof hours !== "object" || Object.keys(hours).length === 0) return [0, 24 * 60];
  if (!(weekday in hours)) return [0, 24 * 60];
  const day = hours[weekday];
  if (!day) return null;
  const opens = clockMinutes(day.open, 0);
  let closes = clockMinutes(day.close, 24 * 60);
  if (closes <= opens) closes = 24 * 60;
  return [opens, closes];
}

export interface Slot {
  value: string;
  label: string;
  minutes: number;
}

function slot(minutes: number): Slot {
  const label = slotLabel(minutes);
  return { value: label, label, minutes };
}

/** Start times on the check-in day: every 30 minutes from opening to the last slot before closing. */
export function startSlots(hours: OpeningHours, isoDate: string): Slot[] {
  const opening = openingFor(hours, isoDate);
  if (!opening) return [];
  const [opens, closes] = opening;
  const first = Math.ceil(opens / SLOT_MINUTES) * SLOT_MINUTES;
  const slots: Slot[] = [];
  for (let minutes = first; minutes + SLOT_MINUTES <= closes; minutes += SLOT_MINUTES) slots.push(slot(minutes));
  return slots;
}

/**
 * End times on the check-out day: every 30 minutes after opening up to closing (a day open until
 * midnight ends at 11:30 PM). On a one-day booking only times after `afterMinutes` are offered.
 */
export function endSlots(hours: OpeningHours, isoDate: string, afterMinutes: number | null = null): Slot[] {
  const opening = openingFor(hours, isoDate);
  if (!opening) return [];
  const [opens, closes] = opening;
  const last = Math.min(closes, 24 * 60 - SLOT_MINUTES);
  const slots: Slot[] = [];
  const from = Math.max(opens, afterMinutes ?? -1) + SLOT_MINUTES;
  for (let minutes = Math.ceil(from / SLOT_MINUTES) * SLOT_MINUTES; minutes <= last; minutes += SLOT_MINUTES) {
    slots.push(slot(minutes));
  }
  return slots;
}

/** Today's date (yyyy-MM-dd) and the minutes passed, in the display time zone. */
export function nowInDisplayZone(now: Date = new Date()): { date: string; minutes: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: DISPLAY_TIME_ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** Start slots that are still ahead of now when the check-in day is today. */
export function futureStartSlots(hours: OpeningHours, isoDate: string, now: Date = new Date()): Slot[] {
  const slots = startSlots(hours, isoDate);
  const today = nowInDisplayZone(now);
  if (isoDate < today.date) return [];
  return isoDate === today.date ? slots.filter((s) => s.minutes > today.minutes) : slots;
}

/** yyyy-MM-dd to the displayed dd-MM-yyyy. */
export function displayDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  return match ? `${match[3]}-${match[2]}-${match[1]}` : isoDate;
}

/** Every yyyy-MM-dd from `from` to `to`, both included (at most 400 days). */
export function datesBetween(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return [];
  const days: string[] = [];
  for (let time = start; time <= end && days.length < 400; time += 86_400_000) {
    days.push(new Date(time).toISOString().slice(0, 10));
  }
  return days;
}
