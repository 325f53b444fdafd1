"""Public discovery: the filters of the public search, the queries behind them and flat result cards.

Everything here reads only what a visitor may see: approved, active, available, not deleted
listings. The API (``GET /api/listing/property-listing``) and the server-rendered pages share
``SearchFilters`` (parsing and validation, one clear message per bad value) and ``search``.
"""

import hashlib
import json
import math
import re
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.cache import cache
from django.core.files.storage import default_storage
from django.db.models import BooleanField, Case, Exists, Func, OuterRef, Q, QuerySet, Value, When
from django.db.models.functions import Upper
from django.utils import timezone

from apps.core.api import PAGE_SIZE, Page
from apps.core.exceptions import InvalidInput

from . import providers, search_cache
from .models import (
    OFFERING_PERIODS,
    Amenity,
    Availability,
    Facility,
    Favourite,
    Listing,
    ListingImage,
    OfferingKind,
    Period,
    PropertyType,
    SpaceOffering,
)
from .policies import PUBLIC_LISTING, public_listings

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
    return Q(is_premium=True) & Q(providers.premium_now("host_id"))


def with_featured(queryset: QuerySet[Listing]) -> QuerySet[Listing]:
    """Annotate ``featured``; the host's membership is only looked up for listings marked premium."""
    return queryset.annotate(
        featured=Case(
            When(is_premium=True, then=providers.premium_now("host_id")),
            default=Value(False),
            output_field=BooleanField(),
        )
    )


CATEGORIES: dict[str, dict[str, str]] = {
    "coworking-spaces": {
        "property_type": PropertyType.OFFICE_SPACE,
        "name": "Coworking spaces",
        "blurb": "Hot desks, dedicated desks, private cabins, meeting rooms and virtual offices.",
    },
    "event-spaces": {
        "property_type": PropertyType.EVENT_SPACE,
        "name": "Event spaces",
        "blurb": "Venues for meetings, workshops, launches, parties and conferences.",
    },
}
CATEGORY_BY_TYPE = {value["property_type"]: slug for slug, value in CATEGORIES.items()}

# The values the spec's client sends for the fixed public filters; anything else is refused.
FIXED_FILTERS = {"status": "approved", "isActive": "true", "availability": "available", "isDeleted": "false"}
MAX_TEXT = 100
MAX_ITEMS = 20
MAX_RANGE_DAYS = 366
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
PRICE_PERIODS = (Period.HOURLY, Period.DAILY, Period.WEEKLY, Period.MONTHLY)


def _bad(name: str, message: str) -> InvalidInput:
    return InvalidInput(message, errors={name: [message]})


def _one(raw: dict[str, Any], name: str) -> str | None:
    value = raw.get(name)
    if isinstance(value, list):
        value = next((item for item in value if str(item).strip()), None)
    if value is None:
        return None
    value = str(value).strip()
    return value or None


def _text(raw: dict[str, Any], name: str, label: str) -> str | None:
    value = _one(raw, name)
    if value is None:
        return None
    if len(value) > MAX_TEXT:
        raise _bad(name, f"{label} may be at most {MAX_TEXT} characters.")
    if "\x00" in value:
        raise _bad(name, f"{label} contains a character that is not allowed.")
    return value


def _list(raw: dict[str, Any], name: str, label: str) -> list[str]:
    """A JSON array (``["a","b"]``), a comma-separated string, or repeated form values."""
    value = raw.get(name)
    if value is None:
        return []
    items: list[Any]
    if isinstance(value, list) and not (len(value) == 1 and str(value[0]).strip().startswith("[")):
        items = value
    else:
        text = (value[0] if isinstance(value, list) else str(value)).strip()
        if text.startswith(("[", "{")):
            try:
                items = json.loads(text)
            except ValueError:
                raise _bad(name, f'{label} must be a JSON array, for example ["a", "b"].')
            if not isinstance(items, list):
                raise _bad(name, f'{label} must be a JSON array, for example ["a", "b"].')
        else:
            items = text.split(",")
    cleaned: list[str] = []
    for item in items:
        if not isinstance(item, (str, int)) or isinstance(item, bool):
            raise _bad(name, f"{label} must be a list of names or ids.")
        text = str(item).strip()
        if not text:
            continue
        if len(text) > MAX_TEXT or "\x00" in text:
            raise _bad(name, f"{label} contains a value that is too long or not allowed.")
        if text not in cleaned:
            cleaned.append(text)
    if len(cleaned) > MAX_ITEMS:
        raise _bad(name, f"Choose at most {MAX_ITEMS} {label.lower()}.")
    return cleaned


