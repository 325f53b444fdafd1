"""Dashboard statistics, each one aggregate query (or two) run by PostgreSQL.

Scope: a renter counts its own bookings and payments, a host (and a subHost for its host) the
bookings and payments of its listings, admin and moderator the whole platform. Rows are never
loaded into Python to be counted: only the aggregated rows (at most one per period, or a top 10)
come back.
"""

import datetime as dt
from decimal import Decimal

from django.db import connection
from django.db.models import Count, DecimalField, F, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce, Trunc

from apps.accounts.models import Role, User
from apps.accounts.policies import is_host_side, is_staff_role
from apps.bookings.models import Booking, BookingStatus
from apps.bookings.policies import ACTIVE_STATUSES, CONFIRMED_STATUSES
from apps.listings.models import Listing, ListingStatus, PropertyType
from apps.payments.models import Payment, Payout

from . import intervals

# Roles that see money: the payments rule (a moderator does not).
MONEY_ROLES = (Role.ADMIN, Role.HOST, Role.SUB_HOST, Role.RENTER)
# A confirmed booking: the host accepted it (whatever happened after): apps.bookings.policies.
CONFIRMED = CONFIRMED_STATUSES
PROPERTY_TYPES = (PropertyType.EVENT_SPACE, PropertyType.OFFICE_SPACE)
TOP = 10
ZERO = Decimal("0.00")
MONEY = DecimalField(max_digits=14, decimal_places=2)


# --- Scopes --------------------------------------------------------------------------------------


def booking_scope(user: User, prefix: str = "") -> Q:
    if is_staff_role(user):
        return Q()
    if is_host_side(user):
        return Q(**{f"{prefix}host_id": user.acting_host_id})
    if user.role == Role.RENTER:
        return Q(**{f"{prefix}renter_id": user.pk})
    return Q(pk__in=[])


def bookings_for(user: User) -> QuerySet[Booking]:
    return Booking.objects.filter(booking_scope(user))


def listings_for(user: User) -> QuerySet[Listing]:
    qs = Listing.objects.filter(is_deleted=False)
    if is_staff_role(user):
        return qs
    if is_host_side(user):
        return qs.filter(host_id=user.acting_host_id)
    return qs.none()


def payments_for(user: User) -> QuerySet[Payment]:
    """Payments whose money was taken (captured), in the caller's scope."""
    if user.role not in MONEY_ROLES:
        return Payment.objects.none()
    return Payment.objects.filter(booking_scope(user), captured_at__isnull=False)


def _paid() -> Sum:
    """What stayed paid: captured plus paid extensions less refunds."""
    return Sum(F("captured_amount") + F("extended_amount") - F("refunded_amount"), output_field=MONEY)


def _percent(part: int | Decimal, whole: int | Decimal) -> Decimal:
    if not whole:
        return ZERO
    return (Decimal(part) * 100 / Decimal(whole)).quantize(Decimal("0.01"))


def _per_listing(bookings: QuerySet[Booking], *extra: str) -> tuple[str, list]:
    """SQL of ``bookings`` counted per listing (and per ``extra`` column), for a caller to join to
    listings afterwards: grouping the bookings first and joining the grouped rows is far cheaper
    than joining every booking to its listing."""
    sql, params = bookings.order_by().values("listing_id", *extra).annotate(n=Count("id")).query.sql_with_params()
    return sql, list(params)


def _listing_scope(user: User) -> tuple[str, list]:
    """The join condition that keeps the listings side small for a host (its own, by index)."""
    if is_host_side(user):
        return " AND l.host_id = %s", [user.acting_host_id]
    return "", []


