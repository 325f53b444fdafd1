import { type ChangeEvent, useId } from "react";
import { describedBy, FieldShell } from "../../shared/forms/Field";
import type { BookingDraft } from "./draft";
import type { Availability, QuoteState } from "./hooks";
import { type BookingListing, breakdownRows, EXCLUSIVE_KINDS, type PaymentDetails } from "./quote";
import { money } from "../../shared/format";
import { Spinner } from "../../shared/ui/Spinner";
import { datesBetween, displayDate, endSlots, futureStartSlots, labelMinutes, nowInZone, openingFor, type Slot, zoneNameOn } from "./slots";

export type Errors = Record<string, string | undefined>;

/** A typed guest or seat count: negative numbers are ignored (as in every number field), "" clears it. */
export function acceptCount(raw: string): string | null {
  if (raw === "") return "";
  const value = Number(raw);
  return Number.isNaN(value) || value < 0 || raw.trim().startsWith("-") ? null : raw;
}

/** Keep the draft consistent when a date or the start time changes: drop times no longer offered. */
export function withConsistentTimes(listing: BookingListing, draft: BookingDraft, now: Date = new Date()): BookingDraft {
  const next = { ...draft };
  if (next.checkInDate && next.checkOutDate && next.checkOutDate < next.checkInDate) next.checkOutDate = next.checkInDate;
  if (next.checkInDate && !next.checkOutDate) next.checkOutDate = next.checkInDate;
  const starts = next.checkInDate ? futureStartSlots(listing.openingHours, next.checkInDate, now, listing.timeZone) : [];
  if (next.startTime && !starts.some((slot) => slot.value === next.startTime)) next.startTime = undefined;
  const sameDay = next.checkInDate === next.checkOutDate;
  const after = sameDay && next.startTime ? labelMinutes(next.startTime) : null;
  const ends = next.checkOutDate ? endSlots(listing.openingHours, next.checkOutDate, after) : [];
  if (next.endTime && !ends.some((slot) => slot.value === next.endTime)) next.endTime = undefined;
  return next;
}

/** What the renter must still choose before asking for a booking (messages under the fields). */
export function missingFields(listing: BookingListing, draft: BookingDraft): Errors {
  const errors: Errors = {};
  if (listing.propertyType === "officeSpace" && !draft.spaceOffering) errors.spaceOffering = "Choose a space offering.";
  if (!draft.checkInDate) errors.checkInDate = "Choose a check-in date.";
  if (!draft.startTime) errors.startTime = "Choose a start time.";
  if (!draft.endTime) errors.endTime = "Choose an end time.";
  return errors;
}

/** Days of the chosen stay that are taken or blocked ("not available") or requested ("pending"). */
export function conflicts(listing: BookingListing, draft: BookingDraft, availability: Availability) {
  if (!draft.checkInDate) return { unavailable: [] as string[], pending: [] as string[] };
  const days = datesBetween(draft.checkInDate, draft.checkOutDate || draft.checkInDate);
  const blocked = new Set(listing.blockedDates ?? []);
  return {
    unavailable: days.filter((day) => blocked.has(day) || availability.occupied.has(day)),
    pending: days.filter((day) => availability.pending.has(day)),
  };
}

interface DetailsFormProps {
  listing: BookingListing;
  draft: BookingDraft;
  errors: Errors;
  availability: Availability;
  onChange: (changes: Partial<BookingDraft>) => void;
}

