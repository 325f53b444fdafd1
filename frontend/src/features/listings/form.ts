/**
 * The listing form's model: its values, the steps, the rules of each step with the same messages as
 * the server (apps/listings/serializers.py), and the conversions between the form, the API's
 * ListingInput body and a listing the API answers. No React here: the form screens use it and
 * vitest checks it.
 */
import { z } from "zod";
import type { Schemas } from "../../shared/api/client";
import { CONSTANTS } from "../../shared/constants";

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const PERIODS = ["hourly", "daily", "weekly", "monthly"] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_WORDS: Record<Period, string> = { hourly: "hour", daily: "day", weekly: "week", monthly: "month" };
export const EVENT_PERIODS = ["hourly", "daily", "weekly"] as const satisfies readonly Period[];

/** Office space offerings (spec section 3) and the periods each is sold by (the server's OFFERING_PERIODS). */
export const OFFERINGS = CONSTANTS.listingForm.offerings;
export type OfferingKind = Schemas["OfferingKindEnum"];

/** The server's limits on a listing (ListingInput), through shared/constants.json. */
export const LIMITS = CONSTANTS.listingForm.limits;

export const STEPS = [
  { id: "kind", title: "Kind of space" },
  { id: "basics", title: "Basics" },
  { id: "location", title: "Location" },
  { id: "offerings", title: "Offerings and prices" },
  { id: "services", title: "Services, amenities and facilities" },
  { id: "photos", title: "Photos" },
  { id: "availability", title: "Opening hours and availability" },
  { id: "policies", title: "Policies" },
  { id: "review", title: "Review and submit" },
] as const;
export type StepId = (typeof STEPS)[number]["id"];

export interface OfferingValues {
  kind: OfferingKind;
  enabled: boolean;
  hourly: string;
  daily: string;
  weekly: string;
  monthly: string;
  seats: string;
  minimumPeriod: string;
}

export interface DayHours {
  closed: boolean;
  open: string;
  close: string;
}

export interface PhotoValues {
  path: string;
  alt: string;
}

export interface ListingFormValues {
  propertyType: "" | "officeSpace" | "eventSpace";
  title: string;
  description: string;
  dimension: string;
  guest: string;
  numberOfSeats: string;
  streetAddress: string;
  city: string;
  state: string;
  country: string;
  postalCode: string;
  latitude: string;
  longitude: string;
  timeZone: string;
  hourly: string;
  daily: string;
  weekly: string;
  minimumDays: string;
  offerings: OfferingValues[];
  servicesAndAddOns: { title: string; price: string }[];
  amenities: string[];
  facilities: string[];
  images: PhotoValues[];
  openingHours: Record<Weekday, DayHours>;
  blockedDates: string[];
  bufferMinutes: string;
  minimumNoticeHours: string;
  bookingWindowDays: string;
  discount: string;
  processingFee: string;
  paymentPreference: "payNow" | "payLater";
  cancellationPolicy: "flexible" | "moderate" | "strict";
  isPremium: boolean;
}

export function emptyOfferings(): OfferingValues[] {
  return OFFERINGS.map(({ kind }) => ({
    kind,
    enabled: false,
    hourly: "",
    daily: "",
    weekly: "",
    monthly: "",
    seats: "1",
    minimumPeriod: "1",
  }));
}

export function defaultHours(): Record<Weekday, DayHours> {
  return Object.fromEntries(
    WEEKDAYS.map((day) => [day, { closed: day === "sunday", open: "09:00", close: "18:00" }]),
  ) as Record<Weekday, DayHours>;
}

