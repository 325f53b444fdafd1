"""Writes of the bookings app: requests, status changes, cancellations, extensions, reviews.

Every status change goes through ``_transition`` (row lock, allowed-transition check, event row,
occupancy release, side effects queued on commit). The payments app calls ``extension_mark_paid``
and reacts to status changes through ``apps.payments.services.booking_payment_status_changed``
when it defines it.
"""

import datetime as dt
import logging
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import IntegrityError, OperationalError, transaction
from django.db.backends.postgresql.psycopg_any import DateTimeTZRange
from django.utils import timezone

from apps.accounts.models import Role
from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotFound
from apps.core.statemachine import record
from apps.listings.models import AddOn, Listing, PropertyType, SpaceOffering
from apps.listings.policies import is_public
from apps.notifications.services import counters_changed, notify

from . import policies, pricing, reviews
from .models import (
    BOOKING_MACHINE,
    EXTENSION_MACHINE,
    Booking,
    BookingStatus,
    ExtendBooking,
    ExtensionStatus,
    Occupancy,
    Review,
)
from .signals import booking_status_changed, payment_status
from .times import (
    format_date,
    format_moment,
    format_time,
    local_datetime,
    opening_for,
    to_local,
    zone_abbreviation,
    zone_of,
)

logger = logging.getLogger(__name__)

REQUEST_TTL = dt.timedelta(hours=72)
SLOT_CONFLICT = "This time is no longer available. Someone else booked it; please choose another time."
SEATS_CONFLICT = "Not enough seats are free at this time. Please choose fewer seats or another time."
MAX_BOOKING_DAYS = 366
MAX_ADD_ONS = 50


def _invalid(field_name: str, message: str) -> InvalidInput:
    return InvalidInput(message, errors={field_name: [message]})


# --- Planning a booking (shared by quotes, requests and extensions) -------------------------------


@dataclass
class BookingPlan:
    listing: Listing
    offering: SpaceOffering | None
    check_in_date: dt.date
    check_out_date: dt.date
    start_time: dt.time
    end_time: dt.time
    start: dt.datetime
    end: dt.datetime
    guests: int
    seats: int
    add_ons: list[AddOn]
    quote: pricing.Quote
    warnings: list[str] = field(default_factory=list)

    @property
    def exclusive(self) -> bool:
        return self.offering is None or self.offering.is_exclusive

    @property
    def space_key(self):
        return self.offering.pk if self.offering is not None else self.listing.pk

    @property
    def units(self) -> int:
        """How many of the space can be booked at once: 1 for an event space, else the offering's seats."""
        return 1 if self.offering is None else self.offering.seats


def percentages_for(listing: Listing) -> pricing.Percentages:
    return pricing.Percentages(
        discount=listing.discount,
        processing_fee=listing.processing_fee,
        tax=listing.host.tax,
        commission=listing.commission_collection,
    )


def rates_for(listing: Listing, offering: SpaceOffering | None) -> dict:
    return listing.period_prices() if offering is None else offering.period_prices()


def _is_hourly(listing: Listing, offering: SpaceOffering | None) -> bool:
    return offering is None or offering.is_hourly


def bookable_listing(listing_id) -> Listing:
    listing = Listing.objects.select_related("host").filter(pk=listing_id).first()
    if listing is None or listing.is_deleted:
        raise NotFound("This space was not found.")
    if not is_public(listing):
        raise Conflict("This space is not open for booking right now.")
    return listing


def _check_opening(listing: Listing, day: dt.date, time: dt.time, field_name: str, *, closing: bool) -> None:
    hours = opening_for(listing.opening_hours, day)
    if hours is None:
        raise _invalid(field_name, f"The space is closed on {format_date(day)}.")
    opens, closes = hours
    if closing:
        ok = opens == dt.time(0) if time == dt.time(0) else opens < time and (closes is None or time <= closes)
    else:
        ok = time >= opens and (closes is None or time < closes)
    if not ok:
        close_text = format_time(closes) if closes else "midnight"
        tz = zone_of(listing)
        zone = zone_abbreviation(tz, dt.datetime.combine(day, dt.time(12), tzinfo=tz))
        raise _invalid(
            field_name,
            f"Choose a time within opening hours on {format_date(day)} ({format_time(opens)} to {close_text} {zone}).",
        )


