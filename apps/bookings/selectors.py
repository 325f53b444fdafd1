"""Reads of the bookings app, filtered by who may see what."""

import datetime as dt

from django.db.backends.postgresql.psycopg_any import DateTimeTZRange
from django.db.models import Q, QuerySet
from django.utils import timezone

from apps.accounts.models import Role
from apps.core.django_internals import prefetched
from apps.core.exceptions import NotFound
from apps.core.filters import filter_status_period_search, is_uuid
from apps.listings.models import Listing, PropertyType

from .models import Booking, BookingStatus, ExtendBooking, ExtensionStatus, ExternalBlock, Occupancy
from .policies import PAYMENT_HELD_STATES, UPCOMING_STATUSES

# What a booking list's search reads (the disputes list reads these too, and the reason).
PEOPLE_AND_LISTING = ("listing__title", "renter__first_name", "renter__last_name", "renter__email")


def _base() -> QuerySet[Booking]:
    """Bookings with what their responses and ``can`` flags read: the listing, the people, the
    review and the extensions."""
    return Booking.objects.select_related("listing", "offering", "renter", "host", "review").prefetch_related(
        "extensions"
    )


def awaiting_payment_q() -> Q:
    """Pay-now requests with something to pay whose payment is not held yet: the host cannot approve
    them, they are not counted as pending, and the renter can pay them from the booking
    (``policies.booking_awaiting_payment`` for one booking)."""
    return Q(status=BookingStatus.PENDING, payment_preference="payNow", total_amount__gt=0) & ~Q(
        payment_state__in=PAYMENT_HELD_STATES
    )


def unpaid_requests_replaced_by(*, renter, listing_id, space_key, hold) -> QuerySet[Booking]:
    """The renter's own pending requests on this listing whose payment is not held and that hold
    time overlapping ``hold`` on the same space (``space_key``: the offering, else the listing): an
    abandoned checkout. A new request of the same renter for that space and time replaces them
    (``booking_request``) and the quote does not count them as taken; a request for another
    offering at the same time (a meeting room beside a desk) is a booking of its own."""
    if renter is None or not getattr(renter, "is_authenticated", False):
        return Booking.objects.none()
    return (
        Booking.objects.filter(status=BookingStatus.PENDING, renter=renter, listing_id=listing_id)
        .exclude(payment_state__in=PAYMENT_HELD_STATES)
        .filter(
            pk__in=Occupancy.objects.filter(active=True, space_key=space_key, hold__overlap=hold).values("booking_id")
        )
        .order_by("created_at")
    )


def bookings_visible_to(user) -> QuerySet[Booking]:
    """Renter: own; host and subHost: their listings'; admin and moderator: all; anyone else: none."""
    qs = _base()
    if user.role in (Role.ADMIN, Role.MODERATOR):
        return qs
    if user.role in (Role.HOST, Role.SUB_HOST):
        return qs.filter(listing__host_id=user.acting_host_id)
    if user.role == Role.RENTER:
        return qs.filter(renter=user)
    return qs.none()


def booking_get_for(*, user, id) -> Booking:
    # get(), not first(): one row by its key needs no ORDER BY over the detail's wide SELECT.
    try:
        if is_uuid(id):
            return bookings_visible_to(user).get(pk=id)
    except Booking.DoesNotExist:
        pass
    raise NotFound("Booking not found.")


def booking_just_created(booking: Booking) -> Booking:
    """A booking this request created, shaped as ``booking_get_for`` returns it without reading it
    again: its listing, offering and people are the objects it was made from, it has no payment
    and no extension yet."""
    prefetched(booking)["extensions"] = booking.extensions.none()
    return booking


def apply_filters(qs: QuerySet[Booking], filters: dict[str, str]) -> QuerySet[Booking]:
    return filter_status_period_search(qs, filters, statuses=BookingStatus.values, search_fields=PEOPLE_AND_LISTING)


def booking_list_for(*, user, filters: dict[str, str]) -> QuerySet[Booking]:
    return apply_filters(bookings_visible_to(user), filters).order_by("-created_at", "-id")


def booking_requests_for(*, user, filters: dict[str, str]) -> QuerySet[Booking]:
    """What waits for the host's answer: pending requests, and bookings with a pending extension
    request (before, only the bell found those)."""
    waiting_extension = ExtendBooking.objects.filter(status=ExtensionStatus.PENDING).values("booking_id")
    qs = bookings_visible_to(user).filter(Q(status=BookingStatus.PENDING) | Q(pk__in=waiting_extension))
    filters = {k: v for k, v in filters.items() if k != "status"}
    return apply_filters(qs, filters).order_by("-created_at", "-id")


