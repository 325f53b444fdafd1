"""The accounts app's pending counter for the dashboard menu."""

from apps.notifications.counters import register_counter, set_counter_roles

from .policies import COUNTER_ROLES
from .selectors import pending_verification_request_count

set_counter_roles(COUNTER_ROLES)  # who sees which counter: the accounts app's rule
register_counter("pendingVerificationRequest", pending_verification_request_count)
