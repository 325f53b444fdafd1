import { useQuery } from "@tanstack/react-query";
import { api, ApiError, call } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { useDebounced } from "../../shared/hooks/useDebounced";
import type { BookingDraft } from "./draft";
import { type BookingListing, QUOTE_DEBOUNCE_MS, type Quote, requestBody, type Step } from "./quote";
import { DISPLAY_TIME_ZONE } from "./slots";

export interface Availability {
  occupied: Set<string>;
  pending: Set<string>;
  loaded: boolean;
}

/** Occupied and pending dates (yyyy-MM-dd, on the listing's clock) of the next 90 days; the call needs a signed-in user. */
export function useAvailability(listingId: string, signedIn: boolean, timeZone: string = DISPLAY_TIME_ZONE): Availability {
  const query = useQuery({
    queryKey: apiKey("/api/listing/get-availability/{listing_id}", { listingId, timezone: timeZone }),
    queryFn: ({ signal }) =>
      call(
        api.GET("/api/listing/get-availability/{listing_id}", {
          params: { path: { listing_id: listingId }, query: { timezone: timeZone } },
          signal,
        }),
        { silent: true, ownAuthErrors: true },
      ).then((answer) => answer.data),
    enabled: signedIn && Boolean(listingId),
    retry: false,
  });
  const data = query.data;
  return { occupied: new Set(data?.occupiedDates ?? []), pending: new Set(data?.pendingDates ?? []), loaded: query.isSuccess };
}

export interface QuoteState {
  quote: Quote | null;
  loading: boolean;
  /** The server's sentence when the chosen details cannot be booked. */
  error: string | null;
  fieldErrors: Record<string, string>;
}

/** Errors of an InvalidInput answer, one sentence per field. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const errors = error instanceof ApiError ? (error.body as { errors?: unknown } | null)?.errors : null;
  if (!errors || typeof errors !== "object") return {};
  return Object.fromEntries(
    Object.entries(errors as Record<string, unknown>).map(([key, value]) => [key, Array.isArray(value) ? String(value[0]) : String(value)]),
  );
}

/** A live quote from the server for the draft at this step, asked again (debounced) as the draft changes. */
export function useQuote(listing: BookingListing, draft: BookingDraft, step: Step): QuoteState {
  const withServices = step === "services-and-add-ons" || step === "review-and-pay";
  const body = requestBody(listing, draft, withServices);
  const key = useDebounced(body ? JSON.stringify(body) : "", QUOTE_DEBOUNCE_MS);
  const query = useQuery<Quote>({
    queryKey: apiKey("/api/booking/quote/{step}", { step, body: key }),
    queryFn: ({ signal }) =>
      call(api.POST("/api/booking/quote/{step}", { params: { path: { step } }, body: JSON.parse(key), signal }), {
        silent: true,
        ownAuthErrors: true,
      }).then((answer) => answer.data),
    enabled: Boolean(key) && Boolean(body),
    placeholderData: (previous: Quote | undefined) => previous,
    retry: false,
  });
  if (!body) return { quote: null, loading: false, error: null, fieldErrors: {} };
  const error = query.error;
  return {
    quote: error ? null : (query.data ?? null),
    loading: query.isFetching || key !== JSON.stringify(body),
    error: error ? (error instanceof Error ? error.message : String(error)) : null,
    fieldErrors: error ? fieldErrorsOf(error) : {},
  };
}