def pending_bookings(user) -> QuerySet[Booking] | None:
    """The host side's requests waiting for an answer (the menu's pendingBookings); None for others."""
    if user.role not in (Role.HOST, Role.SUB_HOST):
        return None
    return Booking.objects.filter(listing__host_id=user.acting_host_id, status=BookingStatus.PENDING).exclude(
        awaiting_payment_q()
    )


def bookings_between(*, user, first: dt.date, last: dt.date, listing_id=None) -> QuerySet[Booking]:
    """The user's visible bookings (not rejected or expired) that overlap the dates ``first`` to ``last``."""
    queryset = bookings_visible_to(user).filter(check_in_date__lte=last, check_out_date__gte=first)
    if listing_id is not None:
        queryset = queryset.filter(listing_id=listing_id)
    return queryset.exclude(status__in=[BookingStatus.REJECTED, BookingStatus.EXPIRED]).order_by("check_in", "id")


def blocked_dates_between(*, user, first: dt.date, last: dt.date, listing_id=None) -> list[dict]:
    """Host and subHost: the blocked dates of their listings from ``first`` to ``last``; others none."""

    if user.role not in (Role.HOST, Role.SUB_HOST) or user.acting_host_id is None:
        return []
    listings = Listing.objects.filter(host_id=user.acting_host_id, is_deleted=False).exclude(blocked_dates=[])
    if listing_id is not None:
        listings = listings.filter(pk=listing_id)
    rows = []
    for listing_pk, title, dates in listings.values_list("pk", "title", "blocked_dates"):
        rows.extend(
            {"listingId": str(listing_pk), "title": title, "date": day.isoformat()}
            for day in sorted(dates)
            if first <= day <= last
        )
    return sorted(rows, key=lambda row: (row["date"], row["title"]))


def listing_bookings_summary(*, user, listing_id) -> dict:
    """A listing's bookings by status and the next ones to come, for its owner and staff."""
    from django.db.models import Count

    listings = Listing.objects.filter(pk=listing_id)
    if user.role not in (Role.ADMIN, Role.MODERATOR):
        listings = listings.filter(host_id=user.acting_host_id, is_deleted=False) if user.acting_host_id else None
    if listings is None or not listings.exists():
        raise NotFound("Listing not found.")
    counts = dict(
        Booking.objects.filter(listing_id=listing_id).values_list("status").annotate(n=Count("id")).order_by()
    )
    upcoming = list(
        _base()
        .filter(pk__in=listing_upcoming_bookings(listing_id=listing_id).values("pk"))
        .order_by("check_in", "id")[:5]
    )
    return {"counts": counts, "total": sum(counts.values()), "upcoming": upcoming}


def booking_charged_check_out(booking: Booking) -> dt.datetime:
    """The check-out the renter has paid for: the booked end, moved by approved and paid extensions
    only (``check_out`` also counts an approved extension that is not paid yet)."""
    ends = [booking.period.upper]
    ends += [e.period.upper for e in booking.extensions.all() if e.status == "approved" and e.paid]
    return max(ends)


def listing_upcoming_bookings(*, listing_id, now: dt.datetime | None = None) -> QuerySet[Booking]:
    """Bookings of a listing that are still to come or going on: pending, approved or ongoing and
    not yet checked out. A listing with any of them cannot be deleted or deactivated."""
    now = now or timezone.now()
    return Booking.objects.filter(listing_id=listing_id, status__in=UPCOMING_STATUSES, check_out__gt=now)


# --- Imported calendars: the one rule for the time they block ------------------------------------


def calendar_blocks_overlapping(*, listing_id, start: dt.datetime, end: dt.datetime) -> QuerySet[ExternalBlock]:
    """Imported events (``ExternalBlock``) of the listing's calendars over [start, end).

    An imported event takes the whole listing (every offering, every seat) for its own time, as a
    held booking of a space booked whole does; the booking side's buffer still applies after our
    own bookings (their held time), not after the other calendar's events. Every availability
    answer reads this: the booking request and extensions (``services.occupancy_hold``), the
    quote's ``available``, the availability calendar and the search with dates."""

    return ExternalBlock.objects.filter(listing_id=listing_id, period__overlap=DateTimeTZRange(start, end, "[)"))


def calendar_blocked(*, listing_id, start: dt.datetime, end: dt.datetime) -> bool:
    return calendar_blocks_overlapping(listing_id=listing_id, start=start, end=end).exists()