export function emptyListingForm(): ListingFormValues {
  return {
    propertyType: "",
    title: "",
    description: "",
    dimension: "",
    guest: "",
    numberOfSeats: "",
    streetAddress: "",
    city: "",
    state: "",
    country: "",
    postalCode: "",
    latitude: "",
    longitude: "",
    timeZone: "",
    hourly: "",
    daily: "",
    weekly: "",
    minimumDays: "1",
    offerings: emptyOfferings(),
    servicesAndAddOns: [],
    amenities: [],
    facilities: [],
    images: [],
    openingHours: defaultHours(),
    blockedDates: [],
    bufferMinutes: "0",
    minimumNoticeHours: "0",
    bookingWindowDays: "365",
    discount: "0",
    processingFee: "0",
    paymentPreference: "payNow",
    cancellationPolicy: "flexible",
    isPremium: false,
  };
}

// --- Rules (the server's messages) -----------------------------------------------------------------

const isBlank = (value: string | undefined | null) => value === undefined || value === null || value.trim() === "";
const NUMBER = /^\d+(\.\d+)?$/;

/** A price: empty, or a number with at most 2 decimals, not negative. */
export function priceError(label: string, value: string): string | null {
  if (isBlank(value)) return null;
  const text = value.trim();
  if (text.startsWith("-")) return `${label} cannot be negative`;
  if (!NUMBER.test(text)) return `${label} must be a number`;
  if ((text.split(".")[1] ?? "").length > 2) return `${label} may have at most 2 decimal places`;
  if (Number(text) > 9_999_999_999.99) return `${label} is too large`;
  return null;
}

export function percentError(label: string, value: string): string | null {
  if (isBlank(value)) return null;
  const text = value.trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return `${label} must be a number`;
  const number = Number(text);
  if (number < 0 || number > 100) return `${label} must be between 0 and 100`;
  if ((text.split(".")[1] ?? "").length > 2) return `${label} may have at most 2 decimal places`;
  return null;
}

export function countError(label: string, value: string, min: number, max: number, required = false): string | null {
  if (isBlank(value)) return required ? `${label} is required` : null;
  const text = value.trim();
  if (!/^-?\d+$/.test(text)) return `${label} must be a whole number`;
  const number = Number(text);
  if (number < min) return `${label} must be at least ${min}`;
  if (number > max) return `${label} must be at most ${max}`;
  return null;
}

function textError(label: string, value: string, max: number, required = false): string | null {
  if (required && isBlank(value)) return `${label} is required`;
  if ((value ?? "").trim().length > max) return `${label} must be at most ${max} characters long`;
  return null;
}

function coordinateError(label: string, value: string, bound: number): string | null {
  if (isBlank(value)) return null;
  const number = Number(value.trim());
  if (!Number.isFinite(number)) return `${label} must be a number`;
  if (number < -bound || number > bound) return `${label} must be between -${bound} and ${bound}`;
  return null;
}

/** Visible text of rich text (for "is required" and the review step). */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export type FormErrors = Record<string, string>;

function put(errors: FormErrors, path: string, message: string | null) {
  if (message && !errors[path]) errors[path] = message;
}

