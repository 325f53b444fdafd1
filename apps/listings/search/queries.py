"""The queries behind the public search: the public rows, premium placement, each filter's
condition, dates against bookings and the navbar's title search."""

import math
import uuid
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import BooleanField, Case, Func, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Upper
from django.utils import timezone

from apps.core.filters import is_uuid
from apps.premium.selectors import premium_now

from ..models import Amenity, Availability, Facility, Listing, PropertyType, SpaceOffering
from ..policies import PUBLIC_LISTING, public_listings
from ..signals import dates_searched
from .filters import MAX_TEXT, PRICE_PERIODS, WEEKDAYS, SearchFilters

PUBLIC = PUBLIC_LISTING & Q(availability=Availability.AVAILABLE)
"""The rows search shows: the public listings (``apps.listings.policies.public_listings``) that are
available now. The partial indexes of the search carry the listing part of this condition."""

PUBLIC_ORDER = ("-featured", "-created_at", "-id")
"""Premium listings first (``featured``: marked premium by a host who is premium now), then the newest."""
NEWEST = ("-created_at", "-id")

# Search days are read on the site's display clock (spec 9), as the date filter has always been.
LOCAL_TZ = ZoneInfo(settings.DISPLAY_TIME_ZONE)


def premium_now_q() -> Q:
    """A listing is premium (featured) when it is marked premium and its host is premium now."""
    return Q(is_premium=True) & Q(premium_now("host_id"))


def with_featured(queryset: QuerySet[Listing]) -> QuerySet[Listing]:
    """Annotate ``featured``; the host's membership is only looked up for listings marked premium."""
    return queryset.annotate(
        featured=Case(
            When(is_premium=True, then=premium_now("host_id")),
            default=Value(False),
            output_field=BooleanField(),
        )
    )


class WordSimilar(Func):
    """``q <% UPPER(title)``: pg_trgm word similarity, which forgives typos ("cowrking").

    Served by the trigram GIN index on ``UPPER(title)`` (migration ``search_...``).
    """

    arg_joiner = " <%% "
    template = "(%(expressions)s)"
    output_field = BooleanField()


def title_match(text: str, *, close: bool | None = None) -> Q:
    """Titles containing ``text`` (case-insensitive) or a word close to it; ``close`` True: only
    the close words, False: only the containing titles."""
    contains, similar = Q(title__icontains=text), Q(WordSimilar(Value(text.upper()), Upper("title")))
    if close is None:
        return contains | similar
    return similar if close else contains


def title_filter(queryset: QuerySet[Listing], text: str) -> QuerySet[Listing]:
    """Titles containing ``text``; when none does, titles with a word close to it ("cowrking").

    Checking the plain match first (one cheap ``EXISTS``) keeps the costly similarity check for
    the rare searches that need it.
    """
    contains = queryset.filter(title_match(text, close=False))
    if contains.exists():
        return contains
    return queryset.filter(title_match(text, close=True))


def _any_row(rows: QuerySet) -> Q:
    """The listing has one of ``rows`` (rows of a table with ``listing_id``): ``(SELECT true ...
    WHERE listing_id = listing.id LIMIT 1)``, answered for each listing read through the table's
    listing index.

    Written as ``EXISTS`` PostgreSQL may hash the whole table first (every offering above a
    price, 110,000 rows at 100,000 listings: 90-120 ms) or join every listing with an amenity,
    while a search reads a page or counts up to ``COUNT_CAP``: a few hundred to a thousand
    listings, each probed in microseconds. A scalar subquery is never hashed."""
    found = rows.filter(listing_id=OuterRef("pk")).order_by().values(found=Value(True))[:1]
    return Q(Subquery(found, output_field=BooleanField()))


def _for_type(filters: SearchFilters, *, event: Q, office: Q) -> Q:
    """The event-space or office-space form of a condition, or either when no type was chosen.

    Leaving out the branch the chosen type cannot match keeps PostgreSQL from planning it: an
    ``OR`` with the offerings' ``EXISTS`` made it hash every matching offering (40-60 ms at
    100,000 listings) even for event spaces, which have none."""
    if filters.property_type == PropertyType.EVENT_SPACE:
        return event
    if filters.property_type == PropertyType.OFFICE_SPACE:
        return office
    return event | office


def searchable_listings() -> QuerySet[Listing]:
    return public_listings().filter(availability=Availability.AVAILABLE)