def check_notice_and_window(listing: Listing, *, start: dt.datetime, now: dt.datetime) -> None:
    """The host's minimum notice before a booking starts, and how far ahead it may start."""
    notice = listing.minimum_notice_hours or 0
    if notice and start < now + dt.timedelta(hours=notice):
        hours = "hour" if notice == 1 else "hours"
        raise _invalid("startTime", f"This space needs {notice} {hours} of notice before a booking starts.")
    window = listing.booking_window_days or 0
    if window and to_local(start).date() > to_local(now).date() + dt.timedelta(days=window):
        raise _invalid("checkInDate", f"This space can be booked at most {window} days ahead.")


def booking_plan(
    *,
    listing: Listing,
    offering_id=None,
    check_in_date: dt.date,
    check_out_date: dt.date,
    start_time: dt.time,
    end_time: dt.time,
    guests: int | None = None,
    seats: int | None = None,
    add_on_ids=(),
    now: dt.datetime | None = None,
) -> BookingPlan:
    """Check a requested booking against the listing's rules and price it. No database writes."""
    now = now or timezone.now()
    offering = None
    if listing.property_type == PropertyType.OFFICE_SPACE:
        if not offering_id:
            raise _invalid("spaceOffering", "Choose which space you want to book.")
        offering = listing.space_offerings.filter(pk=offering_id).first()
        if offering is None:
            raise _invalid("spaceOffering", "This space offering is not part of the listing.")
    elif offering_id:
        raise _invalid("spaceOffering", "An event space is booked whole; do not choose an offering.")

    if check_out_date < check_in_date:
        raise _invalid("checkOutDate", "Check-out date must be on or after the check-in date.")
    if (check_out_date - check_in_date).days > MAX_BOOKING_DAYS:
        raise _invalid("checkOutDate", "A booking can last at most one year.")
    # Wall-clock times where the space is.
    tz = zone_of(listing)
    start = local_datetime(check_in_date, start_time, tz, "startTime")
    end = local_datetime(check_out_date, end_time, tz, "endTime")
    if end <= start:
        raise _invalid("endTime", "End time must be after the start time.")
    if start < now:
        raise _invalid("checkInDate", "You cannot book a time in the past.")
    check_notice_and_window(listing, start=start, now=now)

    blocked = sorted(d for d in (listing.blocked_dates or []) if check_in_date <= d <= check_out_date)
    if blocked:
        raise _invalid("checkInDate", f"The space is not available on {format_date(blocked[0])}.")
    _check_opening(listing, check_in_date, start_time, "startTime", closing=False)
    _check_opening(listing, check_out_date, end_time, "endTime", closing=True)

    # Minimum period and the duration priced.
    days = (check_out_date - check_in_date).days + 1
    if _is_hourly(listing, offering):
        hours = Decimal((end - start).total_seconds()) / Decimal(3600)
        minimum = listing.minimum_days if offering is None else offering.minimum_period
        if hours < minimum:
            raise _invalid("endTime", f"The minimum booking is {minimum} hour{'s' if minimum != 1 else ''}.")
    else:
        hours = Decimal(days * 24)
        minimum = offering.minimum_period
        if days < minimum:
            raise _invalid("checkOutDate", f"The minimum booking is {minimum} day{'s' if minimum != 1 else ''}.")

    # Capacity.
    guests = guests if guests is not None else 1
    if guests < 1:
        raise _invalid("guests", "Guests must be at least 1.")
    if offering is None:
        seats = 1
        if listing.guest and guests > listing.guest:
            raise _invalid("guests", f"This space holds at most {listing.guest} guests.")
    else:
        seats = seats if seats is not None else 1
        if seats < 1:
            raise _invalid("seats", "Seats must be at least 1.")
        if offering.is_exclusive and seats != 1:
            raise _invalid("seats", f"A {offering.title} is booked whole; book one at a time.")
        if seats > offering.seats:
            raise _invalid("seats", f"This space has {offering.seats} seats at most.")

    add_on_ids = list(dict.fromkeys(str(a) for a in add_on_ids or ()))
    if len(add_on_ids) > MAX_ADD_ONS:
        raise _invalid("servicesAndAddOns", "Too many services and add-ons.")
    add_ons = list(listing.add_ons.filter(pk__in=add_on_ids)) if add_on_ids else []
    if len(add_ons) != len(add_on_ids):
        raise _invalid("servicesAndAddOns", "A chosen service or add-on is not offered by this space.")

    try:
        quote = pricing.quote(
            hours=hours * (seats if offering is not None and not offering.is_exclusive else 1),
            rates=rates_for(listing, offering),
            percentages=percentages_for(listing),
            services=[pricing.Service(a.title, a.price) for a in add_ons],
            total_days=days,
        )
    except pricing.PricingError as exc:
        raise _invalid("spaceOffering", str(exc))
    return BookingPlan(
        listing=listing,
        offering=offering,
        check_in_date=check_in_date,
        check_out_date=check_out_date,
        start_time=start_time,
        end_time=end_time,
        start=start,
        end=end,
        guests=guests,
        seats=seats,
        add_ons=add_ons,
        quote=quote,
    )