def _fetch(sql: str, params: list) -> list[tuple]:
    """Run SQL built around a Django-compiled query (``_per_listing``); every value is a parameter,
    which is why the f-strings around it are exempt from S608."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


# --- Stat cards ----------------------------------------------------------------------------------


def dashboard_numbers(*, user: User, interval: str, now: dt.datetime | None = None) -> dict:
    """The four cards of the interval's current period (this week, month or year).

    Every role: totalBooking (requests made), cancelledRequestsCount (of those, cancelled),
    totalSpaceOccupied (spaces with a confirmed booking overlapping the period); roles that see
    money also totalRentPaid. Admin and moderator also: eventSpaceCount, workSpaceCount (listings
    added), totalUsers (accounts opened); the admin also totalRevenue.
    """
    start, end = intervals.current_window(interval, now)
    bookings = bookings_for(user)
    data = bookings.filter(created_at__gte=start, created_at__lt=end).aggregate(
        totalBooking=Count("id"),
        cancelledRequestsCount=Count("id", filter=Q(status=BookingStatus.CANCELLED)),
    )
    data["totalSpaceOccupied"] = bookings.filter(status__in=CONFIRMED, check_in__lt=end, check_out__gt=start).aggregate(
        n=Count("listing_id", distinct=True)
    )["n"]
    if user.role in MONEY_ROLES:
        data["totalRentPaid"] = paid_between(user=user, start=start, end=end)
    if is_staff_role(user):
        listings = (
            Listing.objects.filter(is_deleted=False, created_at__gte=start, created_at__lt=end)
            .values("property_type")
            .annotate(n=Count("id"))
        )
        by_type = {row["property_type"]: row["n"] for row in listings}
        data["eventSpaceCount"] = by_type.get(PropertyType.EVENT_SPACE, 0)
        data["workSpaceCount"] = by_type.get(PropertyType.OFFICE_SPACE, 0)
        data["totalUsers"] = User.objects.filter(is_deleted=False, created_at__gte=start, created_at__lt=end).count()
    if user.role == Role.ADMIN:
        data["totalRevenue"] = data["totalRentPaid"]
    return data


def paid_between(*, user: User, start: dt.datetime, end: dt.datetime) -> Decimal:
    total = payments_for(user).filter(captured_at__gte=start, captured_at__lt=end).aggregate(total=_paid())["total"]
    return total or ZERO


# --- Per-period series ---------------------------------------------------------------------------


def _series(qs: QuerySet, *, field: str, interval: str, group: str | None, now=None, **aggregates) -> tuple:
    """Aggregate ``qs`` per period of the interval (and per ``group`` value): one row per pair."""
    periods = intervals.buckets(interval, now)
    qs = qs.filter(**{f"{field}__gte": periods[0].start, f"{field}__lt": periods[-1].end})
    qs = qs.annotate(bucket=Trunc(field, intervals.trunc_kind(interval), tzinfo=intervals.LOCAL_TZ))
    keys = ["bucket", group] if group else ["bucket"]
    rows = qs.order_by().values(*keys).annotate(**aggregates)
    return periods, rows


def _typed_entries(periods, rows, group: str) -> list[dict]:
    counts: dict[tuple, int] = {(row["bucket"], row[group]): row["count"] for row in rows}
    return [
        {
            "label": period.label,
            "year": period.year,
            "startDate": period.start.date(),
            "data": [{"propertyType": kind, "count": _lookup(counts, period.start, kind)} for kind in PROPERTY_TYPES],
        }
        for period in periods
    ]


def _lookup(values: dict, start: dt.datetime, key=None, default=0):
    """Trunc answers local midnights; aware datetimes hash by their instant, so zones need not match."""
    return values.get((start, key), default)


def property_statistics(*, user: User, interval: str, now=None) -> list[dict]:
    """Bookings requested per period, split by the listing's property type."""
    periods = intervals.buckets(interval, now)
    bookings = bookings_for(user).filter(created_at__gte=periods[0].start, created_at__lt=periods[-1].end)
    bookings = bookings.annotate(bucket=Trunc("created_at", intervals.trunc_kind(interval), tzinfo=intervals.LOCAL_TZ))
    inner, params = _per_listing(bookings, "bucket")
    scope, scope_params = _listing_scope(user)
    rows = _fetch(
        f"SELECT b.bucket, l.property_type, SUM(b.n) FROM ({inner}) b "  # noqa: S608
        f"JOIN listings_listing l ON l.id = b.listing_id{scope} GROUP BY 1, 2",
        [*params, *scope_params],
    )
    counts = {(_local(bucket), kind): int(n) for bucket, kind, n in rows}
    return _typed_entries(periods, [{"bucket": k[0], "kind": k[1], "count": v} for k, v in counts.items()], "kind")


def _local(moment: dt.datetime) -> dt.datetime:
    """``date_trunc`` in local time answers a naive local midnight through a raw cursor."""
    return moment.replace(tzinfo=intervals.LOCAL_TZ) if moment.tzinfo is None else moment


def listing_statistics(*, user: User, interval: str, now=None) -> list[dict]:
    """Listings added per period, split by property type."""
    periods, rows = _series(
        listings_for(user), field="created_at", interval=interval, group="property_type", now=now, count=Count("id")
    )
    return _typed_entries(periods, rows, "property_type")


