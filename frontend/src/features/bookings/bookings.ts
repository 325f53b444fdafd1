/** Bookings in the dashboard (spec sections 2.6, 2.11 and 4.4): the API's shapes and display rules. */
import type { Schemas } from "../../shared/api/client";
import type { Tab } from "../../shared/ui/Table";
import { money } from "../../shared/format";
import { breakdownRows } from "../booking/quote";

export type Person = Schemas["BookingPersonSchema"];

/** What the user may do with a booking, computed by the server's booking policy. */
export type BookingCan = Schemas["BookingCanSchema"];

/** An extension request, with what the caller may do to it (the server's bookings policies). */
export type Extension = Schemas["ExtensionSchema"];

/** A booking as the list sends it. */
export type Booking = Schemas["BookingSchema"];

/** A booking's detail: the list's fields, both parties, the side panel, the renter's refund preview and the history. */
export type BookingDetail = Schemas["BookingDetailSchema"];

/** The status tabs of the booking list; the server may pass the ones a user sees. */
export const BOOKING_TABS: Tab[] = [
  { value: "all", label: "All" },
  { value: "pending", label: "Pending" },
  { value: "approved", label: "Approved" },
  { value: "ongoing", label: "Ongoing" },
  { value: "completed", label: "Completed" },
  { value: "cancelled", label: "Cancelled" },
  { value: "rejected", label: "Rejected" },
  { value: "disputed", label: "Disputed" },
  { value: "expired", label: "Expired" },
];

/** The tabs named by the server (`["all", "pending", ...]`), in the usual order; every tab when it names none. */
export function allowedTabs(names: readonly string[] | undefined): Tab[] {
  if (!names || !names.length) return BOOKING_TABS;
  return BOOKING_TABS.filter((tab) => names.includes(tab.value));
}

/** Listing links go to the public page only when the listing is approved (spec 2.11). */
export function listingHref(listing: { _id: string; slug: string; status: string }): string {
  return listing.status === "approved" && listing.slug ? `/listing-details/${listing.slug}` : `/listing-detail/${listing._id}`;
}

/** Where the checkout returns after "Pay now": the booking flow's last step confirms, then opens the booking. */
export function payReturnUrl(slug: string, bookingId: string): string {
  return `/review-and-pay?${new URLSearchParams({ listing: slug, bookingId }).toString()}`;
}

/** "10:00 AM IST": a booking's time with its zone named. */
export function clockText(time: string | undefined, booking: Partial<Pick<Booking, "timeZoneName">>): string {
  return [time, booking.timeZoneName].filter(Boolean).join(" ");
}

/**
 * The user's side of a booking, as the server's booking policy names it (`apps/bookings/policies.booking_side`):
 * the renter deals with the host; the host side and staff with the renter.
 */
export type BookingSide = "renter" | "host" | "staff";

/** The other party of a booking for this side (the list's person column, the side panel). */
export function otherParty(side: BookingSide): "host" | "renter" {
  return side === "renter" ? "host" : "renter";
}

/** The side panel names the other party (the renter's shows Hosted By); the summary names the booking's own one. */
export function sidePanelTitle(side: BookingSide): "Hosted By" | "Booked By" {
  return otherParty(side) === "host" ? "Hosted By" : "Booked By";
}
export function summaryPanelTitle(side: BookingSide): "Hosted By" | "Booked By" {
  return otherParty(side) === "host" ? "Booked By" : "Hosted By";
}

/** The host side messages the renter; the renter and staff message the host. */
export function messageButton(side: BookingSide, booking: { renter: Pick<Person, "_id"> | null; host: Pick<Person, "_id"> | null }): { label: string; href: string | null } {
  if (side === "host") return { label: "Message Renter", href: booking.renter ? `/message?userId=${booking.renter._id}` : null };
  return { label: "Message Host", href: booking.host ? `/message?userId=${booking.host._id}` : null };
}

/** Where tapping a person goes, or the error to show when the account is deleted (spec 2.6, 8). */
export function personTarget(person: Pick<Person, "_id" | "isDeleted" | "userName"> | null, as: "user" | "host" | "renter"): { href?: string; error?: string } {
  if (!person) return {};
  if (person.isDeleted) return { error: as === "host" ? "Host is deleted" : as === "renter" ? "Renter is deleted" : "User is deleted" };
  if (as === "host" && person.userName) return { href: `/host/${person.userName}` };
  return { href: `/view-user/${person._id}` };
}

export function checkInPassed(booking: Pick<Booking, "checkIn">, now: Date = new Date()): boolean {
  if (!booking.checkIn) return false;
  const at = new Date(booking.checkIn);
  return !Number.isNaN(at.getTime()) && at.getTime() <= now.getTime();
}

export function extensionDuration(extension: Extension): string {
  const parts: string[] = [];
  const add = (value: number | undefined, unit: string) => {
    if (value) parts.push(`${value} ${unit}${value === 1 ? "" : "s"}`);
  };
  add(extension.additionalHours, "Hour");
  add(extension.additionalDays, "Day");
  add(extension.additionalWeeks, "Week");
  add(extension.additionalMonths, "Month");
  return parts.join(", ");
}

/** One line of a booking's price panel. */
export interface PriceRow {
  key: string;
  label: string;
  amount: string;
  emphasis?: boolean;
}

/**
 * The booking's price as lines that add up to its total: the prices, services, discount,
 * convenience fee and tax of the booked quote, the approved and paid extensions, then the total.
 */
export function bookingPriceRows(booking: Pick<Booking, "paymentDetails" | "totalAmount">): PriceRow[] {
  const details = booking.paymentDetails;
  if (!details?.prices) return [{ key: "total", label: "Total", amount: money(booking.totalAmount), emphasis: true }];
  const rows: PriceRow[] = breakdownRows({ ...details, total: booking.totalAmount }).filter((row) => row.key !== "total");
  if (Number(details.extensionsTotal ?? 0) > 0) rows.push({ key: "extensions", label: "Extensions", amount: money(details.extensionsTotal) });
  rows.push({ key: "total", label: "Total", amount: money(booking.totalAmount), emphasis: true });
  return rows;
}

type PaymentFigures = { totalAmount: string; extendedAmount?: string; refundedAmount?: string };

/** The payment panel's figures, from the payment row: paid at booking, extensions, refunds, net. */
export function paymentRows(payment: PaymentFigures): PriceRow[] {
  const paid = Number(payment.totalAmount);
  const extended = Number(payment.extendedAmount ?? 0);
  const refunded = Number(payment.refundedAmount ?? 0);
  const rows: PriceRow[] = [{ key: "paid", label: "Booking", amount: money(payment.totalAmount) }];
  if (extended > 0) rows.push({ key: "extended", label: "Extensions", amount: money(payment.extendedAmount) });
  if (refunded > 0) rows.push({ key: "refunded", label: "Refunded", amount: `-${money(payment.refundedAmount)}` });
  if (extended > 0 || refunded > 0) rows.push({ key: "net", label: "Net paid", amount: money((paid + extended - refunded).toFixed(2)), emphasis: true });
  return rows;
}

/** Guests matter for event spaces; a desk or an office is booked by seats. */
export function headcount(booking: Pick<Booking, "guests" | "seats"> & { listingId: { propertyType: string } }): { label: string; value: number } {
  return booking.listingId.propertyType === "eventSpace" ? { label: "Guests", value: booking.guests } : { label: "Seats", value: booking.seats };
}
