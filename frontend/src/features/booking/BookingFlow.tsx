/**
 * The booking flow after the listing page's widget: the checkout (review-and-pay) shows the chosen
 * details, the add-ons to pick, the price and the cancellation policy, places the request and hands
 * over to the payment page. The older step URLs still work: the details pages (request-booking-
 * details, event-booking-details) lead to the checkout, and services-and-add-ons is the checkout.
 */
import { type ReactNode, useEffect, useState } from "react";
import { api, ApiError, call } from "../../shared/api/client";
import { AvailabilityNote, Breakdown, conflicts, DetailsForm, type Errors, missingFields, QuotePanel, withConsistentTimes } from "./components";
import { type BookingDraft, clearDraft, draftFor, updateDraft } from "./draft";
import { useAvailability, useQuote } from "./hooks";
import { type BookingListing, stepUrl } from "./quote";
import { money } from "../../shared/format";
import { displayDate, zoneNameOn } from "./slots";
import { SubmitButton } from "../../shared/forms/SubmitButton";
import { openAuthModal } from "../../features/auth/authModal";
import { navigation } from "../../shared/browser/navigation";
import { flashToast, toast } from "../../shared/ui/toast";
import { Spinner } from "../../shared/ui/Spinner";
import "../../shared/ui/css/forms.css";
import "./booking.css";
import type { IslandProps } from "../../shared/ui/mountIsland";

type FlowProps = IslandProps<"BookingFlow">;

export const PAYMENT_SUCCESS = "Payment successful. Your booking request was sent to the host.";
export const PAYMENT_CANCELLED = "Payment cancelled. Your booking request waits for payment; you can pay now.";

function useDraft(listing: BookingListing) {
  const [draft, setDraft] = useState<BookingDraft>(() =>
    withConsistentTimes(listing, { ...draftFor(listing.listingId), listingId: listing.listingId, slug: listing.slug, propertyType: listing.propertyType }),
  );
  const change = (changes: Partial<BookingDraft>) =>
    setDraft((current) => {
      const next = withConsistentTimes(listing, { ...current, ...changes, bookingId: undefined });
      updateDraft(next);
      return next;
    });
  return [draft, change] as const;
}

function Actions({ back, backLabel, children }: { back: string; backLabel: string; children: ReactNode }) {
  return (
    <div className="booking-actions">
      <a className="button button--secondary" href={back}>
        {backLabel}
      </a>
      {children}
    </div>
  );
}

function DetailsStep({ listing, step }: FlowProps) {
  const [draft, change] = useDraft(listing);
  const [submitted, setSubmitted] = useState(false);
  const availability = useAvailability(listing.listingId, !!listing.isLoggedIn, listing.timeZone);
  const quote = useQuote(listing, draft, step);
  const errors: Errors = submitted ? missingFields(listing, draft) : {};
  return (
    <form
      noValidate
      aria-label="Booking details"
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        if (Object.keys(missingFields(listing, draft)).length || conflicts(listing, draft, availability).unavailable.length || quote.error) return;
        updateDraft(draft);
        navigation.assign(stepUrl("review-and-pay", listing.slug));
      }}
    >
      <DetailsForm listing={listing} draft={draft} errors={errors} availability={availability} onChange={change} />
      <AvailabilityNote listing={listing} availability={availability} />
      <QuotePanel state={quote} idle="Choose dates and times to see the price." />
      <Actions back={`/listing-details/${encodeURIComponent(listing.slug)}`} backLabel="Back to the space">
        <button type="submit" className="button">
          Continue
        </button>
      </Actions>
    </form>
  );
}

function Incomplete({ listing }: { listing: BookingListing }) {
  return (
    <div className="booking-card">
      <p>Choose your dates and times first.</p>
      <a className="button" href={listingUrl(listing)}>
        Choose dates and times
      </a>
    </div>
  );
}

function listingUrl(listing: BookingListing): string {
  return `/listing-details/${encodeURIComponent(listing.slug)}`;
}

