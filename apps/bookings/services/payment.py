"""What the payments app tells a booking about its payment."""

from ..models import Booking, BookingPayment


def booking_payment_record(*, booking_id, state: BookingPayment) -> None:
    """Record where the booking's payment stands. Called by the payments app in the transaction of
    each change of its payment, so the booking and its payment never disagree once committed."""
    Booking.objects.filter(pk=booking_id).exclude(payment_state=state).update(payment_state=state)
