"""Cancellations by the renter (refund by the schedule in ``apps.bookings.policies``) and by the host
(everything back).
"""

from django.db import transaction

from apps.core.exceptions import Forbidden

from .. import policies
from ..models import Booking, BookingStatus
from .lifecycle import booking_locked, booking_transition, enforce
from .planning import field_invalid

refund_amount_for = policies.refund_amount_for


@transaction.atomic
def booking_cancel_by_renter(*, booking_id, renter, reason: str = "") -> Booking:
    booking = booking_locked(booking_id)
    enforce(policies.renter_cancel_refusal(renter, booking))
    refund = refund_amount_for(booking)
    return booking_transition(
        booking,
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
    booking = booking_locked(booking_id)
    refusal = policies.host_cancel_refusal(actor, booking)
    if isinstance(refusal, Forbidden):
        raise refusal
    reason = (reason or "").strip()
    if not reason:
        raise field_invalid("reason", "Please give a reason for cancelling.")
    enforce(refusal)
    return booking_transition(
        booking,
        BookingStatus.CANCELLED,
        actor=actor,
        reason=reason,
        cancellation_reason=reason,
        cancelled_by=actor,
        refund_amount=booking.total_amount,
    )
