import type { Schemas } from "../../shared/api/client";
/**
 * The admin and moderator dashboard widgets (spec 2.4): what the statistics API answers and the
 * rows, bars and series the widgets draw from it. Pure functions, tested on their own.
 */
import { fullName } from "../../shared/format";
import { HIGH_DEMAND_COLOURS, highDemandColour } from "./stats";

/** The spec names the colours; these are the shades the bars are painted with. */
export const COLOUR_SHADES: Record<string, string> = {
  Black: "#111827",
  Yellow: "#eab308",
  Blue: "#2563eb",
  Green: "#16a34a",
};
/** Bars after the fourth have no colour of their own: a neutral grey. */
export const UNCOLOURED_SHADE = "#9ca3af";

/** A percentage as the API sends it ("12.50", a number, or nothing) as a number from 0 to 100. */
export function percentValue(value: string | number | null | undefined): number {
  const number = typeof value === "string" ? Number.parseFloat(value) : (value ?? 0);
  if (!Number.isFinite(number)) return 0;
  return Math.min(100, Math.max(0, number));
}

/** A percentage for display: two places, as the API gives them. */
export function percentText(value: string | number | null | undefined): string {
  return `${percentValue(value).toFixed(2)}%`;
}

export type StatPerson = Schemas["StatPerson"];

export type ListingBrief = Schemas["ListingBrief"];

export type HighDemandLocation = Schemas["HighDemandLocation"];

export interface LocationBar {
  key: string;
  label: string;
  count: number;
  percentage: number;
  text: string;
  colour: string | null;
  shade: string;
}

/**
 * High-demand locations: the first four are coloured Black, Yellow, Blue, Green in that order and
 * only they get a colour; the order is the server's (most bookings first).
 */
export function locationBars(locations: HighDemandLocation[] | null | undefined): LocationBar[] {
  return (locations ?? []).map((location, index) => {
    const colour = highDemandColour(index);
    return {
      key: `${location.city}|${location.country}|${index}`,
      label: [location.city, location.country].filter(Boolean).join(", ") || "Unknown",
      count: Number(location.count) || 0,
      percentage: percentValue(location.percentage),
      text: percentText(location.percentage),
      colour,
      shade: colour ? COLOUR_SHADES[colour] : UNCOLOURED_SHADE,
    };
  });
}

export { HIGH_DEMAND_COLOURS };

export type HighDemandAmenity = Schemas["HighDemandAmenity"];

export interface AmenityBar {
  key: string;
  label: string;
  count: number;
  percentage: number;
  text: string;
}

/** Each amenity's share of the confirmed bookings whose listing offers it (need not sum to 100). */
export function amenityBars(amenities: HighDemandAmenity[] | null | undefined): AmenityBar[] {
  return (amenities ?? []).map((amenity) => ({
    key: amenity._id,
    label: amenity.name,
    count: Number(amenity.count) || 0,
    percentage: percentValue(amenity.percentage),
    text: percentText(amenity.percentage),
  }));
}

export type GeoChart = Schemas["GeoChart"];

export interface CountryBar {
  country: string;
  count: number;
  percentage: number;
  text: string;
}

/**
 * The geo chart's progress bars, largest first. The server's bars are used as they are; when only
 * the country-to-count map is there, the shares are computed from it (two places, half up).
 */
export function countryBars(geo: Partial<GeoChart> | null | undefined): CountryBar[] {
  if (!geo) return [];
  if (geo.progressBars && geo.progressBars.length > 0) {
    return [...geo.progressBars]
      .sort((a, b) => (Number(b.count) || 0) - (Number(a.count) || 0))
      .map((bar) => ({
        country: bar.country || "Unknown",
        count: Number(bar.count) || 0,
        percentage: percentValue(bar.percentage),
        text: percentText(bar.percentage),
      }));
  }
  const entries = Object.entries(geo.geoChart ?? {}).map(([country, count]) => [country, Number(count) || 0] as const);
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  return entries
    .sort((a, b) => b[1] - a[1])
    .map(([country, count]) => {
      const share = total ? Math.round((count * 10000) / total) / 100 : 0;
      return { country: country || "Unknown", count, percentage: share, text: percentText(share) };
    });
}

export type RevenuePeriod = Schemas["RevenuePeriod"];

export interface RevenueSeries {
  labels: string[];
  revenue: number[];
  commission: number[];
  totalRevenue: number;
  totalCommission: number;
}

function amount(value: string | number | null | undefined): number {
  const number = typeof value === "string" ? Number.parseFloat(value) : (value ?? 0);
  return Number.isFinite(number) ? number : 0;
}

/** Revenue and commission per period, with the totals the widget shows above its chart (to the cent). */
export function revenueSeries(entries: RevenuePeriod[] | null | undefined): RevenueSeries {
  const list = entries ?? [];
  const revenue = list.map((entry) => amount(entry.revenue));
  const commission = list.map((entry) => amount(entry.commission));
  const cents = (values: number[]) => Math.round(values.reduce((sum, value) => sum + Math.round(value * 100), 0)) / 100;
  return {
    labels: list.map((entry) => String(entry.label)),
    revenue,
    commission,
    totalRevenue: cents(revenue),
    totalCommission: cents(commission),
  };
}

export type PopularHost = Schemas["PopularHost"];

export type PopularSpace = Schemas["PopularSpace"];

/** A person's name as the widgets show it; a payout's host carries no user name. */
export function personLabel(person: Pick<StatPerson, "firstName" | "lastName"> & Partial<Pick<StatPerson, "userName" | "displayName" | "email">> | null | undefined): string {
  if (!person) return "—";
  return fullName(person) || "—";
}

export interface HostRow {
  key: string;
  name: string;
  email: string;
  totalBookings: number;
  percentage: number;
  text: string;
  deleted: boolean;
}

export function popularHostRows(hosts: PopularHost[] | null | undefined): HostRow[] {
  return (hosts ?? []).map((row) => ({
    key: row.host._id,
    name: personLabel(row.host),
    email: row.host.email ?? "",
    totalBookings: Number(row.totalBookings) || 0,
    percentage: percentValue(row.percentage),
    text: percentText(row.percentage),
    deleted: Boolean(row.host.isDeleted),
  }));
}

export type TotalUsers = Schemas["TotalUsers"];

const ROLE_NAMES: Record<string, string> = {
  admin: "Admins",
  moderator: "Moderators",
  host: "Hosts",
  subHost: "Sub Hosts",
  renter: "Renters",
};

export function userRoleBars(users: TotalUsers | null | undefined): { role: string; label: string; count: number; percentage: number; text: string }[] {
  return (users?.roles ?? []).map((row) => ({
    role: row.role,
    label: ROLE_NAMES[row.role] ?? row.role,
    count: Number(row.count) || 0,
    percentage: percentValue(row.percentage),
    text: percentText(row.percentage),
  }));
}

/**
 * Pages to offer for a list: from totalCount when the API counts (10 a page), else up to the next
 * page while hasMore says older rows follow (the recent lists do not count every row).
 */
export function listPages(page: number, data: { totalCount?: number; hasMore?: boolean } | null | undefined): number {
  if (!data) return Math.max(1, page);
  if (typeof data.totalCount === "number") return Math.max(1, Math.ceil(data.totalCount / 10));
  return data.hasMore ? page + 1 : Math.max(1, page);
}

