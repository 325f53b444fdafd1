"""The listings app's pending counters for the dashboard menu."""

from apps.notifications.counters import register_counter

from .selectors import other_requests_count, pending_listings_count

register_counter("pendingListings", lambda user: pending_listings_count(user=user))
register_counter("otherRequests", lambda user: other_requests_count(user=user))