def _decimal(raw: dict[str, Any], name: str, label: str) -> Decimal | None:
    value = _one(raw, name)
    if value is None:
        return None
    try:
        number = Decimal(value)
    except InvalidOperation:
        raise _bad(name, f"{label} must be a number.")
    if not number.is_finite() or number < 0 or number > Decimal("9999999999"):
        raise _bad(name, f"{label} must be a number between 0 and 9,999,999,999.")
    return number


def _whole(raw: dict[str, Any], name: str, label: str, *, low: int = 1, high: int = 100_000) -> int | None:
    value = _one(raw, name)
    if value is None:
        return None
    if not re.fullmatch(r"\d{1,7}", value):
        raise _bad(name, f"{label} must be a whole number.")
    number = int(value)
    if not low <= number <= high:
        raise _bad(name, f"{label} must be between {low} and {high:,}.")
    return number


def _date(raw: dict[str, Any], name: str, label: str) -> date | None:
    value = _one(raw, name)
    if value is None:
        return None
    message = f"{label} must be a date written as YYYY-MM-DD."
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}(T[0-9:.+\-Z]*)?", value):
        raise _bad(name, message)
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        raise _bad(name, message)


def _bounds(raw: dict[str, Any], name: str) -> tuple[Decimal, Decimal, Decimal, Decimal] | None:
    """``[south, west, north, east]`` in degrees, as a JSON array or comma-separated."""
    value = _one(raw, name)
    if value is None:
        return None
    message = "bounds must be [south, west, north, east] in degrees, for example [43.6, -79.5, 43.8, -79.2]."
    try:
        parts = json.loads(value) if value.startswith("[") else value.split(",")
        if not isinstance(parts, list) or len(parts) != 4 or any(isinstance(part, bool) for part in parts):
            raise ValueError
        south, west, north, east = (Decimal(str(part).strip()) for part in parts)
    except (ValueError, InvalidOperation, TypeError):
        raise _bad(name, message)
    if not all(number.is_finite() for number in (south, west, north, east)):
        raise _bad(name, message)
    if not (-90 <= south <= north <= 90 and -180 <= west <= 180 and -180 <= east <= 180):
        raise _bad(
            name,
            "bounds: latitudes must be between -90 and 90 with south below north; longitudes between -180 and 180.",
        )
    return south, west, north, east


