"""Extensions: the extra time after check-out, its price, the host's answer and its payment."""

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.db.backends.postgresql.psycopg_any import DateTimeTZRange
from django.utils import timezone

from apps.core.exceptions import Conflict, NotFound
from apps.core.statemachine import record

from .. import policies, pricing
from ..models import EXTENSION_MACHINE, Booking, ExtendBooking, ExtensionStatus, Occupancy
from ..times import format_date, format_moment, to_local, zone_of
from .availability import occupancy_hold
from .lifecycle import booking_locked, booking_notify, enforce, host_counters_changed
from .planning import MAX_BOOKING_DAYS, check_opening, field_invalid, rates_for


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
        ("additional_hours", hours),
        ("additional_days", days),
        ("additional_weeks", weeks),
        ("additional_months", months),
    ):
        if value < 0 or value > 1000:
            raise field_invalid(name, "Enter a whole number from 0 to 1000.")
    extra_hours = (
        Decimal(hours) + Decimal(days) * 24 + Decimal(weeks) * 168 + Decimal(months) * pricing.PERIOD_HOURS["monthly"]
    )
    if extra_hours <= 0:
        raise field_invalid("additional_hours", "Choose how long to extend by.")
    if extra_hours > 24 * MAX_BOOKING_DAYS:
        raise field_invalid("additional_hours", "An extension can add at most one year.")
    start = booking.check_out
    end = _slot_ceil(start + dt.timedelta(seconds=float(extra_hours * 3600)))
    listing = booking.listing
    tz = zone_of(listing)
    local_start, local_end = to_local(start, tz).date(), to_local(end, tz).date()
    blocked = sorted(d for d in (listing.blocked_dates or []) if local_start <= d <= local_end)
    if blocked:
        raise field_invalid("additional_date", f"The space is not available on {format_date(blocked[0])}.")
    check_opening(listing, local_end, to_local(end, tz).time(), "end_time", closing=True)
    offering = booking.offering
    seats_factor = booking.seats if offering is not None and not offering.is_exclusive else 1
    try:
        quote = pricing.quote(
            hours=extra_hours * seats_factor,
            rates=rates_for(listing, offering),
            percentages=pricing.Percentages(),
        )
    except pricing.PricingError as exc:
        raise field_invalid("additional_hours", str(exc))
    amounts = pricing.extension_amounts(quote.prices_total, _booking_percentages(booking))
    return start, end, extra_hours, quote, amounts


def _booking_percentages(booking: Booking) -> pricing.Percentages:
    return pricing.Percentages(
        discount=booking.discount_percent,
        processing_fee=booking.processing_fee_percent,
        tax=booking.tax_percent,
        commission=booking.commission_percent,
    )


@transaction.atomic
def extension_request(*, booking_id, renter, hours: int = 0, days: int = 0, weeks: int = 0, months: int = 0):
    booking = booking_locked(booking_id)
    enforce(policies.extend_refusal(renter, booking))
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
    booking_notify(
        booking.host,
        "extensionRequested",
        f"A renter asked to extend a booking at {booking.listing.title} until {format_moment(end, tz)}.",
        booking,
    )
    host_counters_changed(booking)
    return extension


@transaction.atomic
def extension_update_status(*, booking_id, extension_id, actor, status: str, reason: str = "") -> ExtendBooking:
    """Host or subHost approves or rejects a pending extension (a rejection may have an empty reason)."""
    booking = booking_locked(booking_id)
    enforce(policies.extension_answer_refusal(actor, booking))
    extension = ExtendBooking.objects.select_for_update().filter(pk=extension_id, booking=booking).first()
    if extension is None:
        raise NotFound("Extension request not found.")
    if status not in (ExtensionStatus.APPROVED, ExtensionStatus.REJECTED):
        raise field_invalid("status", "Status must be approved or rejected.")
    enforce(policies.extension_decide_refusal(actor, booking, extension, status))
    reject_reason = (reason or "").strip() if status == ExtensionStatus.REJECTED else ""
    EXTENSION_MACHINE.transition(
        extension, status, actor=actor, reason=reject_reason, reject_reason=reject_reason, decided_at=timezone.now()
    )
    if status == ExtensionStatus.REJECTED:
        Occupancy.objects.filter(extension=extension).update(active=False)
        booking_notify(
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
        booking_notify(
            booking.renter, "extensionApproved", f"Your extension at {booking.listing.title} was approved.", booking
        )
    host_counters_changed(booking)
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
    booking_recompute_totals(booking_locked(extension.booking_id))
    return extension
