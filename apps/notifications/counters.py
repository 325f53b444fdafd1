"""The pending counters of the dashboard menu (``GET /api/dashboard/pending-counter``), as a registry.

Each app that owns a counted thing registers a function ``fn(user)`` that answers the rows to
count for that user as a QuerySet (or a number, or None for nothing) (for a host or subHost: the
acting host's things). The registry asks a counter only for the roles that reach its back-office
area (``apps.core.access``) and answers 0 for counters no app has registered. Register from a module named ``counters.py`` in your app (imported automatically
when Django starts) or from your AppConfig.ready()::

    # apps/bookings/counters.py
    from apps.notifications.counters import register_counter

    def pending_bookings(user) -> QuerySet[Booking]:
        return Booking.objects.filter(listing__host_id=user.acting_host_id, status="pending")

    register_counter("pendingBookings", pending_bookings)

When something changes a count, call ``apps.notifications.services.counters_changed(...)`` so
open pages get the new numbers over the websocket.
"""

import logging
from collections.abc import Callable

from django.db import connection
from django.db.models import QuerySet

from apps.core.access import Area, area_roles
from apps.core.effects import stuck_effects

logger = logging.getLogger(__name__)

# A counter answers the rows it counts (a QuerySet: every such count of a request goes to the
# database in one round trip), a number, or None (nothing to count for this user: 0).
CounterFn = Callable[[object], "QuerySet | int | None"]

# The back-office area each counter counts: the roles that reach it see the counter (everyone else
# gets 0 without a query).
COUNTER_AREAS: dict[str, Area] = {
    "pendingBookings": Area.BOOKING_REQUESTS,
    "pendingDisputes": Area.DISPUTE_REQUESTS,
    "pendingListings": Area.LISTING_REVIEWS,
    "otherRequests": Area.OTHER_REQUESTS,
    "payoutRequests": Area.PAYOUT_REQUESTS,
    "pendingVerificationRequest": Area.VERIFICATION_REQUESTS,
    "stuckEffects": Area.STUCK_EFFECTS,
}
COUNTER_ROLES: dict[str, frozenset[str]] = {name: area_roles(area) for name, area in COUNTER_AREAS.items()}
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
register_counter("stuckEffects", lambda user: stuck_effects())


def pending_counters(user) -> dict[str, int]:
    """Every counter for ``user``: the registered count where the role sees it, else 0.

    The counts given as QuerySets are read together, in one query of scalar sub-selects. A counter
    that fails is logged and shows 0, so one broken count never breaks the dashboard.
    """
    result = dict.fromkeys(COUNTER_NAMES, 0)
    querysets: dict[str, QuerySet] = {}
    for name, roles in COUNTER_ROLES.items():
        fn = _registry.get(name)
        if fn is None or user.role not in roles:
            continue
        try:
            value = fn(user)
        except Exception:
            logger.exception("Pending counter %s failed for %s", name, user.pk)
            continue
        if isinstance(value, QuerySet):
            querysets[name] = value
        else:
            result[name] = int(value or 0)
    result.update(_count_together(querysets, user))
    return result


def _count_together(querysets: dict[str, QuerySet], user) -> dict[str, int]:
    if len(querysets) <= 1:
        return {name: _count_alone(name, queryset, user) for name, queryset in querysets.items()}
    selects, params = [], []
    try:
        for queryset in querysets.values():
            sql, args = queryset.order_by().values("pk").query.sql_with_params()
            # The ORM compiled ``sql``; every value travels in ``args``.
            selects.append(f"(SELECT count(*) FROM ({sql}) AS counted)")  # noqa: S608
            params.extend(args)
        with connection.cursor() as cursor:
            cursor.execute("SELECT " + ", ".join(selects), params)
            row = cursor.fetchone()
    except Exception:
        # One of them failed: count each alone, so only the broken one shows 0.
        logger.exception("Pending counters failed together for %s; counting each alone", user.pk)
        return {name: _count_alone(name, queryset, user) for name, queryset in querysets.items()}
    return {name: int(value) for name, value in zip(querysets, row, strict=True)}


def _count_alone(name: str, queryset: QuerySet, user) -> int:
    try:
        return queryset.count()
    except Exception:
        logger.exception("Pending counter %s failed for %s", name, user.pk)
        return 0