/** Errors of one step, keyed by the form path (`offerings.3.daily`, `openingHours.monday.close`). */
export function stepErrors(step: StepId, values: ListingFormValues): FormErrors {
  const errors: FormErrors = {};
  const event = values.propertyType === "eventSpace";
  switch (step) {
    case "kind":
      if (!values.propertyType) errors.propertyType = "Property type is required";
      break;
    case "basics":
      put(errors, "title", textError("Title", values.title, LIMITS.title, true));
      put(errors, "description", textError("Description", plainText(values.description), LIMITS.description));
      put(errors, "dimension", textError("Dimension", values.dimension, 60));
      if (event) {
        put(errors, "guest", countError("Guest capacity", values.guest, 1, 100_000));
        if (isBlank(values.guest)) errors.guest = "Guest capacity is required for event spaces";
      } else {
        put(errors, "numberOfSeats", countError("Number of seats", values.numberOfSeats, 1, 100_000));
      }
      break;
    case "location":
      put(errors, "streetAddress", textError("Street address", values.streetAddress, 200));
      put(errors, "city", textError("City", values.city, 80, true));
      put(errors, "state", textError("State", values.state, 80));
      put(errors, "country", textError("Country", values.country, 80, true));
      put(errors, "postalCode", textError("Postal code", values.postalCode, 20));
      put(errors, "latitude", coordinateError("Latitude", values.latitude, 90));
      put(errors, "longitude", coordinateError("Longitude", values.longitude, 180));
      break;
    case "offerings":
      if (event) {
        for (const period of EVENT_PERIODS) {
          put(errors, period, priceError(`${capitalise(period)} price`, values[period]));
        }
        if (EVENT_PERIODS.every((period) => isBlank(values[period]))) {
          put(errors, "hourly", "Event spaces need an hourly, daily or weekly price");
        }
        put(errors, "minimumDays", countError("Minimum hours", values.minimumDays, 1, 10_000));
      } else {
        const enabled = values.offerings.filter((offering) => offering.enabled);
        if (!enabled.length) errors.offerings = "Work spaces need at least one space offering with a price";
        values.offerings.forEach((offering, index) => {
          if (!offering.enabled) return;
          const spec = offeringSpec(offering.kind);
          for (const period of spec.periods) {
            put(errors, `offerings.${index}.${period}`, priceError(`${capitalise(period)} price`, offering[period]));
          }
          if (spec.periods.every((period) => isBlank(offering[period]))) {
            const soldBy = spec.periods.map((period) => PERIOD_WORDS[period]).join(", ");
            put(errors, `offerings.${index}.price`, `${spec.title} needs a price per ${soldBy}`);
          }
          put(errors, `offerings.${index}.seats`, countError("Seats", offering.seats, 1, 100_000));
          put(errors, `offerings.${index}.minimumPeriod`, countError("Minimum period", offering.minimumPeriod, 1, 10_000));
        });
      }
      break;
    case "services":
      if (values.servicesAndAddOns.length > LIMITS.addOns) errors.servicesAndAddOns = `At most ${LIMITS.addOns} services`;
      values.servicesAndAddOns.forEach((item, index) => {
        put(errors, `servicesAndAddOns.${index}.title`, textError("Service title", item.title, 120, true));
        if (isBlank(item.price)) errors[`servicesAndAddOns.${index}.price`] = "Service price is required";
        put(errors, `servicesAndAddOns.${index}.price`, priceError("Service price", item.price));
      });
      break;
    case "photos":
      if (!values.images.length) errors.images = "Add at least one image to submit the listing for review";
      if (values.images.length > LIMITS.images) errors.images = `A listing may have at most ${LIMITS.images} images`;
      values.images.forEach((image, index) => {
        if (image.alt.trim().length > LIMITS.alt) errors[`images.${index}.alt`] = "Alt text must be at most 200 characters long";
      });
      break;
    case "availability":
      for (const day of WEEKDAYS) {
        const hours = values.openingHours[day];
        if (hours.closed) continue;
        if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(hours.open) || !/^([01]\d|2[0-3]):[0-5]\d$/.test(hours.close)) {
          errors[`openingHours.${day}.open`] = `Opening hours for ${day} need open and close times as HH:MM`;
        } else if (hours.open >= hours.close) {
          errors[`openingHours.${day}.close`] = `On ${day} the closing time must be after the opening time`;
        }
      }
      if (values.blockedDates.length > LIMITS.blockedDates) errors.blockedDates = `At most ${LIMITS.blockedDates} blocked dates`;
      put(errors, "bufferMinutes", countError("Buffer time", values.bufferMinutes, 0, LIMITS.bufferMinutes));
      put(errors, "minimumNoticeHours", countError("Minimum notice", values.minimumNoticeHours, 0, LIMITS.minimumNoticeHours));
      put(errors, "bookingWindowDays", countError("Booking window", values.bookingWindowDays, 1, LIMITS.bookingWindowDays));
      break;
    case "policies":
      put(errors, "discount", percentError("Discount", values.discount));
      put(errors, "processingFee", percentError("Processing fee", values.processingFee));
      break;
    case "review":
      break;
  }
  return errors;
}

