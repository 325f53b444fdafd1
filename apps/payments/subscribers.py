"""Every receiver the payments app connects, listed in ``SUBSCRIBERS`` (connected by ``apps.py``).

A booking's status change (``apps.bookings.signals.booking_status_changed``) is followed inside
its transaction: an approval queues the capture of the held payment, a rejection its release, a
cancellation its refund (``services.booking_payment_follow``).
"""

from apps.bookings.models import Booking
from apps.bookings.signals import booking_status_changed
from apps.core.dispatch import Subscriber

from .services import booking_payment_follow


def follow_booking(sender, *, booking, from_status: str, to_status: str, actor=None, reason: str = "", **kwargs):
    """Inside the booking's transaction: queue the capture, release or refund it calls for."""
    booking_payment_follow(booking=booking, from_status=from_status, to_status=to_status, actor=actor)


SUBSCRIBERS = (Subscriber(booking_status_changed, follow_booking, sender=Booking, uid="payments-follow-booking"),)
