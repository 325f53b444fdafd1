/** Bookings in the dashboard (spec sections 2.6, 2.11 and 4.4): the API's shapes and display rules. */
import type { Schemas } from "../../shared/api/client";
import type { Tab } from "../../shared/ui/Table";

/**
 * The parts of a booking the OpenAPI schema still declares as free-form (`unknown`), narrowed to
 * what the server's BookingSerializer sends. They go away as the schema gains real serializers.
 */
export interface Person {
  _id: string;
  fullName?: string;
  firstName?: string;
  lastName?: string;
  userName?: string;
  email?: string;
  isDeleted?: boolean;
}

export interface Extension {
  _id: string;
  status: string;
  paid?: boolean;
  additionalHours?: number;
  additionalDays?: number;
  additionalWeeks?: number;
  additionalMonths?: number;
  additionalAmount?: string;
  originalAmount?: string;
  totalPayable?: string;
  additionalDate?: string;
  startTime?: string;
  endTime?: string;
  rejectReason?: string;
  /** What the caller may do to this request (the server's bookings policies). */
  can?: { approve: boolean; reject: boolean; pay: boolean };
}

interface BookingParts {
  renter: Person | null;
  host: Person | null;
  listingId: { _id: string; title: string; slug: string; status: string; propertyType: string; paymentPreference?: string; isDeleted?: boolean };
  spaceOffering: { title?: string } | null;
  servicesAndAddOns: { title: string; price: string | number }[] | null;
  paymentDetails: {
    prices?: { priceDuration?: string; duration?: number; total?: string | number; rate?: string | number }[];
  } | null;
  extendBooking: Extension[];
  checkIn?: string;
  paymentPreference?: string;
  /** What the user may do with this booking, computed by the server's booking policy. */
  can?: BookingCan;
  /** The detail answer's older flag for approve and reject. */
  canApproveOrReject?: boolean;
  /** The server's answer: a pay-now request not paid yet (no Approve, not counted as pending). */
  awaitingPayment?: boolean;
  canApprove?: boolean;
  /** The renter may pay this request now (POST /api/payment/checkout). */
  canPay?: boolean;
  /** The listing's IANA zone and its short name: dates and times are on the space's clock. */
  timeZone?: string;
  timeZoneName?: string;
  refundIfCancelledNow?: string;
}

export type BookingCan = Partial<
  Record<"approve" | "reject" | "cancel" | "extend" | "pay" | "payExtension" | "answerExtension" | "review" | "dispute" | "message", boolean>
>;

export type Booking = Omit<Schemas["BookingSchema"], keyof BookingParts> & BookingParts;

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

/** What the user may do with a booking, as the server's booking policy computed it (`can`). */
export function bookingCan(booking: Pick<Booking, "can" | "canApproveOrReject">): BookingCan {
  if (booking.can) return booking.can;
  const decide = booking.canApproveOrReject === true;
  return { approve: decide, reject: decide };
}

/** Where the checkout returns after "Pay now": the booking flow's last step confirms, then opens the booking. */
export function payReturnUrl(slug: string, bookingId: string): string {
  return `/review-and-pay?${new URLSearchParams({ listing: slug, bookingId }).toString()}`;
}

/** "10:00 AM IST": a booking's time with its zone named. */
export function clockText(time: string | undefined, booking: Pick<Booking, "timeZoneName">): string {
  return [time, booking.timeZoneName].filter(Boolean).join(" ");
}

/** The renter's panel shows Hosted By; everyone else Booked By. The summary shows the other one. */
export function sidePanelTitle(role: string): "Hosted By" | "Booked By" {
  return role === "renter" ? "Hosted By" : "Booked By";
}
export function summaryPanelTitle(role: string): "Hosted By" | "Booked By" {
  return role === "renter" ? "Booked By" : "Hosted By";
}

export function messageButton(hostSide: boolean, booking: Pick<Booking, "renter" | "host">): { label: string; href: string | null } {
  if (hostSide) return { label: "Message Renter", href: booking.renter ? `/message?userId=${booking.renter._id}` : null };
  return { label: "Message Host", href: booking.host ? `/message?userId=${booking.host._id}` : null };
}

/** Where tapping a person goes, or the error to show when the account is deleted (spec 2.6, 8). */
export function personTarget(person: Person | null, as: "user" | "host" | "renter"): { href?: string; error?: string } {
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
