"""The pendingDisputes menu counter (host, subHost, admin, moderator)."""

from apps.notifications.counters import register_counter

from .selectors import pending_disputes

register_counter("pendingDisputes", pending_disputes)
