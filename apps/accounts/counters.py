"""The accounts app's pending counter for the dashboard menu."""

from apps.notifications.counters import register_counter

from .selectors import pending_verification_requests

register_counter("pendingVerificationRequest", pending_verification_requests)
