"""The public search's filters: parsing and validation, one clear message per bad value."""

import json
import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from apps.core.exceptions import InvalidInput

from ..models import OfferingKind, Period, PropertyType

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


def invalid_param(name: str, message: str) -> InvalidInput:
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
        raise invalid_param(name, f"{label} may be at most {MAX_TEXT} characters.")
    if "\x00" in value:
        raise invalid_param(name, f"{label} contains a character that is not allowed.")
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
                raise invalid_param(name, f'{label} must be a JSON array, for example ["a", "b"].')
            if not isinstance(items, list):
                raise invalid_param(name, f'{label} must be a JSON array, for example ["a", "b"].')
        else:
            items = text.split(",")
    cleaned: list[str] = []
    for item in items:
        if not isinstance(item, (str, int)) or isinstance(item, bool):
            raise invalid_param(name, f"{label} must be a list of names or ids.")
        text = str(item).strip()
        if not text:
            continue
        if len(text) > MAX_TEXT or "\x00" in text:
            raise invalid_param(name, f"{label} contains a value that is too long or not allowed.")
        if text not in cleaned:
            cleaned.append(text)
    if len(cleaned) > MAX_ITEMS:
        raise invalid_param(name, f"Choose at most {MAX_ITEMS} {label.lower()}.")
    return cleaned


def _decimal(raw: dict[str, Any], name: str, label: str) -> Decimal | None:
    value = _one(raw, name)
    if value is None:
        return None
    try:
        number = Decimal(value)
    except InvalidOperation:
        raise invalid_param(name, f"{label} must be a number.")
    if not number.is_finite() or number < 0 or number > Decimal("9999999999"):
        raise invalid_param(name, f"{label} must be a number between 0 and 9,999,999,999.")
    return number


def _whole(raw: dict[str, Any], name: str, label: str, *, low: int = 1, high: int = 100_000) -> int | None:
    value = _one(raw, name)
    if value is None:
        return None
    if not re.fullmatch(r"\d{1,7}", value):
        raise invalid_param(name, f"{label} must be a whole number.")
    number = int(value)
    if not low <= number <= high:
        raise invalid_param(name, f"{label} must be between {low} and {high:,}.")
    return number


def _date(raw: dict[str, Any], name: str, label: str) -> date | None:
    value = _one(raw, name)
    if value is None:
        return None
    message = f"{label} must be a date written as YYYY-MM-DD."
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}(T[0-9:.+\-Z]*)?", value):
        raise invalid_param(name, message)
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        raise invalid_param(name, message)


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
        raise invalid_param(name, message)
    if not all(number.is_finite() for number in (south, west, north, east)):
        raise invalid_param(name, message)
    if not (-90 <= south <= north <= 90 and -180 <= west <= 180 and -180 <= east <= 180):
        raise invalid_param(
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
                raise invalid_param(unknown[0][:40], message)
        for name, expected in FIXED_FILTERS.items():
            value = _one(raw, name)
            if value is not None and value != expected:
                raise invalid_param(
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
                raise invalid_param("propertyType", "propertyType must be eventSpace or officeSpace.")
            filters.property_type = property_type
        period = _one(raw, "period")
        if period is not None:
            if period not in PRICE_PERIODS:
                raise invalid_param("period", "period must be hourly, daily, weekly or monthly.")
            filters.period = period
        for kind in filters.space_offerings:
            if kind not in OfferingKind.values:
                raise invalid_param("spaceOffering", f"spaceOffering must be among: {', '.join(OfferingKind.values)}.")
        if filters.min_price is not None and filters.max_price is not None and filters.min_price > filters.max_price:
            raise invalid_param("maxPrice", "Maximum price must not be below the minimum price.")
        if filters.end_date and not filters.start_date:
            raise invalid_param("startDate", "Choose a start date with the end date.")
        if filters.start_date:
            filters.end_date = filters.end_date or filters.start_date
            if filters.end_date < filters.start_date:
                raise invalid_param("endDate", "End date must not be before the start date.")
            if (filters.end_date - filters.start_date).days >= MAX_RANGE_DAYS:
                raise invalid_param("endDate", f"A date range may span at most {MAX_RANGE_DAYS} days.")
        return filters


# --- Queries -----------------------------------------------------------------
