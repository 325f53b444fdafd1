"""The pendingBookings menu counter (host and subHost: pending requests on their listings)."""

from apps.notifications.counters import register_counter

from .selectors import pending_bookings

register_counter("pendingBookings", pending_bookings)