def _price_q(prefix: str, filters: SearchFilters) -> Q:
    periods = (filters.period,) if filters.period else PRICE_PERIODS
    combined = Q()
    for period in periods:
        bounds = Q(**{f"{prefix}{period}__isnull": False})
        if filters.min_price is not None:
            bounds &= Q(**{f"{prefix}{period}__gte": filters.min_price})
        if filters.max_price is not None:
            bounds &= Q(**{f"{prefix}{period}__lte": filters.max_price})
        combined |= bounds
    return combined


def catalogue_ids(model, values: list[str]) -> list[str]:
    """Ids of admin-managed items given by id or by name; an unknown name matches no listing."""
    names = [value.upper() for value in values if not is_uuid(value)]
    by_name: dict[str, str] = {}
    if names:
        by_name = {
            name.upper(): str(pk)
            for pk, name in model.objects.annotate(upper=Upper("name"))
            .filter(upper__in=names)
            .values_list("id", "name")
        }
    return [value if is_uuid(value) else by_name.get(value.upper(), NO_MATCH) for value in values]


NO_MATCH = str(uuid.UUID(int=0))


def closed_listing(day: str) -> Q:
    """Listings whose opening hours mark ``day`` (``monday`` … ``sunday``) closed."""
    return Q(opening_hours__contains={day: None})


def available_between(
    queryset: QuerySet, start: date, end: date, *, closed: Callable[[str], Q] = closed_listing
) -> QuerySet:
    """Listings a renter could book from ``start`` to ``end`` (inclusive): of ``Listing`` or of the
    search row, which carries the same fields but the closed weekdays (``closed``).

    A listing qualifies when none of the range's days is one of its blocked dates, it opens
    on the first and the last day's weekdays (check-in and check-out; days in between on which
    it is closed are simply not used), and it is not fully booked over those days (an event
    space with any time held in them, an office space whose every offering is full: see
    ``apps.bookings.selectors.listings_booked_between``). An empty ``opening_hours`` means open
    every day.
    """
    days = [start + timedelta(days=offset) for offset in range((end - start).days + 1)]
    queryset = queryset.exclude(blocked_dates__overlap=days)
    queryset = _within_notice_and_window(queryset, start)
    for day in {WEEKDAYS[start.weekday()], WEEKDAYS[end.weekday()]}:
        queryset = queryset.exclude(closed(day))
    return queryset.exclude(_booked_between(start, end))


def _within_notice_and_window(queryset: QuerySet, start: date) -> QuerySet:
    """Leave out listings whose booking window does not reach ``start`` or whose minimum notice
    leaves no time on that day (the booking services apply the same rules to the exact times)."""
    now = timezone.now().astimezone(LOCAL_TZ)
    queryset = queryset.exclude(booking_window_days__lt=(start - now.date()).days)
    day_ends = datetime.combine(start + timedelta(days=1), time(0), tzinfo=LOCAL_TZ)
    hours_left = (day_ends - now).total_seconds() / 3600
    return queryset.exclude(minimum_notice_hours__gte=max(0, math.ceil(hours_left)))


def _booked_between(start: date, end: date) -> Q:
    """Listings fully booked over the local days ``start`` to ``end``: the bookings app answers
    (``apps.bookings.subscribers``: ``listings_fully_booked``). On the listing's primary key, which
    is also the search row's."""
    booked = Q(pk__in=[])
    for _receiver, ids in dates_searched.send(sender=Listing, start=start, end=end):
        booked |= Q(pk__in=ids)
    return booked


def search(filters: SearchFilters, *, base: QuerySet[Listing] | None = None) -> QuerySet[Listing]:
    """The public listings matching ``filters``, premium first then newest (see ``PUBLIC_ORDER``).

    For a page of results ``search_page`` reads the premium ones and the others as two
    index-ordered queries instead of sorting on the computed ``featured``."""
    return with_featured(matching(filters, base=base)).order_by(*PUBLIC_ORDER)