@dataclass
class SearchFilters:
    """What a visitor asked for. Built from the API's ``filters[...]`` or a page's query string."""

    title: str | None = None
    property_type: str | None = None
    city: str | None = None
    country: str | None = None
    amenities: list[str] = field(default_factory=list)
    facilities: list[str] = field(default_factory=list)
    space_offerings: list[str] = field(default_factory=list)
    min_price: Decimal | None = None
    max_price: Decimal | None = None
    period: str | None = None
    guests: int | None = None
    bounds: tuple[Decimal, Decimal, Decimal, Decimal] | None = None
    start_date: date | None = None
    end_date: date | None = None

    ACCEPTED = (
        "title",
        "propertyType",
        "city",
        "country",
        "amenities",
        "facilities",
        "spaceOffering",
        "minPrice",
        "maxPrice",
        "period",
        "guests",
        "seats",
        "bounds",
        "startDate",
        "endDate",
        *FIXED_FILTERS,
    )

    @classmethod
    def parse(cls, raw: dict[str, Any], *, strict: bool = True) -> "SearchFilters":
        """Validate ``raw`` (name to a string or a list of strings). ``strict`` refuses unknown names."""
        if strict:
            unknown = sorted(name for name in raw if name not in cls.ACCEPTED)
            if unknown:
                message = f"Unknown filter: {unknown[0][:40]}. Accepted filters: {', '.join(cls.ACCEPTED)}."
                raise _bad(unknown[0][:40], message)
        for name, expected in FIXED_FILTERS.items():
            value = _one(raw, name)
            if value is not None and value != expected:
                raise _bad(
                    name,
                    f"The public search shows only approved, active, available listings: {name} must be {expected}.",
                )
        filters = cls(
            title=_text(raw, "title", "Title"),
            city=_text(raw, "city", "City"),
            country=_text(raw, "country", "Country"),
            amenities=_list(raw, "amenities", "Amenities"),
            facilities=_list(raw, "facilities", "Facilities"),
            space_offerings=_list(raw, "spaceOffering", "Space offerings"),
            min_price=_decimal(raw, "minPrice", "Minimum price"),
            max_price=_decimal(raw, "maxPrice", "Maximum price"),
            guests=_whole(raw, "guests", "Guests") or _whole(raw, "seats", "Seats"),
            bounds=_bounds(raw, "bounds"),
            start_date=_date(raw, "startDate", "Start date"),
            end_date=_date(raw, "endDate", "End date"),
        )
        property_type = _one(raw, "propertyType")
        if property_type is not None:
            if property_type not in PropertyType.values:
                raise _bad("propertyType", "propertyType must be eventSpace or officeSpace.")
            filters.property_type = property_type
        period = _one(raw, "period")
        if period is not None:
            if period not in PRICE_PERIODS:
                raise _bad("period", "period must be hourly, daily, weekly or monthly.")
            filters.period = period
        for kind in filters.space_offerings:
            if kind not in OfferingKind.values:
                raise _bad("spaceOffering", f"spaceOffering must be among: {', '.join(OfferingKind.values)}.")
        if filters.min_price is not None and filters.max_price is not None and filters.min_price > filters.max_price:
            raise _bad("maxPrice", "Maximum price must not be below the minimum price.")
        if filters.end_date and not filters.start_date:
            raise _bad("startDate", "Choose a start date with the end date.")
        if filters.start_date:
            filters.end_date = filters.end_date or filters.start_date
            if filters.end_date < filters.start_date:
                raise _bad("endDate", "End date must not be before the start date.")
            if (filters.end_date - filters.start_date).days >= MAX_RANGE_DAYS:
                raise _bad("endDate", f"A date range may span at most {MAX_RANGE_DAYS} days.")
        return filters

    def is_empty(self) -> bool:
        return self == SearchFilters()


# --- Queries -----------------------------------------------------------------


class WordSimilar(Func):
    """``q <% UPPER(title)``: pg_trgm word similarity, which forgives typos ("cowrking").

    Served by the trigram GIN index on ``UPPER(title)`` (migration ``search_...``).
    """

    arg_joiner = " <%% "
    template = "(%(expressions)s)"
    output_field = BooleanField()


def title_match(text: str) -> Q:
    """Titles containing ``text`` (case-insensitive) or a word close to it."""
    return Q(title__icontains=text) | Q(WordSimilar(Value(text.upper()), Upper("title")))


def title_filter(queryset: QuerySet[Listing], text: str) -> QuerySet[Listing]:
    """Titles containing ``text``; when none does, titles with a word close to it ("cowrking").

    Checking the plain match first (one cheap ``EXISTS``) keeps the costly similarity check for
    the rare searches that need it.
    """
    contains = queryset.filter(title__icontains=text)
    if contains.exists():
        return contains
    return queryset.filter(WordSimilar(Value(text.upper()), Upper("title")))


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


def _named(model, values: list[str]) -> list[str]:
    """Ids of admin-managed items given by id or by name; an unknown name matches no listing."""
    names = [value.upper() for value in values if not _is_uuid(value)]
    by_name: dict[str, str] = {}
    if names:
        by_name = {
            name.upper(): str(pk)
            for pk, name in model.objects.annotate(upper=Upper("name"))
            .filter(upper__in=names)
            .values_list("id", "name")
        }
    return [value if _is_uuid(value) else by_name.get(value.upper(), NO_MATCH) for value in values]


