/** Booking shapes and rules of the dashboard (spec sections 2.6, 2.11 and 4.4). */
import type { Tab } from "../../shared/ui/Table";

export interface Person {
  _id: string;
  fullName?: string;
  firstName?: string;
  lastName?: string;
  userName?: string;
  email?: string;
  isDeleted?: boolean;
  role?: string;
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
}

export interface Booking {
  _id: string;
  createdAt: string;
  checkInDate: string;
  checkOutDate: string;
  startTime: string;
  endTime: string;
  checkIn: string;
  status: string;
  price: string;
  totalAmount: string;
  guests: number;
  seats?: number;
  renter: Person | null;
  host: Person | null;
  listingId: { _id: string; title: string; slug: string; status: string; propertyType: string; address?: string; isDeleted?: boolean };
  spaceOffering?: { title?: string } | null;
  servicesAndAddOns?: { title: string; price: string | number }[];
  paymentDetails?: {
    prices?: { priceDuration?: string; duration?: number; total?: string | number; rate?: string | number }[];
    servicesTotal?: string | number;
    discount?: string | number;
    processingFee?: string | number;
    tax?: string | number;
    totalAmount?: string | number;
  } | null;
  paymentPreference?: string;
  extendBooking: Extension[];
  rejectReason?: string;
  cancellationReason?: string;
  bookedBy?: Person | null;
  hostedBy?: Person | null;
  sidePanel?: "hostedBy" | "bookedBy";
  canApproveOrReject?: boolean;
}

export const HOST_SIDE = ["host", "subHost"];
export const SEES_TOTAL_PAYABLE_ONLY = ["admin", "moderator", "renter"];

export const BOOKING_TABS: Tab[] = [
  { value: "all", label: "All" },
  { value: "pending", label: "Pending" },
  { value: "approved", label: "Approved" },
  { value: "ongoing", label: "Ongoing" },
  { value: "completed", label: "Completed" },
  { value: "cancelled", label: "Cancelled" },
  { value: "rejected", label: "Rejected" },
  { value: "disputed", label: "Disputed" },
  { value: "expired", label: "Expired", roles: ["admin", "moderator", "host", "subHost"] },
];

/** Listing links go to the public page only when the listing is approved (spec 2.11). */
export function listingHref(listing: { _id: string; slug: string; status: string }): string {
  return listing.status === "approved" && listing.slug ? `/listing-details/${listing.slug}` : `/listing-detail/${listing._id}`;
}

export function mayDecide(role: string, booking: Pick<Booking, "status">): boolean {
  return HOST_SIDE.includes(role) && booking.status === "pending";
}

/** The renter's panel shows Hosted By; everyone else Booked By. The summary shows the other one. */
export function sidePanelTitle(role: string): "Hosted By" | "Booked By" {
  return role === "renter" ? "Hosted By" : "Booked By";
}
export function summaryPanelTitle(role: string): "Hosted By" | "Booked By" {
  return role === "renter" ? "Booked By" : "Hosted By";
}

export function messageButton(role: string, booking: Pick<Booking, "renter" | "host">): { label: string; href: string | null } {
  if (HOST_SIDE.includes(role)) return { label: "Message Renter", href: booking.renter ? `/message?userId=${booking.renter._id}` : null };
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
