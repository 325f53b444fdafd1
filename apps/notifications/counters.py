"""The pending counters of the dashboard menu (``GET /api/dashboard/pending-counter``), as a registry.

Each app that owns a counted thing registers a function ``fn(user) -> int`` that counts it for
that user (for a host or subHost: the acting host's things). The registry asks a counter only
for the roles that see it (spec 2.3, menu counters) and answers 0 for counters no app has
registered. Register from a module named ``counters.py`` in your app (imported automatically
when Django starts) or from your AppConfig.ready()::

    # apps/bookings/counters.py
    from apps.notifications.counters import register_counter

    def pending_bookings(user) -> int:
        return Booking.objects.filter(listing__host_id=user.acting_host_id, status="pending").count()

    register_counter("pendingBookings", pending_bookings)

When something changes a count, call ``apps.notifications.services.counters_changed(...)`` so
open pages get the new numbers over the websocket.
"""

import logging
from collections.abc import Callable

from apps.core.effects import stuck_effect_count
from apps.core.roles import Role

logger = logging.getLogger(__name__)

CounterFn = Callable[[object], int]

# Which roles see each counter (everyone else gets 0 without a query). Payout requests are decided by
# the admin alone (moderators do not touch money), so only the admin sees them.
COUNTER_ROLES: dict[str, frozenset[str]] = {
    "pendingBookings": frozenset({Role.HOST, Role.SUB_HOST}),
    "pendingDisputes": frozenset({Role.HOST, Role.SUB_HOST, Role.ADMIN, Role.MODERATOR}),
    "pendingListings": frozenset({Role.ADMIN, Role.MODERATOR}),
    "otherRequests": frozenset({Role.HOST, Role.SUB_HOST}),
    "payoutRequests": frozenset({Role.ADMIN}),
    "pendingVerificationRequest": frozenset({Role.ADMIN, Role.MODERATOR}),
    "stuckEffects": frozenset({Role.ADMIN}),
}
COUNTER_NAMES = tuple(COUNTER_ROLES)

_registry: dict[str, CounterFn] = {}


def register_counter(name: str, fn: CounterFn) -> CounterFn:
    """Register (or replace) the function that counts ``name``. Returns ``fn`` so it can decorate."""
    if name not in COUNTER_ROLES:
        raise ValueError(f"unknown counter {name!r}; known: {', '.join(COUNTER_NAMES)}")
    _registry[name] = fn
    return fn


def counter(name: str) -> Callable[[CounterFn], CounterFn]:
    """Decorator form: ``@counter("pendingBookings")``."""
    return lambda fn: register_counter(name, fn)


def unregister_counter(name: str) -> None:
    _registry.pop(name, None)


def registered_counters() -> dict[str, CounterFn]:
    return dict(_registry)


# Effects (captures, refunds, mail ...) that keep failing: the admin's back-office count.
register_counter("stuckEffects", lambda user: stuck_effect_count())


def pending_counters(user) -> dict[str, int]:
    """Every counter for ``user``: the registered count where the role sees it, else 0.

    A counter that fails is logged and shows 0, so one broken count never breaks the dashboard.
    """
    result = {}
    for name, roles in COUNTER_ROLES.items():
        fn = _registry.get(name)
        value = 0
        if fn is not None and user.role in roles:
            try:
                value = int(fn(user) or 0)
            except Exception:
                logger.exception("Pending counter %s failed for %s", name, user.pk)
        result[name] = value
    return result
