"""A booking's life: the request, the host's answer, disputes and the time-driven changes.

Every status change goes through ``booking_transition`` (row lock, allowed-transition check, history row,
occupancy release, notifications and the ``booking_status_changed`` signal, to which the payments
app answers with its capture, release or refund in the same transaction).
"""

import datetime as dt

from django.db import transaction
from django.db.backends.postgresql.psycopg_any import DateTimeTZRange
from django.utils import timezone

from apps.core.django_internals import prefetched_or_empty
from apps.core.effects import effects_batched
from apps.core.exceptions import Conflict, Forbidden, NotFound
from apps.core.filters import is_uuid
from apps.core.statemachine import history, history_starts, record
from apps.listings.models import SpaceOffering
from apps.notifications.services import counters_changed, notify

from .. import policies
from ..models import (
    BOOKING_MACHINE,
    EXTENSION_MACHINE,
    Booking,
    BookingStatus,
    ExtensionStatus,
    Occupancy,
)
from ..selectors import bookings_visible_to, unpaid_requests_replaced_by
from ..signals import booking_status_changed
from ..times import format_moment, zone_of
from .availability import hold_range, occupancy_hold
from .planning import bookable_listing, booking_plan, field_invalid

REQUEST_TTL = dt.timedelta(hours=72)


# --- Side effects ---------------------------------------------------------------------------------


def booking_notify(user, kind: str, content: str, booking: Booking) -> None:
    """Tell ``user`` through the notifications app (queued in this transaction, delivered by the worker)."""
    notify(user=user, kind=kind, content=content, link=f"/booking-detail/{booking.pk}")


def host_counters_changed(booking: Booking) -> None:
    counters_changed(users=[booking.host_id])


_RENTER_MESSAGES = {
    BookingStatus.APPROVED: ("bookingApproved", "Your booking at {title} was approved."),
    BookingStatus.REJECTED: ("bookingRejected", "Your booking at {title} was rejected: {reason}"),
    BookingStatus.EXPIRED: ("bookingExpired", "Your booking request at {title} expired without an answer."),
}


def _announce(booking: Booking, to_status: str, actor, reason: str) -> None:
    title = booking.listing.title
    if to_status == BookingStatus.EXPIRED and reason == UNPAID_REASON:
        booking_notify(booking.renter, "bookingExpired", f"Your booking at {title} was released: {reason}", booking)
        booking_notify(booking.host, "bookingExpired", f"A booking at {title} was released: {reason}", booking)
        return
    if to_status == BookingStatus.EXPIRED and reason == REPLACED_REASON:
        return  # the renter replaced an unpaid request; nobody needs telling
    if to_status in _RENTER_MESSAGES:
        kind, text = _RENTER_MESSAGES[to_status]
        booking_notify(booking.renter, kind, text.format(title=title, reason=reason), booking)
    if to_status == BookingStatus.EXPIRED and not _was_unpaid(booking):
        # A request never paid was never the host's to answer (nor shown to them as pending).
        booking_notify(booking.host, "bookingExpired", f"A booking request at {title} expired unanswered.", booking)
    if to_status == BookingStatus.CANCELLED:
        other = booking.host if actor is not None and actor.pk == booking.renter_id else booking.renter
        booking_notify(other, "bookingCancelled", f"The booking at {title} was cancelled. {reason}".strip(), booking)


# --- Status changes -------------------------------------------------------------------------------


def booking_locked(booking_id, *, visible_to=None) -> Booking:
    """The booking, locked until the transaction ends. ``visible_to``: only among the bookings that
    user may see (404 otherwise), read with everything its detail response shows, in one query
    (and one for its extensions)."""
    if visible_to is not None:
        queryset = bookings_visible_to(visible_to) if is_uuid(booking_id) else Booking.objects.none()
    else:
        queryset = Booking.objects.select_related("listing", "listing__host", "renter", "host")
    # get(), not first(): one row by its key needs no ORDER BY, which Django would otherwise
    # compare with each of the wide SELECT's columns (a few ms of Python per call).
    try:
        return queryset.select_for_update(of=("self",)).get(pk=booking_id)
    except Booking.DoesNotExist:
        raise NotFound("Booking not found.") from None


def booking_transition(booking: Booking | str, to_status: str, *, actor=None, reason: str = "", **fields) -> Booking:
    """The one way a booking's status changes: lock (unless given the booking this transaction
    locked), check the table, save with history, release the time, announce (the payments app
    queues its capture, release or refund in this transaction). The effects it queues are written
    in one statement."""
    if not isinstance(booking, Booking):
        booking = booking_locked(booking)
    with effects_batched():
        return _change(booking, to_status, actor=actor, reason=reason, **fields)


def _change(booking: Booking, to_status: str, *, actor, reason: str, **fields) -> Booking:
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
        prefetched_or_empty(booking).pop("extensions", None)  # read again when shown
    _announce(booking, to_status, actor, reason)
    booking_status_changed.send(
        sender=Booking, booking=booking, from_status=from_status, to_status=to_status, actor=actor, reason=reason
    )
    if BookingStatus.PENDING in (from_status, to_status):
        host_counters_changed(booking)
    return booking