def availability_statistics(*, user: User, interval: str, now=None) -> list[dict]:
    """Per period: of the live listings (approved, active, not deleted), how many had a confirmed
    booking starting in the period (occupied) and how many did not (available)."""
    total = listings_for(user).filter(status=ListingStatus.APPROVED, is_active=True).count()
    periods, rows = _series(
        bookings_for(user).filter(status__in=CONFIRMED),
        field="check_in",
        interval=interval,
        group=None,
        now=now,
        count=Count("listing_id", distinct=True),
    )
    occupied = {(row["bucket"], None): row["count"] for row in rows}
    entries = []
    for period in periods:
        busy = min(_lookup(occupied, period.start), total) if total else _lookup(occupied, period.start)
        entries.append(
            {
                "label": period.label,
                "year": period.year,
                "startDate": period.start.date(),
                "totalSpaces": total,
                "occupied": busy,
                "available": max(total - busy, 0),
                "occupiedPercentage": _percent(busy, total),
                "availablePercentage": _percent(max(total - busy, 0), total) if total else ZERO,
            }
        )
    return entries


def revenue_statistics(*, user: User, interval: str, property_type: str | None, now=None) -> list[dict]:
    """Money per period (by capture time): revenue is what stayed paid, commission the platform's share."""
    # The booking's own scope too, so that PostgreSQL can join the two sides by their host (or
    # renter) indexes instead of looking up each booking by id.
    qs = payments_for(user).filter(booking_scope(user, "booking__"))
    if property_type:
        qs = qs.filter(listing__property_type=property_type)
    periods, rows = _series(
        qs,
        field="captured_at",
        interval=interval,
        group=None,
        now=now,
        revenue=Coalesce(_paid(), Value(ZERO), output_field=MONEY),
        commission=Coalesce(Sum("booking__commission"), Value(ZERO), output_field=MONEY),
    )
    values = {(row["bucket"], None): row for row in rows}
    entries = []
    for period in periods:
        row = _lookup(values, period.start, default=None) or {}
        entries.append(
            {
                "label": period.label,
                "year": period.year,
                "startDate": period.start.date(),
                "revenue": row.get("revenue", ZERO),
                "commission": row.get("commission", ZERO),
            }
        )
    return entries


# --- Users ---------------------------------------------------------------------------------------


def total_users() -> dict:
    rows = User.objects.filter(is_deleted=False).order_by().values("role").annotate(count=Count("id"))
    counts = {row["role"]: row["count"] for row in rows}
    total = sum(counts.values())
    return {
        "totalUsers": total,
        "roles": [
            {"role": role, "count": counts.get(role, 0), "percentage": _percent(counts.get(role, 0), total)}
            for role in (Role.HOST, Role.SUB_HOST, Role.RENTER, Role.MODERATOR, Role.ADMIN)
        ],
    }


# --- Lists ---------------------------------------------------------------------------------------


def _booking_rows(qs: QuerySet[Booking]) -> QuerySet[Booking]:
    return qs.select_related("listing", "renter", "host")


def recent_bookings(*, user: User) -> QuerySet[Booking]:
    return _booking_rows(bookings_for(user)).order_by("-created_at", "-id")


def recent_requests(*, user: User) -> QuerySet[Booking]:
    return _booking_rows(bookings_for(user).filter(status=BookingStatus.PENDING)).order_by("-created_at", "-id")


def new_reservations(*, user: User) -> QuerySet[Booking]:
    """Confirmed bookings still to come or under way, newest confirmation first."""
    return _booking_rows(bookings_for(user).filter(status__in=ACTIVE_STATUSES)).order_by(
        F("decided_at").desc(nulls_last=True), "-created_at", "-id"
    )


def cancelled_bookings(*, user: User) -> QuerySet[Booking]:
    return _booking_rows(bookings_for(user).filter(status=BookingStatus.CANCELLED)).order_by("-created_at", "-id")


def recent_listings(*, user: User) -> QuerySet[Listing]:
    return listings_for(user).select_related("host").prefetch_related("images").order_by("-created_at", "-id")


PAYOUT_STATUSES = ("all", "onhold", "released", "failed")


def payout_requests(*, status: str) -> tuple[QuerySet[Payout], Decimal]:
    qs = Payout.objects.select_related("host").order_by("-requested_at", "-id")
    if status != "all":
        qs = qs.filter(status=status)
    total = qs.aggregate(total=Sum("amount"))["total"] or ZERO
    return qs, total


# --- Tops ----------------------------------------------------------------------------------------


