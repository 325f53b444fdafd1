"""Holding a space's time: the occupancy rows that the exclusion constraint and the seat count guard."""

import datetime as dt
from contextlib import nullcontext

from django.db import IntegrityError, OperationalError, transaction
from django.db.backends.postgresql.psycopg_any import DateTimeTZRange

from apps.core.exceptions import Conflict
from apps.listings.models import SpaceOffering

from ..models import Booking, ExtendBooking, Occupancy
from ..selectors import calendar_blocked, unpaid_requests_replaced_by

SLOT_CONFLICT = "This time is no longer available. Someone else booked it; please choose another time."
SEATS_CONFLICT = "Not enough seats are free at this time. Please choose fewer seats or another time."
CALENDAR_CONFLICT = "This time is blocked by the host's calendar. Please choose another time."


def _is_exclusion_violation(exc: IntegrityError) -> bool:
    return getattr(exc.__cause__, "sqlstate", None) == "23P01"


def listing_time_lock(listing_id, *, shared: bool) -> None:
    """A lock on the listing's time until the transaction ends. Bookings take it shared (they never
    wait for each other); a calendar import takes it alone, so it sees every booking that checked
    the imported blocks before it, and every booking after it sees its blocks."""
    from django.db import connection

    function = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {function}(hashtextextended(%s, 0))", [f"listing-time:{listing_id}"])


def hold_range(start: dt.datetime, end: dt.datetime, buffer_minutes: int) -> DateTimeTZRange:
    return DateTimeTZRange(start, end + dt.timedelta(minutes=buffer_minutes), "[)")


def seats_taken(*, space_key, start: dt.datetime, end: dt.datetime, exclude_booking=None) -> int:
    """The most seats held at any moment of [start, end) on a seated space."""
    rows = Occupancy.objects.filter(space_key=space_key, active=True, hold__overlap=DateTimeTZRange(start, end, "[)"))
    if isinstance(exclude_booking, (list, tuple, set)):
        rows = rows.exclude(booking_id__in=exclude_booking)
    elif exclude_booking is not None:
        rows = rows.exclude(booking_id=exclude_booking)
    points: list[tuple[dt.datetime, int]] = []
    for hold, seats in rows.values_list("hold", "seats"):
        points.append((max(hold.lower, start), seats))
        points.append((min(hold.upper, end), -seats))
    peak = current = 0
    for _, delta in sorted(points, key=lambda p: (p[0], p[1])):
        current += delta
        peak = max(peak, current)
    return peak


def occupancy_hold(
    *,
    booking: Booking,
    extension: ExtendBooking | None = None,
    start: dt.datetime,
    end: dt.datetime,
    exclusive: bool,
    units: int,
    seats: int,
    unit: int | None = None,
) -> Occupancy:
    """Hold [start, end) plus the listing's buffer for ``booking``, or raise Conflict (409).

    Time an imported calendar blocks is refused first (``selectors.calendar_blocked``).

    Exclusive spaces: insert and let the exclusion constraint decide (it waits for a concurrent
    insert of the same slot to commit, then refuses it); with several units, the next free unit is
    tried. Seats: lock the offering row so seat counts are taken one transaction at a time.
    """
    listing = booking.listing
    hold = hold_range(start, end, listing.buffer_minutes)
    listing_time_lock(booking.listing_id, shared=True)
    if calendar_blocked(listing_id=booking.listing_id, start=hold.lower, end=hold.upper):
        raise Conflict(CALENDAR_CONFLICT)
    space_key = booking.offering_id or booking.listing_id
    values = {
        "booking": booking,
        "extension": extension,
        "listing_id": booking.listing_id,
        "space_key": space_key,
        "seats": seats,
        "exclusive": exclusive,
        "hold": hold,
    }
    if not exclusive:
        SpaceOffering.objects.select_for_update().filter(pk=booking.offering_id).first()
        taken = seats_taken(space_key=space_key, start=hold.lower, end=hold.upper, exclude_booking=booking.pk)
        if taken + seats > units:
            raise Conflict(SEATS_CONFLICT)
        return Occupancy.objects.create(unit=0, **values)

    candidates = [unit] if unit is not None else list(range(units))
    if len(candidates) > 1:  # several units: skip the taken ones instead of trying each
        busy = set(
            Occupancy.objects.filter(space_key=space_key, active=True, exclusive=True, hold__overlap=hold)
            .exclude(booking_id=booking.pk)
            .values_list("unit", flat=True)
        )
        candidates = [candidate for candidate in candidates if candidate not in busy]
    for candidate in candidates:
        # The exclusion constraint decides. A refused insert aborts the transaction, so each try but
        # the last is in a savepoint; after the last, the Conflict rolls the whole request back.
        last = candidate == candidates[-1]
        try:
            with nullcontext() if last else transaction.atomic():
                return Occupancy.objects.create(unit=candidate, **values)
        except IntegrityError as exc:
            if not _is_exclusion_violation(exc):
                raise
        except OperationalError as exc:
            # Two inserts of the same slot each waited for the other and PostgreSQL cancelled this
            # one (deadlock): the other request holds the slot, so this one is a conflict too.
            if getattr(exc.__cause__, "sqlstate", None) != "40P01":
                raise
    raise Conflict(SLOT_CONFLICT)


def plan_time_free(plan, *, renter=None) -> bool:
    """Whether a quoted plan's time is free, not counting the renter's own abandoned checkout for it (a new
    request replaces that one: ``selectors.unpaid_requests_replaced_by``)."""
    hold = hold_range(plan.start, plan.end, plan.listing.buffer_minutes)
    if calendar_blocked(listing_id=plan.listing.pk, start=hold.lower, end=hold.upper):
        return False
    own = list(
        unpaid_requests_replaced_by(
            renter=renter, listing_id=plan.listing.pk, space_key=plan.space_key, hold=hold
        ).values_list("pk", flat=True)
    )
    if plan.exclusive:
        busy = Occupancy.objects.filter(space_key=plan.space_key, active=True, exclusive=True, hold__overlap=hold)
        return busy.exclude(booking_id__in=own).values("unit").distinct().count() < plan.units
    taken = seats_taken(space_key=plan.space_key, start=hold.lower, end=hold.upper, exclude_booking=own)
    return taken + plan.seats <= plan.units