NO_MATCH = str(uuid.UUID(int=0))


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def available_between(queryset: QuerySet[Listing], start: date, end: date) -> QuerySet[Listing]:
    """Listings a renter could book from ``start`` to ``end`` (inclusive).

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
        queryset = queryset.exclude(opening_hours__contains={day: None})
    return queryset.exclude(pk__in=_booked_between(start, end))


def _within_notice_and_window(queryset: QuerySet[Listing], start: date) -> QuerySet[Listing]:
    """Leave out listings whose booking window does not reach ``start`` or whose minimum notice
    leaves no time on that day (the booking services apply the same rules to the exact times)."""
    now = timezone.now().astimezone(LOCAL_TZ)
    queryset = queryset.exclude(booking_window_days__lt=(start - now.date()).days)
    day_ends = datetime.combine(start + timedelta(days=1), time(0), tzinfo=LOCAL_TZ)
    hours_left = (day_ends - now).total_seconds() / 3600
    return queryset.exclude(minimum_notice_hours__gte=max(0, math.ceil(hours_left)))


def _booked_between(start: date, end: date) -> QuerySet:
    """Listings fully booked over the local days ``start`` to ``end`` (the bookings app decides)."""
    return providers.booked_between(start, end)


def search(filters: SearchFilters, *, base: QuerySet[Listing] | None = None) -> QuerySet[Listing]:
    """The public listings matching ``filters``, premium first then newest (see ``PUBLIC_ORDER``).

    For a page of results ``search_page`` reads the premium ones and the others as two
    index-ordered queries instead of sorting on the computed ``featured``."""
    return with_featured(matching(filters, base=base)).order_by(*PUBLIC_ORDER)


def matching(filters: SearchFilters, *, base: QuerySet[Listing] | None = None) -> QuerySet[Listing]:
    """The public listings matching ``filters``, unordered."""
    queryset = searchable_listings() if base is None else base
    if filters.title:
        queryset = title_filter(queryset, filters.title)
    if filters.property_type:
        queryset = queryset.filter(property_type=filters.property_type)
    if filters.city:
        queryset = queryset.filter(city__iexact=filters.city)
    if filters.country:
        queryset = queryset.filter(country__iexact=filters.country)
    for amenity_id in _named(Amenity, filters.amenities) if filters.amenities else []:
        queryset = queryset.filter(
            Exists(Listing.amenities.through.objects.filter(listing_id=OuterRef("pk"), amenity_id=amenity_id))
        )
    for facility_id in _named(Facility, filters.facilities) if filters.facilities else []:
        queryset = queryset.filter(
            Exists(Listing.facilities.through.objects.filter(listing_id=OuterRef("pk"), facility_id=facility_id))
        )
    if filters.space_offerings:
        queryset = queryset.filter(
            Exists(SpaceOffering.objects.filter(listing_id=OuterRef("pk"), kind__in=filters.space_offerings))
        )
    if filters.min_price is not None or filters.max_price is not None or filters.period:
        offering_prices = SpaceOffering.objects.filter(_price_q("", filters), listing_id=OuterRef("pk"))
        if filters.space_offerings:
            offering_prices = offering_prices.filter(kind__in=filters.space_offerings)
        queryset = queryset.filter(
            _for_type(
                filters,
                event=Q(property_type=PropertyType.EVENT_SPACE) & _price_q("", filters),
                office=Q(Exists(offering_prices), property_type=PropertyType.OFFICE_SPACE),
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
        south, west, north, east = filters.bounds
        queryset = queryset.filter(latitude__gte=south, latitude__lte=north)
        if west <= east:
            queryset = queryset.filter(longitude__gte=west, longitude__lte=east)
        else:  # the box crosses the antimeridian
            queryset = queryset.filter(Q(longitude__gte=west) | Q(longitude__lte=east))
    if filters.start_date and filters.end_date:
        queryset = available_between(queryset, filters.start_date, filters.end_date)
    return queryset


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


# --- Pages of results ------------------------------------------------------

COUNT_CACHE_SECONDS = 60


def cached_count(queryset: QuerySet[Listing], filters: SearchFilters) -> int:
    """The number of matches, kept a minute per filter set: counting every public listing takes
    tens of milliseconds at 100,000 rows, while the page itself is an index scan of ten rows.
    A change to a listing retires the kept totals with the stored answers (``search_cache``);
    other changes (a host suspended, premium ending, a date booked) show within the minute."""
    key = "listings:search-count:" + hashlib.sha1(repr(filters).encode(), usedforsecurity=False).hexdigest()
    found = cache.get_many([search_cache.VERSION_KEY, key])
    version, stored = found.get(search_cache.VERSION_KEY), found.get(key)
    if stored is not None and stored[0] == version:
        return stored[1]
    total = queryset.count()
    cache.set(key, (version, total), COUNT_CACHE_SECONDS)
    return total


def search_page(
    params, filters: SearchFilters, *, user=None, base: QuerySet[Listing] | None = None
) -> tuple[Page, list]:
    """One page (``page``, ``limit`` from ``params``; page size 10) of result cards."""
    page_number = _page_param(params, "page", 1)
    limit = min(_page_param(params, "limit", PAGE_SIZE), PAGE_SIZE)
    queryset = matching(filters, base=base)
    total = cached_count(queryset, filters) if base is None else queryset.count()
    start = (page_number - 1) * limit
    rows = featured_first(queryset, start, limit) if start < total else []
    return Page(items=rows, total_count=total, page=page_number, limit=limit), cards(rows, user=user)


def featured_first(queryset: QuerySet[Listing], start: int, limit: int) -> list[dict[str, Any]]:
    """Rows ``start`` to ``start + limit`` of ``queryset`` in ``PUBLIC_ORDER``, as card rows.

    Premium listings are few, so they are read apart (index on the premium rows), then the others
    follow newest first (index on the newest order): each query reads about one page of rows,
    where sorting every match on the computed ``featured`` would read them all. Only pages after
    the first count the premium matches, to know where the others start.
    """
    premium = queryset.filter(premium_now_q())
    rows: list[dict[str, Any]] = []
    if start == 0:
        # The first page reads the premium rows straight away: fewer than a page means that is all of them.
        rows = list(_card_rows(premium.annotate(featured=Value(True)))[:limit])
        premium_count = len(rows)
    else:
        premium_count = premium.count()
        if start < premium_count:
            rows = list(_card_rows(premium.annotate(featured=Value(True)))[start : start + limit])
    if len(rows) < limit:
        offset = max(0, start - premium_count)
        rest = _card_rows(queryset.exclude(premium_now_q()).annotate(featured=Value(False)))
        rows += list(rest[offset : offset + limit - len(rows)])
    return rows


def _card_rows(queryset: QuerySet[Listing]) -> QuerySet:
    """Card rows, newest first (``cards`` adds their images and offerings in two queries; reading
    them in the same query as array subqueries cost more to build in Python than it saved)."""
    return queryset.order_by(*NEWEST).values(*CARD_FIELDS)


def _page_param(params, name: str, default: int) -> int:
    raw = params.get(name)
    if raw in (None, ""):
        return default
    if not re.fullmatch(r"\d{1,9}", str(raw)) or int(raw) < 1:
        raise _bad(name, f"{name} must be a whole number, 1 or more.")
    return int(raw)


# --- Result cards ------------------------------------------------------------

CARD_FIELDS = (
    "id",
    "slug",
    "title",
    "property_type",
    "city",
    "state",
    "country",
    "street_address",
    "address",
    "latitude",
    "longitude",
    "hourly",
    "daily",
    "weekly",
    "monthly",
    "discount",
    "payment_preference",
    "number_of_seats",
    "guest",
    "dimension",
    "minimum_days",
    "featured",
    "rating_average",
    "rating_count",
    "status",
    "is_active",
    "availability",
)


def _money(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


def image_url(path: str, *, small: bool = False) -> str:
    """The public URL of a stored listing image (``small``: the 480 px copy stored beside it)."""
    if small:
        stem, dot, extension = path.rpartition(".")
        path = f"{stem}-sm{dot}{extension}"
    return default_storage.url(path)


def cards(rows, *, user=None) -> list[dict[str, Any]]:
    """Turn rows of ``queryset.values(*CARD_FIELDS)`` into flat API dictionaries: two queries whatever the
    number of rows (their images, their offerings), plus one for a signed-in user's favourites."""
    rows = list(rows)
    if not rows:
        return []
    ids = [row["id"] for row in rows]
    images: dict[Any, list[str]] = {}
    for listing_id, path in (
        ListingImage.objects.filter(listing_id__in=ids).order_by("position").values_list("listing_id", "path")
    ):
        images.setdefault(listing_id, []).append(path)
    offerings: dict[Any, list[dict[str, Any]]] = {}
    for offering in (
        SpaceOffering.objects.filter(listing_id__in=ids)
        .order_by("kind")
        .values("id", "listing_id", "kind", "hourly", "daily", "weekly", "monthly", "seats", "minimum_period")
    ):
        offerings.setdefault(offering["listing_id"], []).append(_offering_card(offering))
    liked: set = set()
    if user is not None and user.is_authenticated:
        liked = set(Favourite.objects.filter(user=user, listing_id__in=ids).values_list("listing_id", flat=True))
    out = []
    for row in rows:
        paths = images.get(row["id"], [])
        out.append(
            {
                "_id": str(row["id"]),
                "slug": row["slug"],
                "title": row["title"],
                "status": row["status"],
                "isActive": row["is_active"],
                "availability": row["availability"],
                "propertyType": row["property_type"],
                "streetAddress": row["street_address"],
                "city": row["city"],
                "state": row["state"],
                "country": row["country"],
                "address": row["address"],
                "latitude": None if row["latitude"] is None else str(row["latitude"]),
                "longitude": None if row["longitude"] is None else str(row["longitude"]),
                "images": paths,
                "hourly": _money(row["hourly"]),
                "daily": _money(row["daily"]),
                "weekly": _money(row["weekly"]),
                "monthly": _money(row["monthly"]),
                "discount": _money(row["discount"]),
                "paymentPreference": row["payment_preference"],
                "spaceOffering": offerings.get(row["id"], []),
                "numberOfSeats": row["number_of_seats"],
                "guest": row["guest"],
                "dimension": row["dimension"],
                "minimumDays": row["minimum_days"],
                "isPremium": bool(row.get("featured")),
                "reviews": {"rating": f"{row['rating_average']:.2f}", "count": row["rating_count"]},
                "favourite": row["id"] in liked,
                "fromPrice": _from_price(row, offerings.get(row["id"], [])),
            }
        )
    return out