def calendar_blocks_between(*, user, first: dt.date, last: dt.date, listing_id=None) -> list[dict]:
    """Host and subHost: their listings' imported events touching ``first`` to ``last`` (each in its
    listing's zone), with the calendar they came from; others none."""
    if user.role not in (Role.HOST, Role.SUB_HOST) or user.acting_host_id is None:
        return []
    lower = dt.datetime.combine(first - dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC)
    upper = dt.datetime.combine(last + dt.timedelta(days=2), dt.time(0), tzinfo=dt.UTC)

    blocks = (
        ExternalBlock.objects.filter(
            listing__host_id=user.acting_host_id,
            listing__is_deleted=False,
            period__overlap=DateTimeTZRange(lower, upper, "[)"),
        )
        .select_related("calendar", "listing")
        .order_by("period", "id")
    )
    if listing_id is not None:
        blocks = blocks.filter(listing_id=listing_id)
    return [
        {
            "_id": str(block.pk),
            "listingId": str(block.listing_id),
            "title": block.listing.title,
            "calendarId": str(block.calendar_id),
            "calendarName": block.calendar.name,
            "summary": block.summary,
            "start": block.period.lower,
            "end": block.period.upper,
            "timeZone": block.listing.time_zone,
        }
        for block in blocks[:500]
    ]


# The listings with no room left on some local days, each listing's days read in its own time
# zone: held time is found through the GiST indexes on a UTC range a day wider on each side (every
# offset is within it) and kept when it meets the listing's local days. Event spaces with any time
# held; office spaces whose every offering's seats are taken (only the offerings of listings holding
# time are counted); any listing an imported calendar blocks.
FULLY_BOOKED_SQL = """
WITH held AS NOT MATERIALIZED (
    SELECT o.listing_id, o.space_key, o.seats, l.property_type
    FROM bookings_occupancy o
    JOIN listings_listing l ON l.id = o.listing_id
    WHERE o.active
      AND o.hold && tstzrange(%(near_lower)s, %(near_upper)s, '[)')
      AND o.hold && tstzrange(%(first)s::timestamp AT TIME ZONE l.time_zone,
                              %(after)s::timestamp AT TIME ZONE l.time_zone, '[)')
)
SELECT listing_id FROM held WHERE property_type = %(event_space)s
UNION
SELECT l.id FROM listings_listing l
WHERE l.property_type = %(office_space)s
  AND l.id IN (SELECT listing_id FROM held WHERE property_type = %(office_space)s)
  AND NOT EXISTS (
      SELECT 1 FROM listings_spaceoffering s
      WHERE s.listing_id = l.id
        AND COALESCE((SELECT SUM(h.seats) FROM held h WHERE h.space_key = s.id), 0) < s.seats
  )
UNION
SELECT b.listing_id
FROM bookings_externalblock b
JOIN listings_listing l ON l.id = b.listing_id
WHERE b.period && tstzrange(%(near_lower)s, %(near_upper)s, '[)')
  AND b.period && tstzrange(%(first)s::timestamp AT TIME ZONE l.time_zone,
                            %(after)s::timestamp AT TIME ZONE l.time_zone, '[)')
"""


def listings_fully_booked_on(first: dt.date, last: dt.date) -> list:
    """Ids of listings with no room left on the days ``first`` to ``last``, each day read in the
    listing's own time zone (a Mumbai space's 1 June is Mumbai's): for the public search to exclude.

    An event space is booked whole, so any time held (a pending, approved, ongoing, completed or
    disputed booking, or an extension) over part of the days takes it out. An office space is
    taken out only when every offering is full: the seats (units, for rooms and cabins) held over
    the days add up to the offering's seats, counted the way the availability calendar counts a
    day. An imported calendar's event takes any listing out.

    One statement (``FULLY_BOOKED_SQL``), written out: asked once per time zone, a dated search ran
    about 30 queries; built by the ORM, compiling it cost more than running it (5 ms against 1).
    Counting only the offerings of listings holding time matters: asked the other way round,
    PostgreSQL hashed the free seats of every offering of the site (0.5 s at 100,000 listings).
    """
    from django.db import connection

    after = last + dt.timedelta(days=1)
    params = {
        "near_lower": dt.datetime.combine(first - dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC),
        "near_upper": dt.datetime.combine(after + dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC),
        "first": first,
        "after": after,
        "event_space": PropertyType.EVENT_SPACE,
        "office_space": PropertyType.OFFICE_SPACE,
    }
    with connection.cursor() as cursor:
        cursor.execute(FULLY_BOOKED_SQL, params)
        return sorted(row[0] for row in cursor.fetchall())