def enforce(refusal) -> None:
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
    refusal = policies.book_refusal(renter)
    if refusal:
        raise refusal
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
    _release_abandoned_checkouts(
        renter=renter, listing=listing, space_key=plan.space_key, start=plan.start, end=plan.end
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
        discount_percent=q.percentages.discount,
        processing_fee_percent=q.percentages.processing_fee,
        tax_percent=q.percentages.tax,
        commission_percent=q.percentages.commission,
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
    history_starts(booking)
    record(booking, machine=BOOKING_MACHINE.name, from_status="", to_status=BookingStatus.PENDING, actor=renter)
    if not policies.needs_online_payment(booking):
        with effects_batched():
            _announce_request(booking)
    # A pay-now request reaches the host once its payment is held (``booking_request_paid``).
    return booking


REPLACED_REASON = "Replaced by a newer request of the renter for the same time."


def _release_abandoned_checkouts(*, renter, listing, space_key, start: dt.datetime, end: dt.datetime) -> None:
    """The renter's own pending requests for an overlapping time on this listing whose payment is
    not held (a checkout left before paying) make way, so that asking again is not refused as
    "taken" by the renter's own hold: a pay-now request the host never saw expires silently, a
    pay-later request the host was told about is cancelled (the host is told why). Nobody else's
    booking and no paid request is touched (docs/decisions/bookings/asking-again-replaces-the-renter-s-own-unpaid-request.md)."""
    hold = hold_range(start, end, listing.buffer_minutes)
    replaced = unpaid_requests_replaced_by(renter=renter, listing_id=listing.pk, space_key=space_key, hold=hold)
    for booking_id in replaced.values_list("pk", flat=True):
        booking = booking_locked(booking_id)
        if booking.status != BookingStatus.PENDING:
            continue
        silent = policies.needs_online_payment(booking)
        to_status = BookingStatus.EXPIRED if silent else BookingStatus.CANCELLED
        booking_transition(booking, to_status, actor=renter, reason=REPLACED_REASON)


def _was_unpaid(booking: Booking) -> bool:
    """A pay-now request whose payment was never held (its expiry is not the host's news)."""
    return policies.needs_online_payment(booking) and not policies.payment_held(booking)


def _announce_request(booking: Booking) -> None:
    listing = booking.listing
    booking_notify(
        listing.host,
        "bookingRequested",
        f"New booking request at {listing.title} for {format_moment(booking.check_in, zone_of(listing))}.",
        booking,
    )
    host_counters_changed(booking)


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


@transaction.atomic
def booking_update_status(*, booking_id, actor, status: str, reason: str = "") -> tuple[Booking, str]:
    """Host or subHost approves or rejects a pending request. Returns the booking (as its detail
    response shows it) and a message. A booking the actor may not see is not found."""
    booking = booking_locked(booking_id, visible_to=actor)
    enforce(policies.answer_refusal(actor, booking))
    now = timezone.now()
    if status == BookingStatus.APPROVED:
        if policies.needs_online_payment(booking):
            # The booking row is locked: a checkout confirming at the same moment records its payment after.
            enforce(policies.approve_refusal(actor, booking))
        booking = booking_transition(booking, BookingStatus.APPROVED, actor=actor, decided_at=now)
        if booking.check_in <= now:
            return booking, "Booking approved. Note: the booking date has already passed."
        return booking, "Booking approved successfully."
    if status == BookingStatus.REJECTED:
        reason = (reason or "").strip()
        if not reason:
            raise field_invalid("reason", "Please give a reason for rejecting.")
        booking = booking_transition(
            booking, BookingStatus.REJECTED, actor=actor, reason=reason, reject_reason=reason, decided_at=now
        )
        return booking, "Booking rejected successfully."
    raise field_invalid("status", "Status must be approved or rejected.")


@transaction.atomic
def booking_mark_disputed(*, booking_id, actor=None, reason: str = "") -> Booking:
    """For the disputes app: a dispute was raised on this booking."""
    return booking_transition(booking_id, BookingStatus.DISPUTED, actor=actor, reason=reason)


@transaction.atomic
def booking_resolve_dispute(
    *, booking_id, actor=None, refunded: bool, reason: str = "", settled: bool = False
) -> Booking:
    """For the disputes app: cancelled when everything was refunded; otherwise (a rejected dispute or
    a partial refund) back to the status the dispute interrupted: a future booking is approved
    again (not "completed" before it took place), one under way ongoing, one over completed; the
    scheduler moves it on from there. ``settled`` (the dispute was approved with a refund): the
    booking is not disputed again; after a rejection a new dispute with better evidence may follow."""
    booking = booking_locked(booking_id)
    if refunded:
        target = BookingStatus.CANCELLED
    else:
        before = [c.from_status for c in history(booking) if c.to_status == BookingStatus.DISPUTED]
        target = before[-1] if before and before[-1] in policies.DISPUTABLE_STATUSES else BookingStatus.COMPLETED
    fields = {"dispute_settled_at": timezone.now()} if settled else {}
    return booking_transition(booking, target, actor=actor, reason=reason, **fields)


# --- Time-driven changes (Celery beat) ------------------------------------------------------------


def _run_due(queryset, to_status: str) -> int:
    done = 0
    for booking_id in queryset.values_list("pk", flat=True)[:1000]:
        try:
            with transaction.atomic():
                booking = booking_locked(booking_id)
                if booking.can_change_to(to_status):
                    booking_transition(booking, to_status)
                    done += 1
        except Conflict:
            continue
    return done


@transaction.atomic
def booking_expire(*, booking_id) -> Booking:
    """An unanswered request expires (the payments hook releases its authorisation)."""
    return booking_transition(booking_id, BookingStatus.EXPIRED)


@transaction.atomic
def booking_expire_unpaid(*, booking_id) -> Booking:
    """For the payments app: an approved booking whose renter did not confirm the payment in time
    expires, and its time is free again."""
    booking = booking_locked(booking_id)
    if booking.status != BookingStatus.APPROVED:
        raise Conflict(f"This booking is {booking.status}; only an approved, unpaid booking can expire.")
    return booking_transition(booking, BookingStatus.EXPIRED, reason=UNPAID_REASON)


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
