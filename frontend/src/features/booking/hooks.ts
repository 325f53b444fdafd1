import { useEffect, useState } from "react";
import { ApiError } from "../../shared/api/client";
import { http } from "../../shared/api/http";
import type { BookingDraft } from "./draft";
import { type BookingListing, QUOTE_DEBOUNCE_MS, type Quote, requestBody, type Step } from "./quote";
import { DISPLAY_TIME_ZONE } from "./slots";

export interface Availability {
  occupied: Set<string>;
  pending: Set<string>;
  loaded: boolean;
}

/** Occupied and pending dates (yyyy-MM-dd) of the next 90 days; the call needs a signed-in user. */
export function useAvailability(listingId: string, signedIn: boolean): Availability {
  const [value, setValue] = useState<Availability>({ occupied: new Set(), pending: new Set(), loaded: false });
  useEffect(() => {
    if (!signedIn) return undefined;
    const controller = new AbortController();
    http
      .get<{ occupiedDates?: string[]; pendingDates?: string[] }>(
        `/api/listing/get-availability/${encodeURIComponent(listingId)}`,
        { query: { timezone: DISPLAY_TIME_ZONE }, signal: controller.signal, silent: true, ownAuthErrors: true },
      )
      .then(({ data }) =>
        setValue({ occupied: new Set(data.occupiedDates ?? []), pending: new Set(data.pendingDates ?? []), loaded: true }),
      )
      .catch(() => undefined);
    return () => controller.abort();
  }, [listingId, signedIn]);
  return value;
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
  const key = body ? JSON.stringify(body) : "";
  const [state, setState] = useState<QuoteState>({ quote: null, loading: false, error: null, fieldErrors: {} });

  useEffect(() => {
    if (!key) {
      setState({ quote: null, loading: false, error: null, fieldErrors: {} });
      return undefined;
    }
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    const timer = window.setTimeout(() => {
      http
        .post<Quote>(`/api/booking/quote/${step}`, JSON.parse(key), {
          signal: controller.signal,
          silent: true,
          ownAuthErrors: true,
        })
        .then(({ data }) => setState({ quote: data, loading: false, error: null, fieldErrors: {} }))
        .catch((error: unknown) => {
          if ((error as Error)?.name === "AbortError") return;
          setState({
            quote: null,
            loading: false,
            error: error instanceof Error ? error.message : String(error),
            fieldErrors: fieldErrorsOf(error),
          });
        });
    }, QUOTE_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [key, step]);
  return state;
}
