"""An iCal feed read into the blocks it holds, with a maintained parser (``icalendar``) and its
recurrence expander (``recurring-ical-events``: RRULE, RDATE, EXDATE and moved occurrences).

- Timed events with a TZID (and the feed's VTIMEZONE), in UTC, or floating (no zone: read in the
  listing's zone, as the host would read them); all-day events cover the listing's local days.
- DTEND, or DURATION, or the RFC 5545 default (one day for an all-day event).
- Cancelled (STATUS:CANCELLED) and free (TRANSP:TRANSPARENT) events block nothing.
- An event whose dates or repeat rule cannot be read fails the whole feed (skipping it could leave
  a booked time open), like a feed that is not iCal at all.
- Occurrences are expanded from a day ago to the booking horizon (the furthest a booking can end).
"""

import datetime as dt
import hashlib
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
import x_wr_timezone
from django.utils import timezone

from apps.listings.models import MAX_BOOKING_WINDOW_DAYS

from ..services.planning import MAX_BOOKING_DAYS

MAX_EVENTS = 5000
# A booking may start up to the longest booking window ahead and last up to a year.
HORIZON = dt.timedelta(days=MAX_BOOKING_WINDOW_DAYS + MAX_BOOKING_DAYS + 1)


WINDOW = dt.timedelta(days=120)
SHORTEST_WINDOW = dt.timedelta(hours=1)
# Rules that would expand to more occurrences than a feed may hold, whatever their events say.
TOO_FREQUENT = {"SECONDLY", "MINUTELY"}


class FeedError(Exception):
    """The feed is not a calendar we can read; the message is shown to the host."""


@dataclass(frozen=True)
class Block:
    uid: str
    start: dt.datetime  # aware, UTC
    end: dt.datetime
    summary: str


def _moment(value, tz: ZoneInfo) -> dt.datetime:
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:  # floating: the listing's wall clock
            value = value.replace(tzinfo=tz)
        return value.astimezone(dt.UTC)
    # A date: the listing's local midnight.
    return dt.datetime.combine(value, dt.time(0), tzinfo=tz).astimezone(dt.UTC)


def _text(event, name: str) -> str:
    value = event.get(name)
    return str(value).strip() if value is not None else ""


def _block(event, tz: ZoneInfo) -> Block | None:
    if _text(event, "STATUS").upper() == "CANCELLED" or _text(event, "TRANSP").upper() == "TRANSPARENT":
        return None
    start_prop = event.get("DTSTART")
    if start_prop is None:
        return None
    raw_start = start_prop.dt
    end_prop = event.get("DTEND")
    if end_prop is not None:
        raw_end = end_prop.dt
    elif event.get("DURATION") is not None:
        raw_end = raw_start + event.get("DURATION").dt
    elif isinstance(raw_start, dt.datetime):
        raw_end = raw_start
    else:
        raw_end = raw_start + dt.timedelta(days=1)
    start, end = _moment(raw_start, tz), _moment(raw_end, tz)
    if end <= start:
        return None
    uid = _text(event, "UID") or hashlib.sha256(_text(event, "SUMMARY").encode()).hexdigest()[:32]
    key = f"{uid[:250]}|{start.strftime('%Y%m%dT%H%M%SZ')}"
    return Block(uid=key, start=start, end=end, summary=_text(event, "SUMMARY")[:200])


def _check_rules(calendar) -> None:
    """Refuse repeat rules that would expand past the cap before expanding them."""
    for event in calendar.walk("VEVENT"):
        rules = event.get("RRULE")
        for rule in rules if isinstance(rules, list) else [rules] if rules is not None else []:
            freq = str((rule.get("FREQ") or [""])[0]).upper()
            count = rule.get("COUNT")
            bounded = rule.get("UNTIL") is not None or (count and int(count[0]) <= MAX_EVENTS)
            if freq in TOO_FREQUENT or (freq == "HOURLY" and not bounded):
                raise FeedError("The calendar has an event that repeats more often than hourly without end.")


def _most_per_day(rule) -> int:
    """The most occurrences a repeat rule can make in a day: one a day (one an hour for HOURLY),
    times its BYHOUR, BYMINUTE and BYSECOND lists. Other BY-parts only pick days, at most one each."""

    def count(part: str) -> int:
        values = rule.get(part)
        return max(1, len(values)) if values else 1

    hourly = str((rule.get("FREQ") or [""])[0]).upper() == "HOURLY"
    return (24 if hourly else count("BYHOUR")) * count("BYMINUTE") * count("BYSECOND")


def _window(calendar) -> dt.timedelta:
    """The span expanded at a time, so that one span makes at most about ``MAX_EVENTS`` occurrences
    whatever the rules say: the cap is checked after each span, before a rule such as
    ``FREQ=DAILY;BYHOUR=0,…,23;BYMINUTE=0,…,59`` (1,440 a day) can expand for long."""
    per_day = 1
    for event in calendar.walk("VEVENT"):
        rules = event.get("RRULE")
        for rule in rules if isinstance(rules, list) else [rules] if rules is not None else []:
            per_day += _most_per_day(rule)
    return min(WINDOW, max(SHORTEST_WINDOW, dt.timedelta(days=MAX_EVENTS / per_day)))


def parse_feed(data: bytes, *, tz: ZoneInfo, now: dt.datetime | None = None) -> list[Block]:
    """The blocks of the feed within the horizon, or FeedError (then nothing may change)."""
    now = now or timezone.now()
    data = (data or b"").removeprefix(b"\xef\xbb\xbf")
    if not data.lstrip().upper().startswith(b"BEGIN:VCALENDAR"):
        raise FeedError("This address does not answer an iCal calendar (it should start with BEGIN:VCALENDAR).")
    try:
        calendar = icalendar.Calendar.from_ical(data)
    except Exception:  # noqa: BLE001 - the parser raises ValueError, KeyError, IndexError on bad input
        raise FeedError("The calendar could not be read: it is not valid iCal (RFC 5545).") from None
    if calendar.name != "VCALENDAR":
        raise FeedError("This address does not answer an iCal calendar.")
    if len(calendar.walk("VEVENT")) > MAX_EVENTS:
        raise FeedError(f"The calendar has more than {MAX_EVENTS:,} events.")
    # Google's exports name the calendar's zone in X-WR-TIMEZONE for their UTC times.
    try:
        _check_rules(calendar)
        calendar = x_wr_timezone.to_standard(calendar)
        query = recurring_ical_events.of(calendar)
        blocks: dict[str, Block] = {}
        # Window by window (``between`` is several times faster than the ``after`` generator), so a
        # feed over the cap stops at the first window that passes it, having expanded at most about
        # twice the cap (``_window``).
        lower, horizon_end = now - dt.timedelta(days=1), now + HORIZON
        window = _window(calendar)
        while lower < horizon_end:
            upper = min(lower + window, horizon_end)
            for event in query.between(lower, upper):
                block = _block(event, tz)
                if block is not None:
                    blocks.setdefault(block.uid, block)
            if len(blocks) > MAX_EVENTS:
                raise FeedError(f"The calendar has more than {MAX_EVENTS:,} events in the next years.")
            lower = upper
    except FeedError:
        raise
    except Exception:  # noqa: BLE001 - a broken RRULE, a date that does not exist, an unknown zone
        raise FeedError("The calendar could not be read: an event's dates or repeat rule are not valid.") from None
    return sorted(blocks.values(), key=lambda block: (block.start, block.uid))
