/**
 * /listing-detail/{id}: the listing as its owner and staff see it, whatever its status: its
 * photos and facts, bookings summary, availability, status history and, while an edit waits for
 * review, the proposed values beside the live ones. Buttons follow the listing's `can` flags.
 */
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, CalendarDays, CheckCircle2, Copy, Pencil, XCircle } from "lucide-react";
import { useState } from "react";
import { api, call, type Schemas } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { formatDate, formatDateTime, money } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { Spinner } from "../../shared/ui/Spinner";
import { StatusHistoryItems } from "../../shared/ui/StatusHistory";
import { toast } from "../../shared/ui/toast";
import { monthWeeks, today, WEEKDAY_LABELS } from "../calendar/grid";
import { type Listing, type ListingDetail, type ListingRequestDetail, useListing, useRequest, useReview } from "./api";
import { listingHref, WEEKDAYS } from "./form";
import { ReasonDialog } from "./ReasonDialog";

/** One side of a change as the server words it: a text, a list of texts (image paths show as thumbnails), or empty. */
function Value({ value }: { value: Schemas["RequestChange"]["live"] }) {
  if (Array.isArray(value)) {
    if (!value.length) return <em>none</em>;
    if (value.every((item) => /\.(webp|jpe?g|png)$/.test(item))) {
      return (
        <span className="thumbs">
          {value.map((path) => (
            <img key={path} src={`/uploads/${path}`} alt="" width={64} height={48} loading="lazy" />
          ))}
        </span>
      );
    }
    return <>{value.join(", ")}</>;
  }
  if (value === null || value === undefined || value === "") return <em>empty</em>;
  const text = value.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  return <>{text.length > 300 ? `${text.slice(0, 300)}…` : text}</>;
}