/** Every step's errors (the review step checks them all before submitting). */
export function allErrors(values: ListingFormValues): FormErrors {
  return Object.assign({}, ...STEPS.map((step) => stepErrors(step.id, values)));
}

/** The first step with an error, to send the host back to it. */
export function firstStepWithErrors(errors: FormErrors): StepId | null {
  for (const step of STEPS) {
    if (Object.keys(errors).some((path) => stepOfPath(path) === step.id)) return step.id;
  }
  return null;
}

const STEP_OF_FIELD: Record<string, StepId> = {
  propertyType: "kind",
  title: "basics",
  description: "basics",
  dimension: "basics",
  guest: "basics",
  numberOfSeats: "basics",
  streetAddress: "location",
  city: "location",
  state: "location",
  country: "location",
  postalCode: "location",
  address: "location",
  latitude: "location",
  longitude: "location",
  timeZone: "location",
  hourly: "offerings",
  daily: "offerings",
  weekly: "offerings",
  monthly: "offerings",
  minimumDays: "offerings",
  offerings: "offerings",
  spaceOffering: "offerings",
  servicesAndAddOns: "services",
  amenities: "services",
  facilities: "services",
  images: "photos",
  openingHours: "availability",
  blockedDates: "availability",
  bufferMinutes: "availability",
  minimumNoticeHours: "availability",
  bookingWindowDays: "availability",
  availability: "availability",
  discount: "policies",
  processingFee: "policies",
  commissionCollection: "policies",
  paymentPreference: "policies",
  cancellationPolicy: "policies",
  isPremium: "policies",
};

export function stepOfPath(path: string): StepId {
  return STEP_OF_FIELD[path.split(".")[0]] ?? "review";
}

/**
 * The server's error keys (`spaceOffering.1.daily`, `images.0`) as form paths: the server numbers
 * the offerings it was sent (the enabled ones, in order), the form all six.
 */
export function formPathOfServerError(key: string, values: ListingFormValues): string {
  const parts = key.split(".");
  if (parts[0] === "spaceOffering") {
    if (parts.length === 1) return "offerings";
    const enabled = values.offerings.map((offering, index) => (offering.enabled ? index : -1)).filter((index) => index >= 0);
    const index = enabled[Number(parts[1])];
    return index === undefined ? "offerings" : ["offerings", String(index), ...parts.slice(2)].join(".");
  }
  if (parts[0] === "images" && parts.length === 2) return `images.${parts[1]}.alt`;
  if (parts[0] === "openingHours") return "openingHours.monday.open";
  return key;
}

/** Server errors (`{field: [sentences]}`) as form errors. */
export function formErrorsFromServer(errors: Record<string, string[] | undefined>, values: ListingFormValues): FormErrors {
  const out: FormErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    if (!messages?.length) continue;
    const path = formPathOfServerError(key, values);
    out[path] ??= messages[0];
  }
  return out;
}

// --- Conversions --------------------------------------------------------------------------------

