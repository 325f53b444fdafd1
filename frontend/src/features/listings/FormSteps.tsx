/** The fields of each step of the listing form (values and rules in ./form). */
import { useQuery } from "@tanstack/react-query";
import { CountryField } from "../../shared/forms/CountryField";
import { Plus, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { Controller, useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { api, call } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { CheckboxField, SelectField } from "../../shared/forms/fields";
import { TextField } from "../../shared/forms/TextField";
import { LazyRichTextEditor } from "../../shared/ui/LazyRichTextEditor";
import { formatDate, money } from "../../shared/format";
import { type ListingFormProps } from "./ListingForm";
import { LocationPicker } from "../../shared/ui/map/LocationPicker";
import { PhotosStep } from "./PhotosStep";
import { ExternalCalendarsPanel } from "../calendar/ExternalCalendars";
import { EVENT_PERIODS, type ListingFormValues, type ListingLike, OFFERINGS, PERIOD_WORDS, plainText, type StepId, WEEKDAYS } from "./form";

const TIMES = Array.from({ length: 48 }, (_, index) => {
  const hours = String(Math.floor(index / 2)).padStart(2, "0");
  const value = `${hours}:${index % 2 ? "30" : "00"}`;
  const hour12 = Math.floor(index / 2) % 12 || 12;
  return { value, label: `${String(hour12).padStart(2, "0")}:${index % 2 ? "30" : "00"} ${index < 24 ? "AM" : "PM"}` };
}).concat([{ value: "23:59", label: "Midnight" }]);

function FieldError({ path }: { path: string }) {
  const { formState } = useFormContext<ListingFormValues>();
  const parts = path.split(".");
  let node: unknown = formState.errors;
  for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
  const message = (node as { message?: string } | undefined)?.message;
  return message ? (
    <p className="form-field__error" role="alert">
      {message}
    </p>
  ) : null;
}

function KindStep() {
  const { register } = useFormContext<ListingFormValues>();
  return (
    <fieldset className="choice-cards">
      <legend>What kind of space is it?</legend>
      <label className="choice-card">
        <input type="radio" value="officeSpace" {...register("propertyType")} />
        <span>
          <strong>Work space</strong>
          <span>Desks, private cabins, meeting rooms, virtual offices: each offering with its own prices.</span>
        </span>
      </label>
      <label className="choice-card">
        <input type="radio" value="eventSpace" {...register("propertyType")} />
        <span>
          <strong>Event space</strong>
          <span>A venue booked whole by the hour, day or week, for a number of guests.</span>
        </span>
      </label>
      <FieldError path="propertyType" />
    </fieldset>
  );
}

function BasicsStep() {
  const { control } = useFormContext<ListingFormValues>();
  const type = useWatch({ control, name: "propertyType" });
  return (
    <div className="form-grid">
      <TextField control={control} name="title" label="Title" required maxLength={140} />
      <Controller
        control={control}
        name="description"
        render={({ field, fieldState }) => (
          <div className="form-field form-wide">
            <LazyRichTextEditor label="Description" value={field.value ?? ""} onChange={field.onChange} error={fieldState.error?.message} />
            <p className="form-field__hint">Tell renters what the space is like, how to get in and what is included.</p>
          </div>
        )}
      />
      <TextField control={control} name="dimension" label="Size" maxLength={60} placeholder="e.g. 200 m²" />
      {type === "eventSpace" ? (
        <TextField control={control} name="guest" label="Guests" kind="number" required />
      ) : (
        <TextField control={control} name="numberOfSeats" label="Seats in total" kind="number" />
      )}
    </div>
  );
}

function LocationStep({ props }: { props: ListingFormProps }) {
  const { control, setValue } = useFormContext<ListingFormValues>();
  const [latitude, longitude] = useWatch({ control, name: ["latitude", "longitude"] });
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const listId = useId();
  return (
    <div className="form-grid">
      <TextField control={control} name="streetAddress" label="Street address" maxLength={200} />
      <TextField control={control} name="city" label="City" required maxLength={80} />
      <TextField control={control} name="state" label="State or province" maxLength={80} />
      <CountryField control={control} name="country" required />
      <TextField control={control} name="postalCode" label="Postal code" maxLength={20} />
      <div className="form-wide">
        <LocationPicker
          tileUrl={props.tileUrl}
          attribution={props.attribution}
          latitude={latitude}
          longitude={longitude}
          onPick={(lat, lng) => {
            setValue("latitude", lat.toFixed(6), { shouldDirty: true, shouldValidate: true });
            setValue("longitude", lng.toFixed(6), { shouldDirty: true, shouldValidate: true });
          }}
        />
      </div>
      <TextField control={control} name="latitude" label="Latitude" inputMode="decimal" />
      <TextField control={control} name="longitude" label="Longitude" inputMode="decimal" />
      <TextField
        control={control}
        name="timeZone"
        label="Time zone"
        list={listId}
        maxLength={64}
        hint="Bookings, opening hours and the calendar use it. Left empty, it follows from the pin or the city."
      />
      <datalist id={listId}>
        {zones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </div>
  );
}

function OfferingsStep() {
  const { control, register } = useFormContext<ListingFormValues>();
  const [type, offerings] = useWatch({ control, name: ["propertyType", "offerings"] });
  if (type === "eventSpace") {
    return (
      <div className="form-grid">
        {EVENT_PERIODS.map((period) => (
          <TextField key={period} control={control} name={period} label={`Price per ${PERIOD_WORDS[period]}`} kind="price" />
        ))}
        <TextField control={control} name="minimumDays" label="Minimum booking (hours)" kind="number" />
        <p className="dash-note form-wide">Give at least one of the hourly, daily or weekly prices.</p>
      </div>
    );
  }
  return (
    <div className="offerings">
      <FieldError path="offerings" />
      {OFFERINGS.map((spec, index) => {
        const enabled = offerings?.[index]?.enabled;
        const hourly = spec.periods.length === 1 && spec.periods[0] === "hourly";
        return (
          <fieldset key={spec.kind} className={`offering${enabled ? " is-enabled" : ""}`}>
            <legend>
              <label>
                <input type="checkbox" {...register(`offerings.${index}.enabled` as const)} /> {spec.title}
              </label>
              <span className="dash-note"> sold by the {spec.periods.map((period) => PERIOD_WORDS[period]).join(", ")}</span>
            </legend>
            {enabled && (
              <div className="form-grid">
                {spec.periods.map((period) => (
                  <TextField key={period} control={control} name={`offerings.${index}.${period}` as const} label={`Price per ${PERIOD_WORDS[period]}`} kind="price" />
                ))}
                <TextField control={control} name={`offerings.${index}.seats` as const} label={["meetingSpace", "avRoom", "privateCabin"].includes(spec.kind) ? "Rooms" : "Seats"} kind="number" />
                <TextField control={control} name={`offerings.${index}.minimumPeriod` as const} label={`Minimum booking (${hourly ? "hours" : "days"})`} kind="number" />
                <FieldError path={`offerings.${index}.price`} />
              </div>
            )}
          </fieldset>
        );
      })}
    </div>
  );
}

function useCatalogue(kind: "amenities" | "facilities") {
  const path = kind === "amenities" ? "/api/amenities/get-all" : "/api/facilities/get-all";
  return useQuery({
    queryKey: apiKey(path),
    queryFn: ({ signal }) => call(api.GET(path, { signal })).then((answer) => answer.data),
  });
}

function CatalogueChoices({ kind, label }: { kind: "amenities" | "facilities"; label: string }) {
  const { control, setValue } = useFormContext<ListingFormValues>();
  const chosen = useWatch({ control, name: kind }) ?? [];
  const items = useCatalogue(kind);
  return (
    <fieldset className="checks">
      <legend>{label}</legend>
      {items.data?.length === 0 && <p>No data found</p>}
      {items.data?.map((item) => (
        <label key={item._id} className="check">
          <input
            type="checkbox"
            checked={chosen.includes(item._id)}
            onChange={(event) =>
              setValue(kind, event.currentTarget.checked ? [...chosen, item._id] : chosen.filter((id) => id !== item._id), { shouldDirty: true })
            }
          />{" "}
          {item.name}
        </label>
      ))}
      <FieldError path={kind} />
    </fieldset>
  );
}

function ServicesStep() {
  const { control } = useFormContext<ListingFormValues>();
  const services = useFieldArray({ control, name: "servicesAndAddOns" });
  return (
    <>
      <fieldset>
        <legend>Services and add-ons</legend>
        <p className="dash-note">Extras a renter can add to a booking, such as catering or a projector.</p>
        {services.fields.map((field, index) => (
          <div key={field.id} className="form-row">
            <TextField control={control} name={`servicesAndAddOns.${index}.title` as const} label="Service" required maxLength={120} />
            <TextField control={control} name={`servicesAndAddOns.${index}.price` as const} label="Price" kind="price" required />
            <button type="button" className="button button--quiet" onClick={() => services.remove(index)} aria-label={`Remove service ${index + 1}`}>
              <Trash2 aria-hidden="true" size={16} />
            </button>
          </div>
        ))}
        <button type="button" className="button button--quiet" onClick={() => services.append({ title: "", price: "" })} disabled={services.fields.length >= 30}>
          <Plus aria-hidden="true" size={16} /> Add a service
        </button>
      </fieldset>
      <CatalogueChoices kind="amenities" label="Amenities" />
      <CatalogueChoices kind="facilities" label="Facilities" />
    </>
  );
}

function AvailabilityStep({ listingId }: { listingId: string | null }) {
  const { control, register, setValue } = useFormContext<ListingFormValues>();
  const [hours, blocked] = useWatch({ control, name: ["openingHours", "blockedDates"] });
  const [day, setDay] = useState("");
  const dateId = useId();
  const todayText = new Date().toISOString().slice(0, 10);
  return (
    <>
      <fieldset>
        <legend>Opening hours</legend>
        <table className="hours-table">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Closed</th>
              <th scope="col">Opens</th>
              <th scope="col">Closes</th>
            </tr>
          </thead>
          <tbody>
            {WEEKDAYS.map((weekday) => {
              const closed = hours?.[weekday]?.closed;
              return (
                <tr key={weekday}>
                  <th scope="row">{weekday.charAt(0).toUpperCase() + weekday.slice(1)}</th>
                  <td>
                    <input type="checkbox" aria-label={`Closed on ${weekday}`} {...register(`openingHours.${weekday}.closed` as const)} />
                  </td>
                  <td>
                    <select aria-label={`Opens on ${weekday}`} className="form-field__input" disabled={closed} {...register(`openingHours.${weekday}.open` as const)}>
                      {TIMES.map((time) => (
                        <option key={time.value} value={time.value}>
                          {time.label}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <select aria-label={`Closes on ${weekday}`} className="form-field__input" disabled={closed} {...register(`openingHours.${weekday}.close` as const)}>
                      {TIMES.map((time) => (
                        <option key={time.value} value={time.value}>
                          {time.label}
                        </option>
                      ))}
                    </select>
                    <FieldError path={`openingHours.${weekday}.close`} />
                    <FieldError path={`openingHours.${weekday}.open`} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </fieldset>
      <fieldset>
        <legend>Blocked dates</legend>
        <p className="dash-note">Days the space cannot be booked (holidays, maintenance).</p>
        <div className="form-row">
          <div className="form-field">
            <label className="form-field__label" htmlFor={dateId}>
              Date to block
            </label>
            <input id={dateId} type="date" className="form-field__input" min={todayText} value={day} onChange={(event) => setDay(event.currentTarget.value)} />
          </div>
          <button
            type="button"
            className="button button--quiet"
            disabled={!day || (blocked ?? []).includes(day)}
            onClick={() => {
              setValue("blockedDates", [...(blocked ?? []), day].sort(), { shouldDirty: true });
              setDay("");
            }}
          >
            <Plus aria-hidden="true" size={16} /> Block this date
          </button>
        </div>
        <ul className="tags">
          {(blocked ?? []).map((date) => (
            <li key={date}>
              {formatDate(`${date}T12:00:00`)}{" "}
              <button type="button" className="button button--quiet" aria-label={`Unblock ${formatDate(`${date}T12:00:00`)}`} onClick={() => setValue("blockedDates", (blocked ?? []).filter((item) => item !== date), { shouldDirty: true })}>
                ×
              </button>
            </li>
          ))}
        </ul>
        <FieldError path="blockedDates" />
      </fieldset>
      <div className="form-grid">
        <TextField control={control} name="bufferMinutes" label="Buffer between bookings (minutes)" kind="number" hint="Time kept free after each booking." />
        <TextField control={control} name="minimumNoticeHours" label="Minimum notice (hours)" kind="number" hint="How long before its start a booking must be requested." />
        <TextField control={control} name="bookingWindowDays" label="Booking window (days)" kind="number" hint="How far ahead a booking may start." />
      </div>
      {listingId ? <ExternalCalendarsPanel listingId={listingId} /> : <p className="dash-note">Once the listing is saved, you can import its calendars from other sites here.</p>}
    </>
  );
}

function PoliciesStep({ props, listing }: { props: ListingFormProps; listing: ListingLike | null }) {
  const { control } = useFormContext<ListingFormValues>();
  const commission = listing?.commissionCollection;
  return (
    <div className="form-grid">
      <TextField control={control} name="discount" label="Discount (%)" kind="percentage" />
      <TextField control={control} name="processingFee" label="Convenience fee (%)" kind="percentage" hint="Added to the renter's total." />
      <SelectField
        control={control}
        name="paymentPreference"
        label="Payment"
        options={[
          { value: "payNow", label: "Pay now (card, when the request is approved)" },
          { value: "payLater", label: "Pay at the space" },
        ]}
      />
      <SelectField
        control={control}
        name="cancellationPolicy"
        label="Cancellation policy"
        options={[
          { value: "flexible", label: "Flexible" },
          { value: "moderate", label: "Moderate" },
          { value: "strict", label: "Strict" },
        ]}
      />
      <div className="form-field">
        <span className="form-field__label">Commission</span>
        <p>{commission ? `${commission}%` : "Set by the platform"} (read-only)</p>
      </div>
      <div className="form-field">
        <span className="form-field__label">Your tax</span>
        <p>
          {props.hostTax}% from your profile (<a href="/profile/edit">change it there</a>)
        </p>
      </div>
      {(props.isPremiumHost || listing?.isPremium) && (
        <CheckboxField control={control} name="isPremium" label="Feature this listing as premium (shown first in search with a Premium badge)" />
      )}
    </div>
  );
}

function ReviewStep() {
  const { control, formState } = useFormContext<ListingFormValues>();
  const values = useWatch({ control }) as ListingFormValues;
  const event = values.propertyType === "eventSpace";
  const rows: [string, string][] = [
    ["Kind", event ? "Event space" : "Work space"],
    ["Title", values.title],
    ["Description", plainText(values.description ?? "").slice(0, 200)],
    ["Location", [values.streetAddress, values.city, values.state, values.country].filter(Boolean).join(", ")],
    ["Time zone", values.timeZone || "From the pin or the city"],
    [
      "Prices",
      event
        ? EVENT_PERIODS.filter((period) => values[period]).map((period) => `${money(values[period])} / ${PERIOD_WORDS[period]}`).join(", ")
        : (values.offerings ?? [])
            .filter((offering) => offering.enabled)
            .map((offering) => {
              const spec = OFFERINGS.find((item) => item.kind === offering.kind);
              return `${spec?.title}: ${(spec?.periods ?? []).filter((period) => offering[period]).map((period) => `${money(offering[period])} / ${PERIOD_WORDS[period]}`).join(", ")}`;
            })
            .join("; "),
    ],
    ["Services", (values.servicesAndAddOns ?? []).map((item) => `${item.title} ${money(item.price)}`).join(", ") || "None"],
    ["Photos", `${values.images?.length ?? 0}`],
    ["Opening hours", WEEKDAYS.map((day) => `${day.slice(0, 3)} ${values.openingHours?.[day]?.closed ? "closed" : `${values.openingHours?.[day]?.open}–${values.openingHours?.[day]?.close}`}`).join(" · ")],
    ["Blocked dates", (values.blockedDates ?? []).length ? (values.blockedDates ?? []).join(", ") : "None"],
    ["Buffer, notice, window", `${values.bufferMinutes} min · ${values.minimumNoticeHours} h · ${values.bookingWindowDays} days`],
    ["Policies", `${values.discount}% discount · ${values.processingFee}% convenience fee · ${values.paymentPreference === "payNow" ? "pay now" : "pay at the space"} · ${values.cancellationPolicy}`],
  ];
  return (
    <>
      {Object.keys(formState.errors).length > 0 && (
        <p className="form-field__error" role="alert">
          Some steps need attention; they are marked above.
        </p>
      )}
      <dl className="dash-detail review-list">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value || "—"}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

export function StepContent({ step, props, listing }: { step: StepId; props: ListingFormProps; listing: ListingLike | null }) {
  switch (step) {
    case "kind":
      return <KindStep />;
    case "basics":
      return <BasicsStep />;
    case "location":
      return <LocationStep props={props} />;
    case "offerings":
      return <OfferingsStep />;
    case "services":
      return <ServicesStep />;
    case "photos":
      return <PhotosStep />;
    case "availability":
      return <AvailabilityStep listingId={props.mode === "edit" ? props.id : null} />;
    case "policies":
      return <PoliciesStep props={props} listing={listing} />;
    case "review":
      return <ReviewStep />;
  }
}