def popular_hosts() -> list[dict]:
    """The 10 hosts with the most confirmed bookings, with their share of all confirmed bookings."""
    confirmed = Booking.objects.filter(status__in=CONFIRMED)
    rows = list(confirmed.order_by().values("host_id").annotate(n=Count("id")).order_by("-n", "host_id")[:TOP])
    total = confirmed.count() if rows else 0
    hosts = User.objects.in_bulk([row["host_id"] for row in rows])
    return [
        {"host": hosts[row["host_id"]], "totalBookings": row["n"], "percentage": _percent(row["n"], total)}
        for row in rows
    ]


def popular_spaces(*, user: User) -> list[dict]:
    confirmed = bookings_for(user).filter(status__in=CONFIRMED)
    rows = list(confirmed.order_by().values("listing_id").annotate(n=Count("id")).order_by("-n", "listing_id")[:TOP])
    listings = (
        Listing.objects.select_related("host").prefetch_related("images").in_bulk([r["listing_id"] for r in rows])
    )
    return [{"listing": listings[row["listing_id"]], "totalBookings": row["n"]} for row in rows]


HIGH_DEMAND_COLOURS = ("Black", "Yellow", "Blue", "Green")


def high_demand_locations(*, user: User) -> list[dict]:
    """Cities with the most confirmed bookings; ``percentage`` is the share of all of them."""
    inner, params = _per_listing(bookings_for(user).filter(status__in=CONFIRMED))
    scope, scope_params = _listing_scope(user)
    rows = _fetch(
        f"SELECT l.city, l.country, SUM(b.n) AS n, SUM(SUM(b.n)) OVER () FROM ({inner}) b "  # noqa: S608
        f"JOIN listings_listing l ON l.id = b.listing_id{scope} GROUP BY l.city, l.country "
        "ORDER BY n DESC, l.city, l.country LIMIT %s",
        [*params, *scope_params, TOP],
    )
    return [
        {
            "city": city,
            "country": country,
            "count": int(n),
            "percentage": _percent(n, total),
            "colour": HIGH_DEMAND_COLOURS[index] if index < len(HIGH_DEMAND_COLOURS) else None,
        }
        for index, (city, country, n, total) in enumerate(rows)
    ]


AMENITY_SCOPES = ("all", PropertyType.EVENT_SPACE, PropertyType.OFFICE_SPACE)


def high_demand_amenities(*, user: User, property_type: str) -> list[dict]:
    """Amenities by the confirmed bookings of listings that offer them; ``percentage`` is the share
    of confirmed bookings (of that property type) whose listing offers the amenity."""
    inner, params = _per_listing(bookings_for(user).filter(status__in=CONFIRMED))
    scope, scope_params = _listing_scope(user)
    kind = "" if property_type == "all" else " AND l.property_type = %s"
    kind_params = [*scope_params] if property_type == "all" else [*scope_params, property_type]
    scoped = f"SELECT b.listing_id, b.n FROM ({inner}) b JOIN listings_listing l ON l.id = b.listing_id{scope}{kind}"  # noqa: S608
    rows = _fetch(
        f"WITH scoped AS ({scoped}) "  # noqa: S608
        "SELECT a.id, a.name, a.icon, SUM(s.n) AS n, (SELECT SUM(n) FROM scoped) FROM scoped s "
        "JOIN listings_listing_amenities la ON la.listing_id = s.listing_id "
        "JOIN listings_amenity a ON a.id = la.amenity_id "
        "GROUP BY a.id, a.name, a.icon ORDER BY n DESC, a.name LIMIT %s",
        [*params, *kind_params, TOP],
    )
    return [
        {"_id": id_, "name": name, "icon": icon, "count": int(n), "percentage": _percent(n, total)}
        for id_, name, icon, n, total in rows
    ]


def geo_chart(*, user: User) -> dict:
    """Confirmed bookings per country of the listing: a map for the chart and bars with shares."""
    inner, params = _per_listing(bookings_for(user).filter(status__in=CONFIRMED))
    scope, scope_params = _listing_scope(user)
    rows = _fetch(
        f"SELECT l.country, SUM(b.n) AS n FROM ({inner}) b JOIN listings_listing l ON l.id = b.listing_id"  # noqa: S608
        f"{scope} GROUP BY l.country ORDER BY n DESC, l.country",
        [*params, *scope_params],
    )
    total = sum(int(n) for _, n in rows)
    return {
        "geoChart": {country: int(n) for country, n in rows},
        "progressBars": [
            {"country": country, "count": int(n), "percentage": _percent(n, total)} for country, n in rows
        ],
        "total": total,
    }