export function ChangesTable({ request }: { request: ListingRequestDetail }) {
  if (!request.changes?.length) return null;
  return (
    <section className="dash-card" aria-labelledby="changes-title">
      <h2 id="changes-title">Changes waiting for review</h2>
      <p className="dash-note">The live listing keeps its current values until the changes are approved.</p>
      <div className="data-table__scroll">
        <table className="changes">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Live</th>
              <th scope="col">Proposed</th>
            </tr>
          </thead>
          <tbody>
            {request.changes.map((change) => (
              <tr key={change.field}>
                <th scope="row">{change.label}</th>
                <td data-label="Live">
                  <Value value={change.live} />
                </td>
                <td data-label="Proposed">
                  <Value value={change.proposed} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Facts({ listing }: { listing: Listing }) {
  const hours = (listing.openingHours ?? {}) as Record<string, { open: string; close: string } | null>;
  return (
    <section className="dash-card" aria-labelledby="facts-title">
      <h2 id="facts-title">Details</h2>
      <dl className="dash-detail">
        <dt>Type</dt>
        <dd>{listing.propertyType === "eventSpace" ? "Event space" : "Work space"}</dd>
        <dt>Address</dt>
        <dd>{listing.address || `${listing.streetAddress} ${listing.city}, ${listing.country}`}</dd>
        {listing.propertyType === "eventSpace" ? (
          <>
            <dt>Guests</dt>
            <dd>{listing.guest ?? "—"}</dd>
            <dt>Prices</dt>
            <dd>
              {[listing.hourly && `${money(listing.hourly)} / hour`, listing.daily && `${money(listing.daily)} / day`, listing.weekly && `${money(listing.weekly)} / week`]
                .filter(Boolean)
                .join(" · ") || "—"}
            </dd>
          </>
        ) : (
          <>
            <dt>Offerings</dt>
            <dd>
              <ul className="plain-list">
                {listing.spaceOffering.map((offering) => (
                  <li key={offering._id}>
                    {offering.title}: {(["hourly", "daily", "weekly", "monthly"] as const).filter((period) => offering[period]).map((period) => `${money(offering[period])} / ${period.replace("ly", "").replace("dai", "day")}`).join(", ")} ({offering.seats} seat{offering.seats === 1 ? "" : "s"})
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        <dt>Opening hours</dt>
        <dd>
          {Object.keys(hours).length === 0
            ? "Open around the clock"
            : WEEKDAYS.map((day) => `${day.slice(0, 3)} ${hours[day] ? `${hours[day]?.open}–${hours[day]?.close}` : day in hours ? "closed" : "24 h"}`).join(" · ")}
        </dd>
        <dt>Buffer, notice, window</dt>
        <dd>
          {listing.bufferMinutes} min between bookings · {listing.minimumNoticeHours} h notice · up to {listing.bookingWindowDays} days ahead
        </dd>
        <dt>Policies</dt>
        <dd>
          {listing.discount}% discount · {listing.processingFee}% convenience fee · {listing.commissionCollection}% commission · {listing.paymentPreference === "payNow" ? "pay now" : "pay at the space"} · {listing.cancellationPolicy} cancellation
        </dd>
        <dt>Amenities</dt>
        <dd>{listing.amenities.map((item) => item.name).join(", ") || "—"}</dd>
        <dt>Facilities</dt>
        <dd>{listing.facilities.map((item) => item.name).join(", ") || "—"}</dd>
      </dl>
    </section>
  );
}

function BookingsSummary({ listingId }: { listingId: string }) {
  const summary = useQuery({
    queryKey: apiKey("/api/booking/listing-summary/{listing_id}", { listingId }),
    queryFn: ({ signal }) =>
      call(api.GET("/api/booking/listing-summary/{listing_id}", { params: { path: { listing_id: listingId } }, signal }), { silent: true }).then(
        (answer) => answer.data,
      ),
    retry: false,
  });
  if (summary.isPending) return <Spinner />;
  if (!summary.data) return null;
  const counts = summary.data.counts as Record<string, number>;
  return (
    <section className="dash-card" aria-labelledby="bookings-title">
      <h2 id="bookings-title">Bookings</h2>
      <p>
        {summary.data.total} booking{summary.data.total === 1 ? "" : "s"}
        {Object.keys(counts).length > 0 && ": "}
        {Object.entries(counts)
          .map(([status, count]) => `${count} ${status}`)
          .join(", ")}
      </p>
      {summary.data.upcoming.length > 0 && (
        <ul className="plain-list">
          {summary.data.upcoming.map((booking) => (
            <li key={booking._id}>
              <a href={`/booking-detail/${booking._id}`}>
                {booking.checkInDate} {booking.startTime} to {booking.checkOutDate} {booking.endTime}
              </a>{" "}
              <Badge status={booking.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Availability({ listingId }: { listingId: string }) {
  const start = today();
  const days = useQuery({
    queryKey: apiKey("/api/listing/get-availability/{listing_id}", { listingId, start }),
    queryFn: ({ signal }) =>
      call(
        api.GET("/api/listing/get-availability/{listing_id}", {
          params: { path: { listing_id: listingId }, query: { from: start, days: 62 } },
          signal,
        }),
        { silent: true },
      ).then((answer) => answer.data),
    retry: false,
  });
  if (days.isPending) return <Spinner />;
  if (!days.data) return null;
  const state = (day: string): string => {
    for (const key of ["occupiedDates", "pendingDates", "blockedDates", "availableDates"] as const) {
      if (days.data[key].includes(day)) return key.replace("Dates", "");
    }
    return "closed";
  };
  const months = [start, nextMonth(start)];
  return (
    <section className="dash-card" aria-labelledby="availability-title">
      <h2 id="availability-title">
        <CalendarDays aria-hidden="true" size={18} /> Availability
      </h2>
      <p className="legend">
        <span className="day day--available">available</span> <span className="day day--pending">pending</span> <span className="day day--occupied">booked</span>{" "}
        <span className="day day--blocked">blocked</span> <span className="day day--closed">closed or out of range</span>
      </p>
      <div className="mini-months">
        {months.map((month) => (
          <table key={month} className="mini-month">
            <caption>{new Date(`${month.slice(0, 7)}-01T12:00:00Z`).toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" })}</caption>
            <thead>
              <tr>
                {WEEKDAY_LABELS.map((label) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {monthWeeks(month).map((week) => (
                <tr key={week[0]}>
                  {week.map((day) => (
                    <td key={day} className={day.slice(0, 7) === month.slice(0, 7) ? `day day--${state(day)}` : "day day--outside"} title={`${formatDate(day)}: ${state(day)}`}>
                      {day.slice(0, 7) === month.slice(0, 7) ? Number(day.slice(8)) : ""}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </section>
  );
}

function nextMonth(day: string): string {
  const [year, month] = day.split("-").map(Number);
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
}

function History({ listing }: { listing: ListingDetail }) {
  const rows = listing.statusHistory ?? [];
  return (
    <section className="dash-card" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <ul className="plain-list">
        <li>Created {formatDateTime(listing.createdAt)}</li>
        <StatusHistoryItems rows={rows} />
        {listing.approvedAt && !rows.length && <li>Approved {formatDateTime(listing.approvedAt)}</li>}
        {listing.rejectReason && <li>Rejected: {listing.rejectReason}</li>}
      </ul>
    </section>
  );
}

function IcalLink({ listingId }: { listingId: string }) {
  const [busy, setBusy] = useState(false);
  const copy = async () => {
    setBusy(true);
    try {
      const answer = await call(api.GET("/api/listing/calendar-url/{listing_id}", { params: { path: { listing_id: listingId } } }));
      const url = answer.data.url;
      await navigator.clipboard?.writeText(url);
      toast.success("Calendar link copied.");
    } catch {
      /* the toast already said why */
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="button button--quiet" onClick={() => void copy()} disabled={busy}>
      <Copy aria-hidden="true" size={16} /> Copy iCal link
    </button>
  );
}

export function ListingDetailPage({ id, staff, hostSide, requestId }: { id: string; staff: boolean; hostSide: boolean; requestId?: string }) {
  const listing = useListing(id);
  const waiting = requestId || listing.data?.requestId || null;
  const request = useRequest(waiting);
  const review = useReview();
  const [deciding, setDeciding] = useState<"approved" | "rejected" | null>(null);
  if (listing.isPending) return <Spinner size="large" />;
  if (!listing.data) {
    return (
      <section className="dash-card">
        <h1>Listing not found</h1>
        <p>
          <a href="/listing">Back to the listings</a>
        </p>
      </section>
    );
  }
  const data = listing.data;
  const can = data.can;
  const reviewable = request.data?.status === "pending" && request.data.can.approve;
  const cover = data.photos[0];
  return (
    <>
      <div className="dash-title">
        <a className="dash-back" href="/listing" aria-label="Back to the listings">
          <ArrowLeft aria-hidden="true" size={18} />
        </a>
        <h1>{data.title}</h1>
        <span className="badge-stack">
          <Badge status={data.status} />
          {!data.isActive && <span className="badge badge--muted">inactive</span>}
        </span>
        <div className="dash-actions">
          {data.status === "approved" && (
            <a className="button button--quiet" href={listingHref(data)}>
              Public page
            </a>
          )}
          {hostSide && <IcalLink listingId={data._id} />}
          {can.edit && (
            <a className="button" href={`/edit-listing/${data._id}`}>
              <Pencil aria-hidden="true" size={16} /> Edit
            </a>
          )}
          {reviewable && (
            <>
              <button type="button" className="button" onClick={() => setDeciding("approved")}>
                <CheckCircle2 aria-hidden="true" size={16} /> Approve
              </button>
              <button type="button" className="button button--danger" onClick={() => setDeciding("rejected")}>
                <XCircle aria-hidden="true" size={16} /> Reject
              </button>
            </>
          )}
        </div>
      </div>
      {request.data && request.data.status !== "pending" && request.data.reason && (
        <p className="dash-warning" role="status">
          This request was {request.data.status}: {request.data.reason}
        </p>
      )}
      {data.status === "rejected" && data.rejectReason && (
        <p className="dash-warning" role="status">
          Rejected: {data.rejectReason}
        </p>
      )}
      {request.data && <ChangesTable request={request.data} />}
      <div className="listing-detail-grid">
        <section className="dash-card" aria-labelledby="photos-title">
          <h2 id="photos-title">Photos</h2>
          {cover ? (
            <div className="photo-strip">
              {data.photos.map((photo, index) => (
                <img key={photo.path} src={photo.url} srcSet={photo.srcset} sizes="(max-width: 640px) 100vw, 320px" alt={photo.alt} width={320} height={213} loading={index ? "lazy" : undefined} />
              ))}
            </div>
          ) : (
            <p>No photos</p>
          )}
          {/* The server sends only sanitised HTML: the model sanitises every save (the Django admin too) and
              the API's SanitizedRichTextField again on the way out, so no client-side sanitiser is needed. */}
          {data.description && <div className="description" dangerouslySetInnerHTML={{ __html: data.description }} />}
        </section>
        <Facts listing={data} />
        {(staff || hostSide) && <BookingsSummary listingId={data._id} />}
        <Availability listingId={data._id} />
        <History listing={data} />
      </div>
      {deciding === "approved" && request.data && (
        <ConfirmDialog
          title="Approve request"
          message={`Approve ${request.data.kind === "new" ? "this listing" : "these changes"}?`}
          confirmLabel="Approve"
          busy={review.isPending}
          onConfirm={() => review.mutate({ requestId: request.data?._id ?? "", status: "approved" }, { onSettled: () => setDeciding(null) })}
          onCancel={() => setDeciding(null)}
        />
      )}
      {deciding === "rejected" && request.data && (
        <ReasonDialog
          title="Reject request"
          busy={review.isPending}
          onSubmit={(reason) => review.mutate({ requestId: request.data?._id ?? "", status: "rejected", reason }, { onSettled: () => setDeciding(null) })}
          onClose={() => setDeciding(null)}
        />
      )}
    </>
  );
}