def _offering_card(offering: dict[str, Any]) -> dict[str, Any]:
    """One offering on a card."""
    return {
        "_id": str(offering["id"]),
        "kind": offering["kind"],
        "title": OfferingKind(offering["kind"]).label,
        "hourly": _money(offering["hourly"]),
        "daily": _money(offering["daily"]),
        "weekly": _money(offering["weekly"]),
        "monthly": _money(offering["monthly"]),
        "periods": list(OFFERING_PERIODS[offering["kind"]]),
        "seats": offering["seats"],
        "minimumPeriod": offering["minimum_period"],
    }


def _from_price(row: dict[str, Any], offerings: list[dict[str, Any]]) -> dict[str, str] | None:
    """The lowest price to show on a card, with its period ("from $25.00 / Hour")."""
    candidates: list[tuple[Decimal, str]] = []
    for period in PRICE_PERIODS:
        if row.get(period) is not None:
            candidates.append((row[period], period))
    for offering in offerings:
        for period in PRICE_PERIODS:
            if offering[period] is not None:
                candidates.append((Decimal(offering[period]), period))
    if not candidates:
        return None
    price, period = min(candidates, key=lambda item: (PRICE_PERIODS.index(item[1]), item[0]))
    return {"amount": f"{price:.2f}", "period": period, "label": Period(period).label}
