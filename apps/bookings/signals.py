"""What the bookings app announces to the apps above it (payments, disputes, statistics).

``booking_status_changed`` is sent inside the transaction of the change, so a receiver's writes
(the payments app queues a capture, a release or a refund in the outbox) commit or roll back
with it. Receivers: ``sender=Booking, booking, from_status, to_status, actor, reason``.

``payment_held`` asks the app that holds payments whether a booking's payment is secured (so a
pay-now request is approved only once paid). The payments app registers the answer when it
starts; there is no default, because every deployment runs payments.
"""

from collections.abc import Callable

from django.dispatch import Signal

booking_status_changed = Signal()

_payment_held: list[Callable[..., bool]] = []


def register_payment_held(fn: Callable[..., bool]) -> Callable[..., bool]:
    _payment_held[:] = [fn]
    return fn


def payment_held(*, booking_id, lock: bool = False) -> bool:
    if not _payment_held:
        raise RuntimeError("No app answers whether a booking's payment is held (the payments app registers it).")
    return _payment_held[0](booking_id=booking_id, lock=lock)