/** The listing's services and add-ons, picked on the checkout (the price follows at once). */
function AddOns({ listing, chosen, onToggle }: { listing: BookingListing; chosen: readonly string[]; onToggle: (id: string, on: boolean) => void }) {
  if (!listing.servicesAndAddOns.length) return null;
  const picked = new Set(chosen);
  return (
    <section className="booking-card" aria-labelledby="review-addons">
      <h2 id="review-addons">Services and add-ons</h2>
      <fieldset className="addons">
        <legend>Choose the services you want with your booking</legend>
        {listing.servicesAndAddOns.map((addOn) => (
          <label key={addOn._id} className="addons__item form-check">
            <input type="checkbox" checked={picked.has(addOn._id)} onChange={(event) => onToggle(addOn._id, event.currentTarget.checked)} />
            <span className="addons__title">{addOn.title}</span>
            <span className="addons__price">{money(addOn.price)}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}

function Summary({ listing, draft }: { listing: BookingListing; draft: BookingDraft }) {
  const offering = listing.spaceOffering.find((item) => item._id === draft.spaceOffering);
  const services = listing.servicesAndAddOns.filter((a) => draft.servicesAndAddOns?.includes(a._id));
  return (
    <dl className="booking-summary">
      {offering && (
        <>
          <dt>Space offering</dt>
          <dd>{offering.title}</dd>
        </>
      )}
      <dt>Check-in</dt>
      <dd>
        {displayDate(draft.checkInDate ?? "")} at {draft.startTime} {zoneNameOn(listing.timeZoneNames, draft.checkInDate ?? "")}
      </dd>
      <dt>Check-out</dt>
      <dd>
        {displayDate(draft.checkOutDate || draft.checkInDate || "")} at {draft.endTime}{" "}
        {zoneNameOn(listing.timeZoneNames, draft.checkOutDate || draft.checkInDate || "")}
      </dd>
      {listing.propertyType === "eventSpace" ? (
        <>
          <dt>Guests</dt>
          <dd>{draft.guests ?? 1}</dd>
        </>
      ) : (
        <>
          <dt>Seats</dt>
          <dd>{draft.seats ?? 1}</dd>
        </>
      )}
      <dt>Services and add-ons</dt>
      <dd>{services.length ? services.map((a) => a.title).join(", ") : "None"}</dd>
    </dl>
  );
}

/** Where the payment page sends the renter back: this step, which confirms and moves on. */
function returnUrl(listing: BookingListing, bookingId: string): string {
  return stepUrl("review-and-pay", listing.slug, { bookingId });
}

async function startPayment(listing: BookingListing, bookingId: string): Promise<void> {
  const answer = await call(api.POST("/api/payment/checkout", { body: { bookingId, redirectUrl: returnUrl(listing, bookingId) } }), {
    ownAuthErrors: true,
  });
  navigation.assign(answer.data.url);
}

function ReviewStep({ listing }: FlowProps) {
  const [draft, setDraft] = useState<BookingDraft>(() => draftFor(listing.listingId));
  const [busy, setBusy] = useState(false);
  const params = new URLSearchParams(window.location.search);
  const returning = params.get("type") === "booking" ? params.get("success") : null;
  const returnedBooking = params.get("bookingId") ?? draft.bookingId ?? null;
  const [cancelled, setCancelled] = useState(returning === "false");
  const quote = useQuote(listing, returning ? {} : draft, "review-and-pay");

  // Back from the payment page.
  useEffect(() => {
    if (returning === "true" && returnedBooking) {
      const sessionId = params.get("sessionId");
      const confirm = sessionId
        ? call(api.PUT("/api/payment/checkout-success", { body: { sessionId } }), { silent: true, ownAuthErrors: true }).catch(() => undefined)
        : Promise.resolve();
      void confirm.then(() => {
        clearDraft();
        flashToast(PAYMENT_SUCCESS, "success");
        navigation.assign(`/booking-detail/${encodeURIComponent(returnedBooking)}`);
      });
    } else if (returning === "false") {
      toast.error(PAYMENT_CANCELLED);
      window.history.replaceState(null, "", returnUrl(listing, returnedBooking ?? ""));
    }
    // Once, for the URL the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (returning === "true") {
    return (
      <p className="booking-note" role="status">
        <Spinner decorative /> Confirming your payment
      </p>
    );
  }

  const pay = async (bookingId: string) => {
    setBusy(true);
    try {
      await startPayment(listing, bookingId);
    } catch {
      setBusy(false);
    }
  };

  if (cancelled && returnedBooking) {
    return (
      <div className="booking-card">
        <p>Your booking request is saved and waits for payment.</p>
        <div className="booking-actions">
          <a className="button button--secondary" href={`/booking-detail/${encodeURIComponent(returnedBooking)}`}>
            View the booking
          </a>
          <button type="button" className="button" disabled={busy} aria-busy={busy || undefined} onClick={() => void pay(returnedBooking)}>
            {busy ? <Spinner label="Pay now" /> : "Pay now"}
          </button>
        </div>
      </div>
    );
  }

  if (Object.keys(missingFields(listing, draft)).length) return <Incomplete listing={listing} />;

  const signedIn = !!listing.isLoggedIn;
  const renter = !!listing.mayBook;
  const unavailable = quote.quote?.available === false;

  const toggleAddOn = (id: string, on: boolean) => {
    const chosen = new Set(draft.servicesAndAddOns ?? []);
    const next = listing.servicesAndAddOns.map((a) => a._id).filter((a) => (a === id ? on : chosen.has(a)));
    setDraft(updateDraft({ servicesAndAddOns: next, bookingId: undefined }));
  };

  const submit = async () => {
    if (!signedIn) {
      void openAuthModal("login");
      return;
    }
    setBusy(true);
    let bookingId = draft.bookingId;
    try {
      if (!bookingId) {
        const body = { ...draft, checkOutDate: draft.checkOutDate || draft.checkInDate, listingId: listing.listingId };
        const answer = await call(
          api.POST("/api/booking/create", {
            body: {
              listingId: body.listingId,
              spaceOffering: listing.propertyType === "officeSpace" ? body.spaceOffering : undefined,
              checkInDate: body.checkInDate ?? "",
              checkOutDate: body.checkOutDate,
              startTime: body.startTime ?? "",
              endTime: body.endTime ?? "",
              guests: listing.propertyType === "eventSpace" ? (body.guests ?? 1) : undefined,
              seats: listing.propertyType === "officeSpace" ? (body.seats ?? 1) : undefined,
              servicesAndAddOns: body.servicesAndAddOns ?? [],
            },
          }),
          { ownAuthErrors: true },
        );
        bookingId = answer.data._id;
        setDraft(updateDraft({ bookingId }));
      }
      setCancelled(false);
      await startPayment(listing, bookingId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) void openAuthModal("login");
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      aria-label="Review and pay"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <section className="booking-card" aria-labelledby="review-details">
        <h2 id="review-details">Your booking</h2>
        <Summary listing={listing} draft={draft} />
        <a href={listingUrl(listing)}>Change the details</a>
      </section>
      <AddOns listing={listing} chosen={draft.servicesAndAddOns ?? []} onToggle={toggleAddOn} />
      <section className="booking-card" aria-labelledby="review-price">
        <h2 id="review-price">Price</h2>
        {quote.quote ? <Breakdown details={quote.quote.paymentDetails} caption="Price breakdown" /> : <QuotePanel state={quote} idle="" />}
        {unavailable && <p className="form-field__error">These times were just taken. Please choose other times.</p>}
      </section>
      <section className="booking-card" aria-labelledby="review-policy">
        <h2 id="review-policy">Cancellation policy{listing.cancellationPolicy ? `: ${listing.cancellationPolicy[0].toUpperCase()}${listing.cancellationPolicy.slice(1)}` : ""}</h2>
        <p>{listing.cancellationText}</p>
        <p className="booking-note">Your card is only authorised now; it is charged when the host accepts your request.</p>
      </section>
      {!signedIn && <p className="booking-note">Log in as a renter to send your request. Your choices are kept.</p>}
      {signedIn && !renter && <p className="form-field__error">Only renter accounts can book spaces.</p>}
      <Actions back={listingUrl(listing)} backLabel="Back to the space">
        {signedIn ? (
          <SubmitButton loading={busy} className="button">
            Request to book and pay
          </SubmitButton>
        ) : (
          <button type="submit" className="button">
            Log in to book
          </button>
        )}
      </Actions>
    </form>
  );
}

export function BookingFlow(props: FlowProps) {
  if (!props.listing?.listingId) return null;
  if (props.step === "services-and-add-ons" || props.step === "review-and-pay") return <ReviewStep {...props} />;
  return <DetailsStep {...props} />;
}
