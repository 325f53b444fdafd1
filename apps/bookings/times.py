"""Dates and times as renters see them (America/New_York, dd-MM-yyyy, 12-hour 30-minute slots)."""

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


def local_datetime(day: dt.date, time: dt.time) -> dt.datetime:
    """The moment ``day time`` in America/New_York, as an aware datetime in UTC."""
    return dt.datetime.combine(day, time, tzinfo=LOCAL_TZ).astimezone(dt.UTC)


def to_local(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(LOCAL_TZ)


def format_date(day: dt.date | dt.datetime) -> str:
    if isinstance(day, dt.datetime):
        day = to_local(day).date()
    return day.strftime("%d-%m-%Y")


def format_time(time: dt.time | dt.datetime) -> str:
    if isinstance(time, dt.datetime):
        time = to_local(time).time()
    return time.strftime("%I:%M %p")


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