# The local days each held time of a listing touches, with the seats held per day and space, and
# whether the booking behind it is firm (not pending): one row per day, firmness and space; and the
# days an imported calendar blocks, with no space.
AVAILABILITY_DAYS_SQL = """
SELECT held.day::date, held.firm, held.space_key, SUM(held.seats)::int
FROM (
    SELECT b.status <> 'pending' AS firm, o.space_key, o.seats,
           generate_series(
               GREATEST((lower(o.hold) AT TIME ZONE %(tz)s)::date, %(first)s::date),
               LEAST(((upper(o.hold) - interval '1 microsecond') AT TIME ZONE %(tz)s)::date, %(last)s::date),
               interval '1 day'
           ) AS day
    FROM bookings_occupancy o
    JOIN bookings_booking b ON b.id = o.booking_id
    WHERE o.listing_id = %(listing)s AND o.active AND o.hold && tstzrange(%(lower)s, %(upper)s, '[)')
) held
GROUP BY 1, 2, 3
UNION ALL
-- The local days the imported calendars' events touch (no space: the whole listing is taken).
SELECT DISTINCT generate_series(
    GREATEST((lower(b.period) AT TIME ZONE %(tz)s)::date, %(first)s::date),
    LEAST(((upper(b.period) - interval '1 microsecond') AT TIME ZONE %(tz)s)::date, %(last)s::date),
    interval '1 day'
)::date, true, NULL::uuid, NULL::int
FROM bookings_externalblock b
WHERE b.listing_id = %(listing)s AND b.period && tstzrange(%(lower)s, %(upper)s, '[)')
"""


def _availability_params(listing_id, tz, start: dt.date, end: dt.date) -> dict:
    return {
        "tz": getattr(tz, "key", None) or str(tz),
        "first": start,
        "last": end - dt.timedelta(days=1),
        "listing": listing_id,
        "lower": dt.datetime.combine(start, dt.time(0), tzinfo=tz),
        "upper": dt.datetime.combine(end, dt.time(0), tzinfo=tz),
    }


def listing_availability(*, listing, tz, start: dt.date, days: int) -> dict:
    """occupiedDates, pendingDates and availableDates (yyyy-MM-dd in ``tz``) from ``start`` for ``days``.

    A date is occupied when a booking that holds its time (approved, ongoing, completed, disputed)
    or an imported calendar's event covers part of it; for an office space, when every offering is fully taken that day (seats
    are added up over the day, so a desk booked in the morning and another in the afternoon count
    as two). A date only pending requests touch is pending. Available dates are open, not
    blocked, not occupied and not pending.
    """
    from django.db import connection

    from .times import opening_for

    end = start + dt.timedelta(days=days)
    is_event = listing.property_type == PropertyType.EVENT_SPACE
    capacity = {} if is_event else {o.pk: o.seats for o in listing.space_offerings.all()}
    firm: dict[dt.date, dict] = {}
    pending: set[dt.date] = set()
    occupied: set[dt.date] = set()
    with connection.cursor() as cursor:
        cursor.execute(AVAILABILITY_DAYS_SQL, _availability_params(listing.pk, tz, start, end))
        for day, is_firm, space_key, seats in cursor.fetchall():
            if space_key is None:
                occupied.add(day)
            elif is_firm:
                firm.setdefault(day, {})[space_key] = seats
            else:
                pending.add(day)
    for day, per_space in firm.items():
        if is_event or (capacity and all(per_space.get(key, 0) >= cap for key, cap in capacity.items())):
            occupied.add(day)
    blocked = set(listing.blocked_dates or [])
    # The host's notice and booking window: days no booking may start on are not offered.
    now = timezone.now().astimezone(tz)
    first_day = (now + dt.timedelta(hours=listing.minimum_notice_hours or 0)).date()
    last_day = now.date() + dt.timedelta(days=listing.booking_window_days or 366 * 2)
    # Opening hours are per weekday: read them once for each, not once a day.
    week = [start + dt.timedelta(days=n) for n in range(7)]
    open_on = {day.weekday(): opening_for(listing.opening_hours, day) is not None for day in week}
    available = []
    day = start
    while day < end:
        if (
            first_day <= day <= last_day
            and day not in occupied
            and day not in pending
            and day not in blocked
            and open_on[day.weekday()]
        ):
            available.append(day)
        day += dt.timedelta(days=1)
    return {
        "occupiedDates": [d.isoformat() for d in sorted(occupied)],
        "pendingDates": [d.isoformat() for d in sorted(pending - occupied)],
        "availableDates": [d.isoformat() for d in available],
        "blockedDates": [d.isoformat() for d in sorted(blocked) if start <= d < end],
        "bookableFrom": first_day.isoformat(),
        "bookableUntil": last_day.isoformat(),
    }
