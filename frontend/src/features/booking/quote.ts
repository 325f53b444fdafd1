/** The server's price quote and how the booking steps show it (money as $ with two decimals). */
import type { Schemas } from "../../shared/api/client";
import type { IslandProps } from "../../shared/ui/mountIsland";
import { money, percent } from "../../shared/format";
import type { BookingDraft } from "./draft";

export const QUOTE_DEBOUNCE_MS = 400;

export type Offering = Schemas["IslandOffering"];
export type AddOn = Schemas["IslandAddOn"];

type FlowListing = IslandProps<"BookingFlow">["listing"];
/**
 * What the listing page's widget (IslandPropsBookingWidget) and the step pages (IslandPropsBookingFlow)
 * know of the listing, from the server; the steps need the first six, and read the others where given.
 */
export type BookingListing = Pick<FlowListing, "listingId" | "slug" | "title" | "propertyType" | "spaceOffering" | "servicesAndAddOns"> &
  Partial<Omit<FlowListing, "listingId" | "slug" | "title" | "propertyType" | "spaceOffering" | "servicesAndAddOns">>;

export type PriceLine = Schemas["PriceLineSchema"];
export type PaymentDetails = Schemas["PaymentDetailsSchema"];
/** The server's quote for a step of the flow (POST /api/booking/quote/{step}). */
export type Quote = Schemas["QuoteSchema"];

export type Step = "request-booking-details" | "event-booking-details" | "services-and-add-ons" | "review-and-pay";

/** The first step of the flow for the kind of space. */
/** Where the widget's Request leads: the checkout, one page before the payment page. */
export const CHECKOUT_STEP: Step = "review-and-pay";

export function detailsStep(propertyType: string): Step {
  return propertyType === "eventSpace" ? "event-booking-details" : "request-booking-details";
}

export function stepUrl(step: Step, slug: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ listing: slug, ...extra });
  return `/${step}?${query.toString()}`;
}

/** "2 × Day at $30.00" (a line of the prices list). */
export function priceLineText(line: PriceLine): string {
  const unit = line.duration === 1 ? line.label : `${line.label}s`;
  return `${line.duration} ${unit} × ${money(line.rate)}`;
}

export interface BreakdownRow {
  key: string;
  label: string;
  amount: string;
  emphasis?: boolean;
  negative?: boolean;
}

/**
 * The rows of the price breakdown, in the order of the pricing rules: each price line, each service,
 * the discount (when there is one), the convenience fee, the tax, and the total.
 */
export function breakdownRows(details: PaymentDetails): BreakdownRow[] {
  const rows: BreakdownRow[] = details.prices.map((line, index) => ({
    key: `price-${index}`,
    label: priceLineText(line),
    amount: money(line.total),
  }));
  details.servicesAndAddOns.forEach((service, index) =>
    rows.push({ key: `service-${index}`, label: service.title, amount: money(service.price) }),
  );
  if (Number(details.discount) > 0) {
    rows.push({
      key: "discount",
      label: `Discount (${percent(details.discountPercent)})`,
      amount: `-${money(details.discount)}`,
      negative: true,
    });
  }
  rows.push({
    key: "fee",
    label: `Convenience fee (${percent(details.processingFeePercent)})`,
    amount: money(details.convenienceFee),
  });
  rows.push({ key: "tax", label: `Tax (${percent(details.taxPercent)})`, amount: money(details.tax) });
  rows.push({ key: "total", label: "Total", amount: money(details.total), emphasis: true });
  return rows;
}

/** The fields a quote or a booking needs; null while the draft is not complete enough to ask. */
export function requestBody(listing: BookingListing, draft: BookingDraft, withServices: boolean): Record<string, unknown> | null {
  if (!draft.checkInDate || !draft.startTime || !draft.endTime) return null;
  const office = listing.propertyType === "officeSpace";
  if (office && !draft.spaceOffering) return null;
  const body: Record<string, unknown> = {
    listingId: listing.listingId,
    checkInDate: draft.checkInDate,
    checkOutDate: draft.checkOutDate || draft.checkInDate,
    startTime: draft.startTime,
    endTime: draft.endTime,
  };
  if (office) {
    body.spaceOffering = draft.spaceOffering;
    body.seats = draft.seats ?? 1;
  } else {
    body.guests = draft.guests ?? 1;
  }
  if (withServices) body.servicesAndAddOns = draft.servicesAndAddOns ?? [];
  return body;
}

/** An exclusive offering (meeting space, AV room, private cabin) is booked whole: one seat. */
export const EXCLUSIVE_KINDS = new Set(["meetingSpace", "avRoom", "privateCabin"]);
