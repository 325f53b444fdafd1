/**
 * The booking widget of a listing page: choose the details, see availability and a live quote, then
 * Request goes straight to the checkout (review, add-ons, pay), as on the marketplaces renters know.
 */
import { useState } from "react";
import { AvailabilityNote, DetailsForm, type Errors, missingFields, QuotePanel, withConsistentTimes, conflicts } from "./components";
import { type BookingDraft, draftFor, updateDraft } from "./draft";
import { useAvailability, useQuote } from "./hooks";
import type { IslandProps } from "../../shared/ui/mountIsland";
import { detailsStep, CHECKOUT_STEP, stepUrl } from "./quote";
import { navigation } from "../../shared/browser/navigation";
import "../../shared/ui/css/forms.css";
import "./booking.css";

export function BookingWidget(listing: IslandProps<"BookingWidget">) {
  const step = detailsStep(listing.propertyType);
  const [draft, setDraft] = useState<BookingDraft>(() =>
    withConsistentTimes(listing, { ...draftFor(listing.listingId), listingId: listing.listingId, slug: listing.slug, propertyType: listing.propertyType }),
  );
  const [submitted, setSubmitted] = useState(false);
  const availability = useAvailability(listing.listingId, !!listing.isLoggedIn, listing.timeZone);
  const quote = useQuote(listing, draft, step);
  const errors: Errors = submitted ? missingFields(listing, draft) : {};
  // The server's quote says whether the time is free (other bookings and the host's buffer time).
  const taken = quote.quote?.available === false;

  const change = (changes: Partial<BookingDraft>) => {
    setDraft((current) => {
      const next = withConsistentTimes(listing, { ...current, ...changes, bookingId: undefined });
      updateDraft(next);
      return next;
    });
  };

  if (!listing.listingId) return null;
  return (
    <form
      className="booking-widget"
      noValidate
      aria-label="Booking details"
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        const missing = missingFields(listing, draft);
        if (Object.keys(missing).length || conflicts(listing, draft, availability).unavailable.length || quote.error || taken) return;
        updateDraft({ ...draft, listingId: listing.listingId, slug: listing.slug, propertyType: listing.propertyType });
        navigation.assign(stepUrl(CHECKOUT_STEP, listing.slug));
      }}
    >
      <DetailsForm listing={listing} draft={draft} errors={errors} availability={availability} onChange={change} />
      <AvailabilityNote listing={listing} availability={availability} />
      <QuotePanel state={quote} idle="Choose dates and times to see the price." />
      {taken && (
        <p className="form-field__error" role="alert">
          This time is taken, or too close to another booking. Please choose other times.
        </p>
      )}
      <button type="submit" className="button button--block">
        Request
      </button>
    </form>
  );
}
