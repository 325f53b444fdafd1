/** Dashboard statistics (spec 2.4): intervals, axis labels and the chart's data. */

import type { Schemas } from "../../shared/api/client";

export const INTERVALS = [
  { value: "week", label: "Weekly" },
  { value: "month", label: "Monthly" },
  { value: "year", label: "Yearly" },
] as const;
export type Interval = (typeof INTERVALS)[number]["value"];

export const WEEK_LABELS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
export const MONTH_LABELS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
export const HIGH_DEMAND_COLOURS = ["Black", "Yellow", "Blue", "Green"];

/** The x axis: Sun..Sat for a week, Jan..Dec for a month view, the last 10 years for a year view. */
export function axisLabels(interval: Interval, now: Date = new Date()): string[] {
  if (interval === "week") return WEEK_LABELS;
  if (interval === "month") return MONTH_LABELS;
  const year = now.getFullYear();
  return Array.from({ length: 10 }, (_, index) => String(year - 9 + index));
}

export type PropertyStatisticsEntry = Partial<Schemas["TypedPeriod"]>;

export interface ChartSeries {
  labels: string[];
  eventSpaces: number[];
  workSpaces: number[];
  total: number;
  year: number;
}

/**
 * Turn the property-statistics list (one entry per period, oldest first) into the two bar series.
 * The axis is the spec's (Sun..Sat, Jan..Dec, the last 10 years); the server's own labels are used
 * when it sends one entry per bar. The year shown is the newest period's.
 */
export function chartSeries(interval: Interval, entries: PropertyStatisticsEntry[], now: Date = new Date()): ChartSeries {
  const axis = axisLabels(interval, now);
  const fromServer = entries.length === axis.length && entries.every((entry) => entry?.label);
  const labels = fromServer ? entries.map((entry) => String(entry.label)) : axis;
  const eventSpaces = labels.map((_, index) => count(entries[index], "eventSpace"));
  const workSpaces = labels.map((_, index) => count(entries[index], "officeSpace"));
  const total = [...eventSpaces, ...workSpaces].reduce((sum, value) => sum + value, 0);
  const years = entries.map((entry) => entry?.year).filter((year): year is number => Boolean(year));
  const year = years.length ? years[years.length - 1] : now.getFullYear();
  return { labels, eventSpaces, workSpaces, total, year };
}

function count(entry: PropertyStatisticsEntry | undefined, type: string): number {
  return entry?.data?.filter((item) => item.propertyType === type).reduce((sum, item) => sum + (Number(item.count) || 0), 0) ?? 0;
}

/** Only the first four high-demand locations get a colour, in this order. */
export function highDemandColour(index: number): string | null {
  return HIGH_DEMAND_COLOURS[index] ?? null;
}

export type DashboardNumbers = Schemas["DashboardNumbers"];

export interface StatCard {
  label: string;
  key: keyof DashboardNumbers;
  href: string;
  money?: boolean;
}

export const STAT_CARDS: StatCard[] = [
  { label: "Total Bookings", key: "totalBooking", href: "/booking" },
  { label: "Total rent paid", key: "totalRentPaid", href: "/invoices", money: true },
  { label: "Spaces occupied", key: "totalSpaceOccupied", href: "/booking" },
  { label: "Canceled Bookings", key: "cancelledRequestsCount", href: "/booking" },
];
