"""Answers of the aggregate dashboard calls, and the platform-wide ones kept precomputed.

Over a million bookings, the platform's aggregates (every booking of ten years grouped by period,
city, country, host or amenity) take hundreds of milliseconds, too slow to compute per request.
For admin and moderator they are read from ``PlatformSnapshot`` rows, recomputed by Celery beat
every few minutes (``tasks.refresh_platform_statistics``); a missing or stale row is computed on the
spot and stored. A renter's or host's scope is small and indexed, so theirs are always live.
"""

import datetime as dt
import time
from collections.abc import Callable

from django.utils import timezone

from apps.accounts.models import Role
from apps.accounts.policies import is_staff_role

from . import intervals, selectors
from .models import PlatformSnapshot
from .serializers import (
    AvailabilityPeriodSerializer,
    DashboardNumbersSerializer,
    GeoChartSerializer,
    HighDemandAmenitySerializer,
    HighDemandLocationSerializer,
    PopularHostSerializer,
    PopularSpaceSerializer,
    RevenuePeriodSerializer,
    TotalUsersSerializer,
    TypedPeriodSerializer,
)

REFRESH_EVERY = dt.timedelta(minutes=5)
MAX_AGE = dt.timedelta(minutes=15)
MONEY_KEYS = ("totalRentPaid", "totalRevenue")


class PlatformViewer:
    """Whom a platform snapshot is computed for: the admin's view (money included)."""

    role = Role.ADMIN
    pk = None
    acting_host_id = None


PLATFORM = PlatformViewer()


def _numbers(user, interval):
    return DashboardNumbersSerializer(selectors.dashboard_numbers(user=user, interval=interval)).data


def _property(user, interval):
    return TypedPeriodSerializer(selectors.property_statistics(user=user, interval=interval), many=True).data


def _listing(user, interval):
    return TypedPeriodSerializer(selectors.listing_statistics(user=user, interval=interval), many=True).data


def _availability(user, interval):
    rows = selectors.availability_statistics(user=user, interval=interval)
    return AvailabilityPeriodSerializer(rows, many=True).data


def _revenue(user, interval, property_type):
    rows = selectors.revenue_statistics(
        user=user, interval=interval, property_type=None if property_type == "all" else property_type
    )
    return RevenuePeriodSerializer(rows, many=True).data


def _locations(user):
    return {
        "highDemandLocations": HighDemandLocationSerializer(selectors.high_demand_locations(user=user), many=True).data
    }


def _amenities(user, property_type):
    rows = selectors.high_demand_amenities(user=user, property_type=property_type)
    return {"highDemandAmenities": HighDemandAmenitySerializer(rows, many=True).data}


CALLS: dict[str, Callable] = {
    "get-dashboard-numbers": _numbers,
    "property-statistics": _property,
    "listing-statistics": _listing,
    "availability-statistics": _availability,
    "revenue-statistics": _revenue,
    "total-users": lambda user: TotalUsersSerializer(selectors.total_users()).data,
    "popular-hosts": lambda user: PopularHostSerializer(selectors.popular_hosts(), many=True).data,
    "popular-spaces": lambda user: PopularSpaceSerializer(selectors.popular_spaces(user=user), many=True).data,
    "high-demand-locations": _locations,
    "high-demand-amenities": _amenities,
    "geo-chart": lambda user: GeoChartSerializer(selectors.geo_chart(user=user)).data,
}


def platform_calls() -> list[tuple[str, dict]]:
    """Every platform answer kept precomputed: each call with each of its arguments."""
    calls: list[tuple[str, dict]] = []
    for interval in intervals.INTERVALS:
        for name in ("get-dashboard-numbers", "property-statistics", "listing-statistics", "availability-statistics"):
            calls.append((name, {"interval": interval}))
        for property_type in selectors.AMENITY_SCOPES:
            calls.append(("revenue-statistics", {"interval": interval, "property_type": property_type}))
    for property_type in selectors.AMENITY_SCOPES:
        calls.append(("high-demand-amenities", {"property_type": property_type}))
    for name in ("total-users", "popular-hosts", "popular-spaces", "high-demand-locations", "geo-chart"):
        calls.append((name, {}))
    return calls


def snapshot_key(name: str, kwargs: dict, now: dt.datetime | None = None) -> str:
    parts = [name, *(str(kwargs[arg]) for arg in sorted(kwargs))]
    interval = kwargs.get("interval")
    if interval:
        if name == "get-dashboard-numbers":
            start = intervals.current_window(interval, now)[0]
        else:
            start = intervals.buckets(interval, now)[0].start
        parts.append(start.date().isoformat())
    return ":".join(parts)


def snapshot_store(name: str, kwargs: dict) -> PlatformSnapshot:
    started = time.perf_counter()
    data = CALLS[name](PLATFORM, **kwargs)
    snapshot, _ = PlatformSnapshot.objects.update_or_create(
        key=snapshot_key(name, kwargs),
        defaults={
            "data": data,
            "computed_at": timezone.now(),
            "duration_ms": round((time.perf_counter() - started) * 1000),
        },
    )
    return snapshot


def answer(user, name: str, **kwargs):
    """The serialized answer of a call for ``user``: live for renters and hosts, from the platform
    snapshot for admin and moderator (without money for a moderator)."""
    if not is_staff_role(user):
        return CALLS[name](user, **kwargs)
    snapshot = PlatformSnapshot.objects.filter(
        key=snapshot_key(name, kwargs), computed_at__gte=timezone.now() - MAX_AGE
    ).first()
    data = snapshot.data if snapshot is not None else snapshot_store(name, kwargs).data
    if name == "get-dashboard-numbers" and user.role not in selectors.MONEY_ROLES:
        data = {key: value for key, value in data.items() if key not in MONEY_KEYS}
    return data


def refresh_platform() -> int:
    """Recompute every platform answer; drop rows of periods that have ended."""
    calls = platform_calls()
    keys = []
    for name, kwargs in calls:
        keys.append(snapshot_store(name, kwargs).key)
    PlatformSnapshot.objects.exclude(key__in=keys).delete()
    return len(calls)
