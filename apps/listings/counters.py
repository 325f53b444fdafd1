"""The listings app's pending counters for the dashboard menu."""

from apps.notifications.counters import register_counter

from .selectors import other_requests, pending_listing_requests

register_counter("pendingListings", lambda user: pending_listing_requests(user=user))
register_counter("otherRequests", lambda user: other_requests(user=user))