function Select({
  id,
  label,
  value,
  options,
  placeholder,
  error,
  hint,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  placeholder: string;
  error?: string;
  hint?: string;
  onChange: (value: string) => void;
}) {
  return (
    <FieldShell id={id} label={label} required error={error} hint={hint}>
      <select
        id={id}
        className="form-field__input"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-required
        aria-describedby={describedBy(id, error, hint)}
        onChange={(event: ChangeEvent<HTMLSelectElement>) => onChange(event.currentTarget.value)}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

/** Slot labels with the zone's short name on that day ("10:00 AM IST"); none before a date is chosen. */
function named(slots: Slot[], listing: BookingListing, isoDate: string): Slot[] {
  if (!isoDate) return [];
  const zone = zoneNameOn(listing.timeZoneNames, isoDate);
  return zone ? slots.map((slot) => ({ ...slot, label: `${slot.label} ${zone}` })) : slots;
}

/** The note under the times: which clock they are on. */
export function zoneNote(listing: BookingListing): string | null {
  return listing.timeZone ? `Times are local to the space (${listing.timeZone}).` : null;
}

/** Offering, check-in and check-out dates, 30-minute start and end times, guests or seats. */
export function DetailsForm({ listing, draft, errors, availability, onChange }: DetailsFormProps) {
  const id = useId();
  const office = listing.propertyType === "officeSpace";
  const offering = listing.spaceOffering.find((item) => item._id === draft.spaceOffering);
  const today = nowInZone(listing.timeZone).date;
  const checkIn = draft.checkInDate ?? "";
  const checkOut = draft.checkOutDate ?? checkIn;
  const sameDay = checkIn !== "" && checkIn === checkOut;
  // Times are on the space's clock and say so: "10:00 AM IST" (the value sent stays "10:00 AM").
  const starts = named(futureStartSlots(listing.openingHours, checkIn, undefined, listing.timeZone), listing, checkIn);
  const ends = named(
    endSlots(listing.openingHours, checkOut, sameDay && draft.startTime ? labelMinutes(draft.startTime) : null),
    listing,
    checkOut,
  );
  const closedOn = (day: string) => day !== "" && openingFor(listing.openingHours, day) === null;
  const { unavailable, pending } = conflicts(listing, draft, availability);
  const exclusive = offering ? EXCLUSIVE_KINDS.has(offering.kind) : false;
  const dateError =
    errors.checkInDate ??
    (closedOn(checkIn) ? `The space is closed on ${displayDate(checkIn)}.` : undefined) ??
    (unavailable.length ? `Not available on ${unavailable.slice(0, 3).map(displayDate).join(", ")}.` : undefined);
  const pendingHint = pending.length
    ? `Requested by someone else, waiting for the host: ${pending.slice(0, 3).map(displayDate).join(", ")}.`
    : undefined;

  const countField = (name: "guests" | "seats", label: string, max: number | null | undefined) => {
    const fieldId = `${id}-${name}`;
    const error = errors[name];
    const hint = max ? `At most ${max}.` : undefined;
    return (
      <FieldShell id={fieldId} label={label} required error={error} hint={hint}>
        <input
          id={fieldId}
          className="form-field__input"
          type="number"
          inputMode="numeric"
          min={1}
          max={max ?? undefined}
          step={1}
          value={draft[name] ?? 1}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(fieldId, error, hint)}
          onChange={(event) => {
            const accepted = acceptCount(event.currentTarget.value);
            if (accepted === null) {
              event.currentTarget.value = String(draft[name] ?? 1);
              return;
            }
            onChange({ [name]: accepted === "" ? null : Math.floor(Number(accepted)) });
          }}
        />
      </FieldShell>
    );
  };

  return (
    <div className="booking-form">
      {office && (
        <Select
          id={`${id}-offering`}
          label="Space offering"
          value={draft.spaceOffering ?? ""}
          placeholder="Choose an offering"
          error={errors.spaceOffering}
          options={listing.spaceOffering.map((item) => {
            const [period, price] = Object.entries(item.prices)[0] ?? [];
            return { value: item._id, label: price ? `${item.title} (from ${money(price)} ${period})` : item.title };
          })}
          onChange={(value) => onChange({ spaceOffering: value || null, seats: 1 })}
        />
      )}
      <div className="booking-form__row">
        <FieldShell id={`${id}-in`} label="Check-in date" required error={dateError} hint={pendingHint}>
          <input
            id={`${id}-in`}
            className="form-field__input"
            type="date"
            min={today}
            value={checkIn}
            aria-required
            aria-invalid={dateError ? true : undefined}
            aria-describedby={describedBy(`${id}-in`, dateError, pendingHint)}
            onChange={(event) => onChange({ checkInDate: event.currentTarget.value || undefined })}
          />
        </FieldShell>
        <FieldShell id={`${id}-out`} label="Check-out date" required error={errors.checkOutDate}>
          <input
            id={`${id}-out`}
            className="form-field__input"
            type="date"
            min={checkIn || today}
            value={checkOut}
            aria-required
            aria-invalid={errors.checkOutDate ? true : undefined}
            aria-describedby={describedBy(`${id}-out`, errors.checkOutDate)}
            onChange={(event) => onChange({ checkOutDate: event.currentTarget.value || undefined })}
          />
        </FieldShell>
      </div>
      <div className="booking-form__row">
        <Select
          id={`${id}-start`}
          label="Start time"
          value={draft.startTime ?? ""}
          placeholder={!checkIn || starts.length ? "Start time" : "None left"}
          error={errors.startTime}
          options={starts}
          onChange={(value) => onChange({ startTime: value || undefined })}
        />
        <Select
          id={`${id}-end`}
          label="End time"
          value={draft.endTime ?? ""}
          placeholder={!checkOut || ends.length ? "End time" : "None left"}
          error={errors.endTime}
          options={ends}
          onChange={(value) => onChange({ endTime: value || undefined })}
        />
      </div>
      {zoneNote(listing) && <p className="booking-note" data-testid="booking-zone">{zoneNote(listing)}</p>}
      {office
        ? offering && !exclusive && countField("seats", "Seats", offering.seats)
        : countField("guests", "Guests", listing.guest)}
    </div>
  );
}

/** Upcoming booked and requested dates, or a hint to log in to see them. */
export function AvailabilityNote({ listing, availability }: { listing: BookingListing; availability: Availability }) {
  if (!listing.isLoggedIn) return <p className="booking-note">Log in to see which dates are already booked.</p>;
  if (!availability.loaded) return null;
  const occupied = [...availability.occupied, ...(listing.blockedDates ?? [])].filter((d, i, all) => all.indexOf(d) === i).sort();
  const pending = [...availability.pending].sort();
  if (!occupied.length && !pending.length) return <p className="booking-note">Every date of the next 90 days is open.</p>;
  return (
    <div className="booking-note">
      {occupied.length > 0 && (
        <p>
          <span className="booking-dot booking-dot--occupied" aria-hidden="true" /> Booked: {occupied.slice(0, 8).map(displayDate).join(", ")}
          {occupied.length > 8 ? ` and ${occupied.length - 8} more` : ""}
        </p>
      )}
      {pending.length > 0 && (
        <p>
          <span className="booking-dot booking-dot--pending" aria-hidden="true" /> Pending: {pending.slice(0, 8).map(displayDate).join(", ")}
          {pending.length > 8 ? ` and ${pending.length - 8} more` : ""}
        </p>
      )}
    </div>
  );
}

export function Breakdown({ details, caption = "Price breakdown" }: { details: PaymentDetails; caption?: string }) {
  return (
    <table className="price-breakdown">
      <caption>{caption}</caption>
      <tbody>
        {breakdownRows(details).map((row) => (
          <tr key={row.key} className={row.emphasis ? "price-breakdown__total" : undefined}>
            <th scope="row">{row.label}</th>
            <td>{row.amount}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The live quote: a spinner while asking, the server's sentence when it cannot be booked, else the breakdown. */
export function QuotePanel({ state, idle }: { state: QuoteState; idle: string }) {
  return (
    <div className="quote-panel" aria-live="polite" aria-busy={state.loading || undefined}>
      {state.loading ? (
        <p className="booking-note">
          <Spinner decorative /> Calculating the price
        </p>
      ) : state.error ? (
        <p className="form-field__error">{state.error}</p>
      ) : state.quote ? (
        <Breakdown details={state.quote.paymentDetails} />
      ) : (
        <p className="booking-note">{idle}</p>
      )}
    </div>
  );
}