export function offeringSpec(kind: OfferingKind) {
  return OFFERINGS.find((offering) => offering.kind === kind) ?? OFFERINGS[0];
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const money = (value: string): string | null => (isBlank(value) ? null : value.trim());
const whole = (value: string, fallback: number): number => (isBlank(value) ? fallback : Number(value.trim()));

/** The API body (ListingInput) for the form's values. */
export function toListingInput(values: ListingFormValues) {
  const event = values.propertyType === "eventSpace";
  const openingHours = Object.fromEntries(
    WEEKDAYS.map((day) => {
      const hours = values.openingHours[day];
      return [day, hours.closed ? null : { open: hours.open, close: hours.close }];
    }),
  );
  return {
    propertyType: values.propertyType || "officeSpace",
    title: values.title.trim(),
    description: values.description,
    dimension: values.dimension.trim(),
    guest: event ? whole(values.guest, 0) || null : null,
    numberOfSeats: event ? null : isBlank(values.numberOfSeats) ? null : whole(values.numberOfSeats, 1),
    streetAddress: values.streetAddress.trim(),
    city: values.city.trim(),
    state: values.state.trim(),
    country: values.country.trim(),
    postalCode: values.postalCode.trim(),
    address: [values.streetAddress, values.city, values.country].map((part) => part.trim()).filter(Boolean).join(", "),
    latitude: isBlank(values.latitude) ? null : Number(values.latitude).toFixed(6),
    longitude: isBlank(values.longitude) ? null : Number(values.longitude).toFixed(6),
    timeZone: values.timeZone.trim(),
    hourly: event ? money(values.hourly) : null,
    daily: event ? money(values.daily) : null,
    weekly: event ? money(values.weekly) : null,
    monthly: null,
    minimumDays: whole(values.minimumDays, 1),
    spaceOffering: event
      ? []
      : values.offerings
          .filter((offering) => offering.enabled)
          .map((offering) => {
            const periods: readonly Period[] = offeringSpec(offering.kind).periods;
            return {
              kind: offering.kind,
              hourly: periods.includes("hourly") ? money(offering.hourly) : null,
              daily: periods.includes("daily") ? money(offering.daily) : null,
              weekly: periods.includes("weekly") ? money(offering.weekly) : null,
              monthly: periods.includes("monthly") ? money(offering.monthly) : null,
              seats: whole(offering.seats, 1),
              minimumPeriod: whole(offering.minimumPeriod, 1),
            };
          }),
    servicesAndAddOns: values.servicesAndAddOns.map((item) => ({ title: item.title.trim(), price: item.price.trim() })),
    amenities: values.amenities,
    facilities: values.facilities,
    images: values.images.map((image) => ({ path: image.path, alt: image.alt.trim() })),
    openingHours,
    blockedDates: [...values.blockedDates].sort(),
    bufferMinutes: whole(values.bufferMinutes, 0),
    minimumNoticeHours: whole(values.minimumNoticeHours, 0),
    bookingWindowDays: whole(values.bookingWindowDays, 365),
    discount: isBlank(values.discount) ? "0" : values.discount.trim(),
    processingFee: isBlank(values.processingFee) ? "0" : values.processingFee.trim(),
    paymentPreference: values.paymentPreference,
    cancellationPolicy: values.cancellationPolicy,
    isPremium: values.isPremium,
  };
}

/** What the form needs of a listing the API answers (ListingSerializer). */
type ListingDetail = Schemas["ListingDetailSchema"];

/** The fields of a listing (GET /api/listing/get-single) the form reads back; only the first four are
 * always needed, so part of a listing (a test's, an older answer's) reads as far as it goes. */
export type ListingLike = Pick<ListingDetail, "propertyType" | "title" | "city" | "country"> &
  Partial<
    Pick<
      ListingDetail,
      | "description"
      | "dimension"
      | "guest"
      | "numberOfSeats"
      | "streetAddress"
      | "state"
      | "postalCode"
      | "latitude"
      | "longitude"
      | "timeZone"
      | "hourly"
      | "daily"
      | "weekly"
      | "minimumDays"
      | "spaceOffering"
      | "servicesAndAddOns"
      | "amenities"
      | "facilities"
      | "images"
      | "photos"
      | "openingHours"
      | "blockedDates"
      | "bufferMinutes"
      | "minimumNoticeHours"
      | "bookingWindowDays"
      | "discount"
      | "processingFee"
      | "paymentPreference"
      | "cancellationPolicy"
      | "isPremium"
      | "commissionCollection"
      | "status"
    >
  >;

const text = (value: string | number | null | undefined): string => (value === null || value === undefined ? "" : String(value));

export function fromListing(listing: ListingLike): ListingFormValues {
  const values = emptyListingForm();
  const hours: Partial<ListingDetail["openingHours"]> = listing.openingHours ?? {};
  const openingHours = defaultHours();
  for (const day of WEEKDAYS) {
    if (!(day in hours)) {
      // A weekday left out (or no hours at all) is open around the clock, as the server reads it.
      openingHours[day] = { closed: false, open: "00:00", close: "23:59" };
      continue;
    }
    const value = hours[day];
    openingHours[day] = value ? { closed: false, open: value.open, close: value.close } : { closed: true, open: "09:00", close: "18:00" };
  }
  const byKind = new Map((listing.spaceOffering ?? []).map((offering) => [offering.kind, offering]));
  return {
    ...values,
    propertyType: listing.propertyType === "eventSpace" ? "eventSpace" : "officeSpace",
    title: listing.title,
    description: listing.description ?? "",
    dimension: listing.dimension ?? "",
    guest: text(listing.guest),
    numberOfSeats: text(listing.numberOfSeats),
    streetAddress: listing.streetAddress ?? "",
    city: listing.city,
    state: listing.state ?? "",
    country: listing.country,
    postalCode: listing.postalCode ?? "",
    latitude: text(listing.latitude),
    longitude: text(listing.longitude),
    timeZone: listing.timeZone ?? "",
    hourly: text(listing.hourly),
    daily: text(listing.daily),
    weekly: text(listing.weekly),
    minimumDays: text(listing.minimumDays ?? 1),
    offerings: values.offerings.map((empty) => {
      const found = byKind.get(empty.kind);
      return found
        ? {
            kind: empty.kind,
            enabled: true,
            hourly: text(found.hourly),
            daily: text(found.daily),
            weekly: text(found.weekly),
            monthly: text(found.monthly),
            seats: text(found.seats),
            minimumPeriod: text(found.minimumPeriod),
          }
        : empty;
    }),
    servicesAndAddOns: (listing.servicesAndAddOns ?? []).map((item) => ({ title: item.title, price: item.price })),
    amenities: (listing.amenities ?? []).map((item) => item._id),
    facilities: (listing.facilities ?? []).map((item) => item._id),
    images: listing.photos?.length
      ? listing.photos.map((photo) => ({ path: photo.path, alt: photo.alt === listing.title ? "" : photo.alt }))
      : (listing.images ?? []).map((path) => ({ path, alt: "" })),
    openingHours,
    blockedDates: listing.blockedDates ?? [],
    bufferMinutes: text(listing.bufferMinutes ?? 0),
    minimumNoticeHours: text(listing.minimumNoticeHours ?? 0),
    bookingWindowDays: text(listing.bookingWindowDays ?? 365),
    discount: text(listing.discount ?? "0"),
    processingFee: text(listing.processingFee ?? "0"),
    paymentPreference: listing.paymentPreference === "payLater" ? "payLater" : "payNow",
    cancellationPolicy:
      listing.cancellationPolicy === "moderate" || listing.cancellationPolicy === "strict" ? listing.cancellationPolicy : "flexible",
    isPremium: Boolean(listing.isPremium),
  };
}

/** A saved draft's data back as form values (a draft from an older form keeps what it can). */
const draftSchema = z.record(z.string(), z.unknown());

export function fromDraft(data: unknown): ListingFormValues {
  const parsed = draftSchema.safeParse(data);
  const base = emptyListingForm();
  if (!parsed.success) return base;
  const merged = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(parsed.data)) {
    if (key in base && typeof value === typeof (base as unknown as Record<string, unknown>)[key]) merged[key] = value;
  }
  const values = merged as unknown as ListingFormValues;
  if (!Array.isArray(values.offerings) || values.offerings.length !== OFFERINGS.length) values.offerings = base.offerings;
  if (!values.openingHours || WEEKDAYS.some((day) => !values.openingHours[day])) values.openingHours = base.openingHours;
  return values;
}

/** Spec 2.11: approved listings link to their public page, others to the dashboard's listing page. */
export function listingHref(listing: { _id: string; slug: string; status: string }): string {
  return listing.status === "approved" ? `/listing-details/${listing.slug}` : `/listing-detail/${listing._id}`;
}
