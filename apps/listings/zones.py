"""The IANA time zone a listing's times are in, found from its map pin or its city.

A listing's opening hours, slots, check-in and check-out are wall-clock times where the space is.
The zone is looked up when the listing is created (and when its address moves): from the map pin
first (timezonefinder: offline zone boundaries), else from the city, else from the country, else the
platform's display zone. The host can set it explicitly through the listing API.

``CITY_ZONES`` and ``COUNTRY_ZONES`` are also what the data migration used for existing listings
(``listings/migrations/0007_listing_time_zone``); keep the two in step when adding a city.
"""

from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings

# (city, country) -> zone, case-insensitive. The demo's 11 cities in 6 countries, and a few more.
CITY_ZONES: dict[tuple[str, str], str] = {
    ("toronto", "canada"): "America/Toronto",
    ("vancouver", "canada"): "America/Vancouver",
    ("montreal", "canada"): "America/Toronto",
    ("calgary", "canada"): "America/Edmonton",
    ("new york", "united states"): "America/New_York",
    ("san francisco", "united states"): "America/Los_Angeles",
    ("los angeles", "united states"): "America/Los_Angeles",
    ("seattle", "united states"): "America/Los_Angeles",
    ("chicago", "united states"): "America/Chicago",
    ("austin", "united states"): "America/Chicago",
    ("denver", "united states"): "America/Denver",
    ("bengaluru", "india"): "Asia/Kolkata",
    ("bangalore", "india"): "Asia/Kolkata",
    ("mumbai", "india"): "Asia/Kolkata",
    ("sydney", "australia"): "Australia/Sydney",
    ("melbourne", "australia"): "Australia/Melbourne",
    ("brisbane", "australia"): "Australia/Brisbane",
    ("perth", "australia"): "Australia/Perth",
    ("auckland", "new zealand"): "Pacific/Auckland",
    ("wellington", "new zealand"): "Pacific/Auckland",
    ("london", "united kingdom"): "Europe/London",
    ("manchester", "united kingdom"): "Europe/London",
}

# Country -> the zone most of its people live in (used when the city is not in the table).
COUNTRY_ZONES: dict[str, str] = {
    "canada": "America/Toronto",
    "united states": "America/New_York",
    "usa": "America/New_York",
    "india": "Asia/Kolkata",
    "australia": "Australia/Sydney",
    "new zealand": "Pacific/Auckland",
    "united kingdom": "Europe/London",
    "uk": "Europe/London",
}


def default_zone() -> str:
    return settings.DISPLAY_TIME_ZONE


@cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def is_valid_zone(name: str | None) -> bool:
    """An IANA zone name such as ``Asia/Kolkata`` (not an abbreviation, not a fixed offset)."""
    if not name or not isinstance(name, str) or name not in _zone_names():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


@cache
def _finder():
    from timezonefinder import TimezoneFinder

    return TimezoneFinder()


def zone_at(latitude, longitude) -> str | None:
    """The zone of a map pin; None off land (the sea's ``Etc/GMT±n`` zones are not a place's)."""
    if latitude is None or longitude is None:
        return None
    try:
        lat, lng = float(latitude), float(longitude)
    except (TypeError, ValueError):
        return None
    if not (-90 <= lat <= 90 and -180 <= lng <= 180) or (lat == 0 and lng == 0):
        return None
    name = _finder().timezone_at(lat=lat, lng=lng)
    if not name or name.startswith("Etc/") or not is_valid_zone(name):
        return None
    return name


def zone_for_city(city: str | None, country: str | None) -> str | None:
    city_key, country_key = (city or "").strip().lower(), (country or "").strip().lower()
    return CITY_ZONES.get((city_key, country_key)) or COUNTRY_ZONES.get(country_key)


def zone_for(*, city: str | None = None, country: str | None = None, latitude=None, longitude=None) -> str:
    """The listing's zone: map pin, else city, else country, else the display zone."""
    return zone_at(latitude, longitude) or zone_for_city(city, country) or default_zone()
