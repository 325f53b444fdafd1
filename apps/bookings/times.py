"""Dates and times as renters see them: dd-MM-yyyy, 12-hour 30-minute slots, in the listing's zone.

A booking's times are wall-clock times where the space is (``Listing.time_zone``, an IANA name):
"10:00 AM" at a Mumbai venue is 10:00 Asia/Kolkata. The moments are stored in UTC. Dates with no
listing behind them (payment lists, notifications) stay in the platform's display zone,
America/New_York (``LOCAL_TZ``).

Daylight-saving changes: a wall time that does not exist on a day (the hour skipped when clocks
go forward) is refused; one that happens twice (clocks go back) means the first of the two.
"""

import datetime as dt
import re
from zoneinfo import ZoneInfo

from django.conf import settings

from apps.core.exceptions import InvalidInput

LOCAL_TZ = ZoneInfo(settings.DISPLAY_TIME_ZONE)
SLOT_MINUTES = 30
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

_TIME_12 = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*([AaPp][Mm])\s*$")
_TIME_24 = re.compile(r"^\s*(\d{1,2}):(\d{2})(?::00)?\s*$")


def parse_date(value, field: str) -> dt.date:
    """Accept ``yyyy-MM-dd`` (ISO) or ``dd-MM-yyyy`` (as displayed)."""
    if isinstance(value, dt.date):
        return value
    text = str(value or "").strip()
    for fmt in ("%Y-%m-%d", "%d-%m-%Y"):
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    message = "Enter a date as dd-MM-yyyy or yyyy-MM-dd."
    raise InvalidInput(message, errors={field: [message]})


def parse_time(value, field: str) -> dt.time:
    """Accept ``hh:mm AM``/``PM`` (as displayed) or ``HH:MM``; it must fall on a 30-minute slot."""
    if isinstance(value, dt.time):
        parsed = value
    else:
        text = str(value or "")
        parsed = None
        if match := _TIME_12.match(text):
            hour, minute = int(match[1]), int(match[2])
            if 1 <= hour <= 12 and minute < 60:
                hour = hour % 12 + (12 if match[3].lower() == "pm" else 0)
                parsed = dt.time(hour, minute)
        elif match := _TIME_24.match(text):
            hour, minute = int(match[1]), int(match[2])
            if hour < 24 and minute < 60:
                parsed = dt.time(hour, minute)
        if parsed is None:
            message = "Enter a time such as 09:30 AM."
            raise InvalidInput(message, errors={field: [message]})
    if parsed.minute % SLOT_MINUTES or parsed.second or parsed.microsecond:
        message = "Times go in 30-minute slots (for example 09:00 AM or 09:30 AM)."
        raise InvalidInput(message, errors={field: [message]})
    return parsed


def zone_of(listing_or_name) -> ZoneInfo:
    """The zone of a listing (or an IANA name); the display zone when it has none."""
    name = listing_or_name if isinstance(listing_or_name, str) else getattr(listing_or_name, "time_zone", "")
    return ZoneInfo(name or settings.DISPLAY_TIME_ZONE)


def exists_locally(day: dt.date, time: dt.time, tz: ZoneInfo) -> bool:
    """False for a wall time skipped by a daylight-saving change (02:30 on a spring-forward night)."""
    wall = dt.datetime.combine(day, time, tzinfo=tz)
    return wall.astimezone(dt.UTC).astimezone(tz).replace(tzinfo=None) == wall.replace(tzinfo=None)


def local_datetime(day: dt.date, time: dt.time, tz: ZoneInfo = LOCAL_TZ, field: str | None = None) -> dt.datetime:
    """The moment ``day time`` in ``tz``, as an aware datetime in UTC.

    A repeated wall time (clocks going back) is its first occurrence. A skipped one (clocks going
    forward) raises InvalidInput on ``field`` when a field is named; without one it is read with
    the offset before the change (Python's rule), for callers that only need an approximate bound.
    """
    if field is not None and not exists_locally(day, time, tz):
        message = (
            f"{format_time(time)} does not exist on {format_date(day)} in {tz.key}: the clocks go forward "
            "that night. Please choose another time."
        )
        raise InvalidInput(message, errors={field: [message]})
    return dt.datetime.combine(day, time, tzinfo=tz).astimezone(dt.UTC)


def to_local(moment: dt.datetime, tz: ZoneInfo = LOCAL_TZ) -> dt.datetime:
    return moment.astimezone(tz)


def format_date(day: dt.date | dt.datetime, tz: ZoneInfo = LOCAL_TZ) -> str:
    if isinstance(day, dt.datetime):
        day = to_local(day, tz).date()
    return day.strftime("%d-%m-%Y")


def format_time(time: dt.time | dt.datetime, tz: ZoneInfo = LOCAL_TZ) -> str:
    if isinstance(time, dt.datetime):
        time = to_local(time, tz).time()
    return time.strftime("%I:%M %p")


def zone_abbreviation(tz: ZoneInfo, moment: dt.datetime | None = None) -> str:
    """The zone's short name at ``moment`` (IST, EDT, AEDT...); "UTC+04" where the zone has none."""
    moment = moment or dt.datetime.now(dt.UTC)
    name = moment.astimezone(tz).tzname() or tz.key
    return f"UTC{name}" if name[:1] in "+-" else name


def format_clock(moment: dt.datetime, tz: ZoneInfo) -> str:
    """ "10:00 AM IST": the wall time in ``tz`` with the zone named."""
    return f"{format_time(moment, tz)} {zone_abbreviation(tz, moment)}"


def format_moment(moment: dt.datetime, tz: ZoneInfo) -> str:
    """ "24-11-2026 10:00 AM IST"."""
    return f"{format_date(moment, tz)} {format_clock(moment, tz)}"


def parse_clock(value: str | None) -> dt.time | None:
    """Opening-hours clock ``HH:MM``; ``24:00`` is the end of the day (returned as None)."""
    if not value or value in ("24:00", "23:59"):
        return None
    hour, minute = (int(part) for part in str(value).split(":")[:2])
    return dt.time(hour, minute)


def opening_for(opening_hours: dict, day: dt.date) -> tuple[dt.time, dt.time | None] | None:
    """(open, close) for the day, close None meaning midnight; None when the space is closed.

    An empty ``opening_hours`` means open around the clock; a weekday missing from a non-empty
    one is open around the clock too; a weekday set to null is closed.
    """
    if not isinstance(opening_hours, dict) or not opening_hours:
        return (dt.time(0, 0), None)
    key = WEEKDAYS[day.weekday()]
    if key not in opening_hours:
        return (dt.time(0, 0), None)
    hours = opening_hours[key]
    if not hours:
        return None
    try:
        opens = parse_clock(hours.get("open")) or dt.time(0, 0)
        closes = parse_clock(hours.get("close"))
    except (ValueError, AttributeError, TypeError):
        return (dt.time(0, 0), None)
    if closes is not None and closes <= opens:
        closes = None
    return (opens, closes)
