"""What the bookings app announces to the apps above it (payments, disputes, statistics).

``booking_status_changed`` is sent inside the transaction of the change, so a receiver's writes
(the payments app queues a capture, a release or a refund in the outbox) commit or roll back
with it. Receivers: ``sender=Booking, booking, from_status, to_status, actor, reason``.

``payment_status`` asks the app that holds payments for the status of a booking's payment (None:
none yet), so that ``policies.approve_refusal`` approves a pay-now request only once it is paid. The payments app registers the answer when it
starts; there is no default, because every deployment runs payments.
"""

from collections.abc import Callable

from django.dispatch import Signal

booking_status_changed = Signal()

_payment_status: list[Callable[..., str | None]] = []


def register_payment_status(fn: Callable[..., str | None]) -> Callable[..., str | None]:
    _payment_status[:] = [fn]
    return fn


def payment_status(*, booking_id, lock: bool = False) -> str | None:
    if not _payment_status:
        raise RuntimeError("No app answers for a booking's payment status (the payments app registers it).")
    return _payment_status[0](booking_id=booking_id, lock=lock)
