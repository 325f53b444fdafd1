/** The booking detail's actions: what the server's `can` allows, and the checks of their forms. */
import type { Schemas } from "../../shared/api/client";

type BookingDetail = Schemas["BookingDetailSchema"];

export type BookingCan = Schemas["BookingCanSchema"];

/** The parts of a booking detail answer the actions read. */
export type ActionBooking = Pick<BookingDetail, "_id" | "status" | "totalAmount" | "refundIfCancelledNow" | "can"> & {
  listingId: Pick<BookingDetail["listingId"], "_id" | "title" | "slug">;
  extendBooking: Pick<Schemas["ExtensionSchema"], "_id" | "status" | "paid" | "totalPayable" | "additionalAmount" | "can">[];
};

export const EXTENSION_UNITS = [
  { value: "additionalHours", label: "Hour" },
  { value: "additionalDays", label: "Day" },
  { value: "additionalWeeks", label: "Week" },
  { value: "additionalMonths", label: "Month" },
] as const;

export type ExtensionUnit = (typeof EXTENSION_UNITS)[number]["value"];

/** The extension request body, or the sentence saying what is wrong with the amount. */
export function extensionBody(unit: ExtensionUnit, amount: string): { body?: Record<string, number>; error?: string } {
  const value = Number(amount);
  if (!/^\d+$/.test(amount.trim()) || !Number.isInteger(value) || value < 1) return { error: "Enter a whole number of at least 1." };
  if (value > 1000) return { error: "Enter a whole number from 1 to 1000." };
  const body: Record<string, number> = { additionalHours: 0, additionalDays: 0, additionalWeeks: 0, additionalMonths: 0 };
  body[unit] = value;
  return { body };
}

/** The review body: the rating only when above 0 (spec 5), texts trimmed and optional. */
export function reviewBody(listingId: string, bookingId: string, rating: number, review: string, remarks: string): Schemas["ReviewInputRequest"] {
  const body: Schemas["ReviewInputRequest"] = { listingId, bookingId, review: review.trim(), remarks: remarks.trim() };
  if (rating > 0) body.rating = rating;
  return body;
}

/** The extension the server says the caller may pay now (an approved one: the renter pays only the difference). */
export function unpaidExtension(booking: ActionBooking) {
  return booking.extendBooking.find((extension) => extension.can.pay) ?? null;
}