# --- Holding time --------------------------------------------------------------------------------


def _is_exclusion_violation(exc: IntegrityError) -> bool:
    return getattr(exc.__cause__, "sqlstate", None) == "23P01"


def _hold_range(start: dt.datetime, end: dt.datetime, buffer_minutes: int) -> DateTimeTZRange:
    return DateTimeTZRange(start, end + dt.timedelta(minutes=buffer_minutes), "[)")


def seats_taken(*, space_key, start: dt.datetime, end: dt.datetime, exclude_booking=None) -> int:
    """The most seats held at any moment of [start, end) on a seated space."""
    rows = Occupancy.objects.filter(space_key=space_key, active=True, hold__overlap=DateTimeTZRange(start, end, "[)"))
    if exclude_booking is not None:
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

    Exclusive spaces: insert and let the exclusion constraint decide (it waits for a concurrent
    insert of the same slot to commit, then refuses it); with several units, the next free unit is
    tried. Seats: lock the offering row so seat counts are taken one transaction at a time.
    """
    listing = booking.listing
    hold = _hold_range(start, end, listing.buffer_minutes)
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
    busy = set(
        Occupancy.objects.filter(space_key=space_key, active=True, exclusive=True, hold__overlap=hold)
        .exclude(booking_id=booking.pk)
        .values_list("unit", flat=True)
    )
    for candidate in candidates:
        if candidate in busy:
            continue
        try:
            with transaction.atomic():
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


# --- Side effects ---------------------------------------------------------------------------------


def _notify(user, kind: str, content: str, booking: Booking) -> None:
    """Tell ``user`` through the notifications app (queued in this transaction, delivered by the worker)."""
    notify(user=user, kind=kind, content=content, link=f"/booking-detail/{booking.pk}")


def _counters_changed(booking: Booking) -> None:
    counters_changed(users=[booking.host_id])


_RENTER_MESSAGES = {
    BookingStatus.APPROVED: ("bookingApproved", "Your booking at {title} was approved."),
    BookingStatus.REJECTED: ("bookingRejected", "Your booking at {title} was rejected: {reason}"),
    BookingStatus.EXPIRED: ("bookingExpired", "Your booking request at {title} expired without an answer."),
}


def _announce(booking: Booking, to_status: str, actor, reason: str) -> None:
    title = booking.listing.title
    if to_status == BookingStatus.EXPIRED and reason == UNPAID_REASON:
        _notify(booking.renter, "bookingExpired", f"Your booking at {title} was released: {reason}", booking)
        _notify(booking.host, "bookingExpired", f"A booking at {title} was released: {reason}", booking)
        return
    if to_status in _RENTER_MESSAGES:
        kind, text = _RENTER_MESSAGES[to_status]
        _notify(booking.renter, kind, text.format(title=title, reason=reason), booking)
    if to_status == BookingStatus.EXPIRED and not _was_unpaid(booking):
        # A request never paid was never the host's to answer (nor shown to them as pending).
        _notify(booking.host, "bookingExpired", f"A booking request at {title} expired unanswered.", booking)
    if to_status == BookingStatus.CANCELLED:
        other = booking.host if actor is not None and actor.pk == booking.renter_id else booking.renter
        _notify(other, "bookingCancelled", f"The booking at {title} was cancelled. {reason}".strip(), booking)


# --- Status changes -------------------------------------------------------------------------------


def _locked(booking_id) -> Booking:
    booking = (
        Booking.objects.select_for_update(of=("self",))
        .select_related("listing", "listing__host", "renter", "host")
        .filter(pk=booking_id)
        .first()
    )
    if booking is None:
        raise NotFound("Booking not found.")
    return booking


def _transition(booking_id, to_status: str, *, actor=None, reason: str = "", **fields) -> Booking:
    """The one way a booking's status changes: lock, check the table, save with history, release
    the time, announce (the payments app queues its capture, release or refund in this transaction)."""
    booking = _locked(booking_id)
    from_status = booking.status
    BOOKING_MACHINE.transition(
        booking,
        to_status,
        actor=actor,
        reason=reason,
        message=(
            f"This booking is {booking.get_status_display().lower()}; it cannot be "
            f"{BookingStatus(to_status).label.lower()} now."
        ),
        **fields,
    )
    if to_status not in policies.HOLDING_STATUSES:
        Occupancy.objects.filter(booking=booking, active=True).update(active=False)
        for extension in booking.extensions.select_for_update().filter(status=ExtensionStatus.PENDING):
            EXTENSION_MACHINE.transition(
                extension,
                ExtensionStatus.REJECTED,
                reason="The booking ended.",
                reject_reason="The booking ended.",
                decided_at=timezone.now(),
            )
    _announce(booking, to_status, actor, reason)
    booking_status_changed.send(
        sender=Booking, booking=booking, from_status=from_status, to_status=to_status, actor=actor, reason=reason
    )
    if BookingStatus.PENDING in (from_status, to_status):
        _counters_changed(booking)
    return booking


def _enforce(refusal) -> None:
    """Raise the refusal a policy gave (``apps.bookings.policies``); nothing when allowed."""
    if refusal is not None:
        raise refusal


@transaction.atomic
def booking_request(
    *,
    renter,
    listing_id,
    offering_id=None,
    check_in_date: dt.date,
    check_out_date: dt.date,
    start_time: dt.time,
    end_time: dt.time,
    guests: int | None = None,
    seats: int | None = None,
    add_on_ids=(),
) -> Booking:
    """A renter asks to book; the time is held at once (pending holds it) or a 409 says it is taken."""
    if renter.role != Role.RENTER:
        raise Forbidden("Only renters can book spaces.")
    listing = bookable_listing(listing_id)
    if renter.pk == listing.host_id:
        raise Forbidden("You cannot book your own space.")
    plan = booking_plan(
        listing=listing,
        offering_id=offering_id,
        check_in_date=check_in_date,
        check_out_date=check_out_date,
        start_time=start_time,
        end_time=end_time,
        guests=guests,
        seats=seats,
        add_on_ids=add_on_ids,
    )
    now = timezone.now()
    q = plan.quote
    offering = plan.offering
    booking = Booking.objects.create(
        listing=listing,
        offering=offering,
        renter=renter,
        host=listing.host,
        period=DateTimeTZRange(plan.start, plan.end, "[)"),
        check_in=plan.start,
        check_out=plan.end,
        check_in_date=plan.check_in_date,
        check_out_date=plan.check_out_date,
        start_time=plan.start_time,
        end_time=plan.end_time,
        guests=plan.guests,
        seats=plan.seats,
        space_offering=_offering_snapshot(offering),
        services_and_add_ons=[{"_id": str(a.pk), "title": a.title, "price": str(a.price)} for a in plan.add_ons],
        payment_details=q.payment_details(),
        payment_preference=listing.payment_preference,
        subtotal=q.subtotal,
        discount=q.discount,
        convenience_fee=q.convenience_fee,
        tax=q.tax,
        price=q.price,
        total_amount=q.total,
        commission=q.commission,
        created_at=now,
        expires_at=min(now + REQUEST_TTL, plan.start),
    )
    hold = occupancy_hold(
        booking=booking,
        start=plan.start,
        end=plan.end,
        exclusive=plan.exclusive,
        units=plan.units,
        seats=plan.seats,
    )
    if hold.unit:
        Booking.objects.filter(pk=booking.pk).update(unit=hold.unit)
        booking.unit = hold.unit
    record(booking, machine=BOOKING_MACHINE.name, from_status="", to_status=BookingStatus.PENDING, actor=renter)
    if not policies.needs_online_payment(booking):
        _announce_request(booking)
    # A pay-now request reaches the host once its payment is held (``booking_request_paid``).
    return booking


def _was_unpaid(booking: Booking) -> bool:
    """A pay-now request whose payment was never held (its expiry is not the host's news)."""
    payment = getattr(booking, "payment", None)
    return policies.needs_online_payment(booking) and not policies.payment_held(payment.status if payment else None)


def _announce_request(booking: Booking) -> None:
    listing = booking.listing
    _notify(
        listing.host,
        "bookingRequested",
        f"New booking request at {listing.title} for {format_moment(booking.check_in, zone_of(listing))}.",
        booking,
    )
    _counters_changed(booking)


def booking_request_paid(*, booking_id) -> None:
    """For the payments app: the renter's payment for a pending pay-now request is now held, so the
    request is the host's to answer: tell the host and refresh the pending count."""
    booking = Booking.objects.select_related("listing", "listing__host").filter(pk=booking_id).first()
    if booking is not None and booking.status == BookingStatus.PENDING and policies.needs_online_payment(booking):
        _announce_request(booking)


def _offering_snapshot(offering: SpaceOffering | None) -> dict:
    if offering is None:
        return {}
    return {
        "_id": str(offering.pk),
        "kind": offering.kind,
        "title": offering.title,
        "hourly": str(offering.hourly) if offering.hourly is not None else None,
        "daily": str(offering.daily) if offering.daily is not None else None,
        "weekly": str(offering.weekly) if offering.weekly is not None else None,
        "monthly": str(offering.monthly) if offering.monthly is not None else None,
        "minimumPeriod": offering.minimum_period,
    }


def _payment_status(booking: Booking, *, lock: bool = False) -> str | None:
    """The status of the booking's payment (None: no payment yet); ``lock`` holds the payment row
    until the transaction ends, so a checkout confirming at the same moment waits."""
    return payment_status(booking_id=booking.pk, lock=lock)


@transaction.atomic
def booking_update_status(*, booking_id, actor, status: str, reason: str = "") -> tuple[Booking, str]:
    """Host or subHost approves or rejects a pending request. Returns the booking and a message."""
    booking = _locked(booking_id)
    _enforce(policies.answer_refusal(actor, booking))
    now = timezone.now()
    if status == BookingStatus.APPROVED:
        if policies.needs_online_payment(booking):
            _enforce(policies.approve_refusal(actor, booking, payment_status=_payment_status(booking, lock=True)))
        booking = _transition(booking.pk, BookingStatus.APPROVED, actor=actor, decided_at=now)
        if booking.check_in <= now:
            return booking, "Booking approved. Note: the booking date has already passed."
        return booking, "Booking approved successfully."
    if status == BookingStatus.REJECTED:
        reason = (reason or "").strip()
        if not reason:
            raise _invalid("reason", "Please give a reason for rejecting.")
        booking = _transition(
            booking.pk, BookingStatus.REJECTED, actor=actor, reason=reason, reject_reason=reason, decided_at=now
        )
        return booking, "Booking rejected successfully."
    raise _invalid("status", "Status must be approved or rejected.")


refund_amount_for = policies.refund_amount_for


@transaction.atomic
def booking_cancel_by_renter(*, booking_id, renter, reason: str = "") -> Booking:
    booking = _locked(booking_id)
    _enforce(policies.renter_cancel_refusal(renter, booking))
    refund = refund_amount_for(booking)
    return _transition(
        booking.pk,
        BookingStatus.CANCELLED,
        actor=renter,
        reason=(reason or "").strip(),
        cancellation_reason=(reason or "").strip(),
        cancelled_by=renter,
        refund_amount=refund,
    )


@transaction.atomic
def booking_cancel_by_host(*, booking_id, actor, reason: str) -> Booking:
    """The host or subHost cancels an approved booking (before it ends); the renter gets everything back."""
    booking = _locked(booking_id)
    refusal = policies.host_cancel_refusal(actor, booking)
    if isinstance(refusal, Forbidden):
        raise refusal
    reason = (reason or "").strip()
    if not reason:
        raise _invalid("reason", "Please give a reason for cancelling.")
    _enforce(refusal)
    return _transition(
        booking.pk,
        BookingStatus.CANCELLED,
        actor=actor,
        reason=reason,
        cancellation_reason=reason,
        cancelled_by=actor,
        refund_amount=booking.total_amount,
    )


@transaction.atomic
def booking_mark_disputed(*, booking_id, actor=None, reason: str = "") -> Booking:
    """For the disputes app: a dispute was raised on this booking."""
    return _transition(booking_id, BookingStatus.DISPUTED, actor=actor, reason=reason)


@transaction.atomic
def booking_resolve_dispute(*, booking_id, actor=None, refunded: bool, reason: str = "") -> Booking:
    """For the disputes app: back to completed (rejected dispute) or cancelled (refunded)."""
    target = BookingStatus.CANCELLED if refunded else BookingStatus.COMPLETED
    return _transition(booking_id, target, actor=actor, reason=reason)


# --- Time-driven changes (Celery beat) ------------------------------------------------------------


def _run_due(queryset, to_status: str) -> int:
    done = 0
    for booking_id in queryset.values_list("pk", flat=True)[:1000]:
        try:
            with transaction.atomic():
                booking = _locked(booking_id)
                if booking.can_change_to(to_status):
                    _transition(booking_id, to_status)
                    done += 1
        except Conflict:
            continue
    return done


@transaction.atomic
def booking_expire(*, booking_id) -> Booking:
    """An unanswered request expires (the payments hook releases its authorisation)."""
    return _transition(booking_id, BookingStatus.EXPIRED)


@transaction.atomic
def booking_expire_unpaid(*, booking_id) -> Booking:
    """For the payments app: an approved booking whose renter did not confirm the payment in time
    expires, and its time is free again."""
    booking = _locked(booking_id)
    if booking.status != BookingStatus.APPROVED:
        raise Conflict(f"This booking is {booking.status}; only an approved, unpaid booking can expire.")
    return _transition(booking_id, BookingStatus.EXPIRED, reason=UNPAID_REASON)


UNPAID_REASON = "The payment was not confirmed in time."


def bookings_expire_due(*, now: dt.datetime | None = None) -> int:
    """Unanswered requests expire 72 hours after the request or at check-in, whichever is first."""
    now = now or timezone.now()
    return _run_due(Booking.objects.filter(status=BookingStatus.PENDING, expires_at__lte=now), BookingStatus.EXPIRED)


def bookings_start_due(*, now: dt.datetime | None = None) -> int:
    now = now or timezone.now()
    return _run_due(
        Booking.objects.filter(status=BookingStatus.APPROVED, check_in__lte=now, check_out__gt=now),
        BookingStatus.ONGOING,
    )


def bookings_complete_due(*, now: dt.datetime | None = None) -> int:
    now = now or timezone.now()
    return _run_due(
        Booking.objects.filter(status__in=policies.ACTIVE_STATUSES, check_out__lte=now),
        BookingStatus.COMPLETED,
    )


# --- Extensions ------------------------------------------------------------------------------------


def _slot_ceil(moment: dt.datetime) -> dt.datetime:
    moment = moment.replace(second=0, microsecond=0) + (
        dt.timedelta(minutes=1) if moment.second or moment.microsecond else dt.timedelta()
    )
    extra = (-moment.minute) % 30
    return moment + dt.timedelta(minutes=extra)


def extension_plan(
    booking: Booking, *, hours: int = 0, days: int = 0, weeks: int = 0, months: int = 0
) -> tuple[dt.datetime, dt.datetime, Decimal, pricing.Quote, dict]:
    """The extra time after the current check-out, and its price (no discount; fee and tax added)."""
    for name, value in (
        ("additionalHours", hours),
        ("additionalDays", days),
        ("additionalWeeks", weeks),
        ("additionalMonths", months),
    ):
        if value < 0 or value > 1000:
            raise _invalid(name, "Enter a whole number from 0 to 1000.")
    extra_hours = (
        Decimal(hours) + Decimal(days) * 24 + Decimal(weeks) * 168 + Decimal(months) * pricing.PERIOD_HOURS["monthly"]
    )
    if extra_hours <= 0:
        raise _invalid("additionalHours", "Choose how long to extend by.")
    if extra_hours > 24 * MAX_BOOKING_DAYS:
        raise _invalid("additionalHours", "An extension can add at most one year.")
    start = booking.check_out
    end = _slot_ceil(start + dt.timedelta(seconds=float(extra_hours * 3600)))
    listing = booking.listing
    tz = zone_of(listing)
    local_start, local_end = to_local(start, tz).date(), to_local(end, tz).date()
    blocked = sorted(d for d in (listing.blocked_dates or []) if local_start <= d <= local_end)
    if blocked:
        raise _invalid("additionalDate", f"The space is not available on {format_date(blocked[0])}.")
    _check_opening(listing, local_end, to_local(end, tz).time(), "endTime", closing=True)
    offering = booking.offering
    seats_factor = booking.seats if offering is not None and not offering.is_exclusive else 1
    try:
        quote = pricing.quote(
            hours=extra_hours * seats_factor,
            rates=rates_for(listing, offering),
            percentages=pricing.Percentages(),
        )
    except pricing.PricingError as exc:
        raise _invalid("additionalHours", str(exc))
    amounts = pricing.extension_amounts(quote.prices_total, _booking_percentages(booking))
    return start, end, extra_hours, quote, amounts


def _booking_percentages(booking: Booking) -> pricing.Percentages:
    details = booking.payment_details or {}
    return pricing.Percentages(
        discount=Decimal(details.get("discountPercent", "0")),
        processing_fee=Decimal(details.get("processingFeePercent", "0")),
        tax=Decimal(details.get("taxPercent", "0")),
        commission=Decimal(details.get("commissionPercent", "0")),
    )


@transaction.atomic
def extension_request(*, booking_id, renter, hours: int = 0, days: int = 0, weeks: int = 0, months: int = 0):
    booking = _locked(booking_id)
    _enforce(policies.extend_refusal(renter, booking))
    start, end, _extra, quote, amounts = extension_plan(booking, hours=hours, days=days, weeks=weeks, months=months)
    tz = zone_of(booking.listing)
    extension = ExtendBooking.objects.create(
        booking=booking,
        additional_hours=hours,
        additional_days=days,
        additional_weeks=weeks,
        additional_months=months,
        original_amount=amounts["original"],
        additional_amount=amounts["total"],
        payment_details={
            "prices": [line.as_dict() for line in quote.lines],
            "originalAmount": str(amounts["original"]),
            "convenienceFee": str(amounts["fee"]),
            "tax": str(amounts["tax"]),
            "additionalAmount": str(amounts["total"]),
        },
        period=DateTimeTZRange(start, end, "[)"),
        additional_date=to_local(end, tz).date(),
        start_time=to_local(start, tz).time(),
        end_time=to_local(end, tz).time(),
    )
    offering = booking.offering
    occupancy_hold(
        booking=booking,
        extension=extension,
        start=start,
        end=end,
        exclusive=offering is None or offering.is_exclusive,
        units=1 if offering is None else offering.seats,
        seats=booking.seats,
        unit=booking.unit if (offering is None or offering.is_exclusive) else None,
    )
    record(extension, machine=EXTENSION_MACHINE.name, from_status="", to_status=ExtensionStatus.PENDING, actor=renter)
    _notify(
        booking.host,
        "extensionRequested",
        f"A renter asked to extend a booking at {booking.listing.title} until {format_moment(end, tz)}.",
        booking,
    )
    _counters_changed(booking)
    return extension


@transaction.atomic
def extension_update_status(*, booking_id, extension_id, actor, status: str, reason: str = "") -> ExtendBooking:
    """Host or subHost approves or rejects a pending extension (a rejection may have an empty reason)."""
    booking = _locked(booking_id)
    _enforce(policies.extension_answer_refusal(actor, booking))
    extension = ExtendBooking.objects.select_for_update().filter(pk=extension_id, booking=booking).first()
    if extension is None:
        raise NotFound("Extension request not found.")
    if status not in (ExtensionStatus.APPROVED, ExtensionStatus.REJECTED):
        raise _invalid("status", "Status must be approved or rejected.")
    _enforce(policies.extension_decide_refusal(actor, booking, extension, status))
    reject_reason = (reason or "").strip() if status == ExtensionStatus.REJECTED else ""
    EXTENSION_MACHINE.transition(
        extension, status, actor=actor, reason=reject_reason, reject_reason=reject_reason, decided_at=timezone.now()
    )
    if status == ExtensionStatus.REJECTED:
        Occupancy.objects.filter(extension=extension).update(active=False)
        _notify(
            booking.renter, "extensionRejected", f"Your extension at {booking.listing.title} was rejected.", booking
        )
    else:
        end = extension.period.upper
        if end > booking.check_out:
            booking.check_out = end
            tz = zone_of(booking.listing)
            booking.check_out_date = to_local(end, tz).date()
            booking.end_time = to_local(end, tz).time()
            booking.save(update_fields=["check_out", "check_out_date", "end_time", "updated_at"])
        _notify(
            booking.renter, "extensionApproved", f"Your extension at {booking.listing.title} was approved.", booking
        )
    _counters_changed(booking)
    return extension


def booking_recompute_totals(booking: Booking) -> Booking:
    """total = price + approved and paid extensions; commission on that total."""
    percentages = _booking_percentages(booking)
    extensions = [
        pricing.Extension(e.original_amount, approved=True, paid=True)
        for e in booking.extensions.filter(status=ExtensionStatus.APPROVED, paid=True)
    ]
    extensions_total = sum(
        (pricing.extension_amounts(e.original_amount, percentages)["total"] for e in extensions), pricing.ZERO
    )
    booking.total_amount = booking.price + extensions_total
    booking.commission = pricing.percent_of(booking.total_amount, percentages.commission)
    details = dict(booking.payment_details or {})
    details.update(
        extensionsTotal=str(extensions_total), total=str(booking.total_amount), commission=str(booking.commission)
    )
    booking.payment_details = details
    booking.save(update_fields=["total_amount", "commission", "payment_details", "updated_at"])
    return booking


@transaction.atomic
def extension_mark_paid(*, extension_id, paid_at: dt.datetime | None = None) -> ExtendBooking:
    """For the payments app: the renter paid an approved extension. Idempotent.

    From now on the extension counts toward the booking's total and commission.
    """
    extension = ExtendBooking.objects.select_for_update().select_related("booking").filter(pk=extension_id).first()
    if extension is None:
        raise NotFound("Extension request not found.")
    if extension.paid:
        return extension
    if extension.status != ExtensionStatus.APPROVED:
        raise Conflict("Only an approved extension can be paid.")
    extension.paid = True
    extension.paid_at = paid_at or timezone.now()
    extension.save(update_fields=["paid", "paid_at"])
    booking_recompute_totals(_locked(extension.booking_id))
    return extension


# --- Reviews ----------------------------------------------------------------------------------------


def listing_rating_refresh(listing_id) -> None:
    reviews.listing_rating_refresh(listing_id)


def review_add(
    *, renter, listing_id, booking_id, review: str = "", rating: int | None = None, remarks: str = ""
) -> Review:
    """The renter's review of the space; see ``reviews.review_add`` (both sides, double-blind)."""
    return reviews.review_add(
        user=renter, listing_id=listing_id, booking_id=booking_id, review=review, rating=rating, remarks=remarks
    )