def matching(filters: SearchFilters, *, base: QuerySet[Listing] | None = None) -> QuerySet[Listing]:
    """The public listings matching ``filters``, unordered, read from the listings themselves.

    The reference of the search: pages of the public search are answered from the search row
    (``rows.matching_rows``, the same listings), this query where a ``base`` narrows the listings
    (a host's page) and by the property test that compares the two."""
    queryset = searchable_listings() if base is None else base
    if filters.title:
        queryset = title_filter(queryset, filters.title)
    if filters.property_type:
        queryset = queryset.filter(property_type=filters.property_type)
    if filters.city:
        queryset = queryset.filter(city__iexact=filters.city)
    if filters.country:
        queryset = queryset.filter(country__iexact=filters.country)
    for amenity_id in catalogue_ids(Amenity, filters.amenities) if filters.amenities else []:
        queryset = queryset.filter(_any_row(Listing.amenities.through.objects.filter(amenity_id=amenity_id)))
    for facility_id in catalogue_ids(Facility, filters.facilities) if filters.facilities else []:
        queryset = queryset.filter(_any_row(Listing.facilities.through.objects.filter(facility_id=facility_id)))
    if filters.space_offerings:
        queryset = queryset.filter(_any_row(SpaceOffering.objects.filter(kind__in=filters.space_offerings)))
    if filters.min_price is not None or filters.max_price is not None or filters.period:
        offering_prices = SpaceOffering.objects.filter(_price_q("", filters))
        if filters.space_offerings:
            offering_prices = offering_prices.filter(kind__in=filters.space_offerings)
        queryset = queryset.filter(
            _for_type(
                filters,
                event=Q(property_type=PropertyType.EVENT_SPACE) & _price_q("", filters),
                office=Q(_any_row(offering_prices), property_type=PropertyType.OFFICE_SPACE),
            )
        )
    if filters.guests:
        queryset = queryset.filter(
            _for_type(
                filters,
                event=Q(property_type=PropertyType.EVENT_SPACE, guest__gte=filters.guests),
                office=Q(property_type=PropertyType.OFFICE_SPACE, number_of_seats__gte=filters.guests),
            )
        )
    if filters.bounds:
        queryset = queryset.filter(within_bounds(filters.bounds))
    if filters.start_date and filters.end_date:
        queryset = available_between(queryset, filters.start_date, filters.end_date)
    return queryset


def within_bounds(bounds) -> Q:
    """Inside the map box ``(south, west, north, east)``; a box whose west is east of its east
    crosses the antimeridian."""
    south, west, north, east = bounds
    inside = Q(latitude__gte=south, latitude__lte=north)
    if west <= east:
        return inside & Q(longitude__gte=west, longitude__lte=east)
    return inside & (Q(longitude__gte=west) | Q(longitude__lte=east))


def title_suggestions(text: str, *, limit: int = 10) -> list[dict[str, str]]:
    """The navbar's search: titles starting with ``text`` (alphabetical), then titles containing it
    (premium first, then newest), then, when none contains it, titles with a word close to it.
    At most five small queries, each served by an index and stopping after ``limit`` rows."""
    text = text.strip()[:MAX_TEXT]
    if not text:
        return []
    needle = text.upper()
    fields = ("id", "slug", "title")
    rows = list(
        searchable_listings()
        .alias(upper_title=Upper("title"))
        .filter(upper_title__startswith=needle)
        .order_by("upper_title", "id")
        .values(*fields)[:limit]
    )
    if len(rows) < limit:
        seen = [row["id"] for row in rows]
        matches = searchable_listings().filter(title__icontains=text).exclude(id__in=seen)
        rows += _premium_then_newest(matches, fields, limit - len(rows))
    if not rows:
        rows = _premium_then_newest(
            searchable_listings().filter(WordSimilar(Value(needle), Upper("title"))), fields, limit
        )
    return [{"_id": str(row["id"]), "slug": row["slug"], "title": row["title"]} for row in rows]


def _premium_then_newest(queryset: QuerySet[Listing], fields: tuple[str, ...], limit: int) -> list[dict[str, Any]]:
    """The first ``limit`` rows of ``queryset`` in ``PUBLIC_ORDER``: the premium ones, then the others.

    Each part is read newest first along its index and stops after ``limit`` matches; ordering
    on the computed ``featured`` instead fetched and sorted every match (thousands of rows for a
    common word, 30-90 ms at 100,000 listings)."""
    rows = list(queryset.filter(premium_now_q()).order_by(*NEWEST).values(*fields)[:limit])
    if len(rows) < limit:
        rows += list(queryset.exclude(premium_now_q()).order_by(*NEWEST).values(*fields)[: limit - len(rows)])
    return rows
