"""What the bookings app announces to the apps above it (payments, disputes, statistics).

``booking_status_changed`` is sent inside the transaction of the change, so a receiver's writes
(the payments app queues a capture, a release or a refund in the outbox) commit or roll back
with it. Receivers: ``sender=Booking, booking, from_status, to_status, actor, reason``. Each app's
receivers are listed in its ``subscribers.py``.
"""

from django.dispatch import Signal

booking_status_changed = Signal()
