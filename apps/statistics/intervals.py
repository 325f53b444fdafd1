"""Dashboard intervals (spec 2.4): a week runs Sunday to Saturday, a month view covers January to
December of this year, a year view the last 10 years; all in the display time zone."""

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

from apps.core.exceptions import InvalidInput

INTERVALS = ("week", "month", "year")
WEEK_LABELS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
MONTH_LABELS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
YEARS = 10
LOCAL_TZ = ZoneInfo(settings.DISPLAY_TIME_ZONE)


def check_interval(value: str, name: str = "interval") -> str:
    if value not in INTERVALS:
        message = "Interval must be week, month or year."
        raise InvalidInput(message, errors={name: [message]})
    return value


@dataclass(frozen=True)
class Bucket:
    label: str
    year: int
    start: dt.datetime
    end: dt.datetime


def _local_midnight(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tzinfo=LOCAL_TZ)


def today(now: dt.datetime | None = None) -> dt.date:
    return (now or timezone.now()).astimezone(LOCAL_TZ).date()


def current_window(interval: str, now: dt.datetime | None = None) -> tuple[dt.datetime, dt.datetime]:
    """The period the stat cards count: this week (from Sunday), this month, or this year."""
    day = today(now)
    if interval == "week":
        sunday = day - dt.timedelta(days=(day.weekday() + 1) % 7)
        return _local_midnight(sunday), _local_midnight(sunday + dt.timedelta(days=7))
    if interval == "month":
        first = day.replace(day=1)
        following = (first + dt.timedelta(days=32)).replace(day=1)
        return _local_midnight(first), _local_midnight(following)
    return _local_midnight(dt.date(day.year, 1, 1)), _local_midnight(dt.date(day.year + 1, 1, 1))


def buckets(interval: str, now: dt.datetime | None = None) -> list[Bucket]:
    """The chart's periods: 7 days Sun..Sat of this week, 12 months Jan..Dec of this year, or the
    last 10 calendar years, oldest first."""
    day = today(now)
    if interval == "week":
        sunday = day - dt.timedelta(days=(day.weekday() + 1) % 7)
        days = [sunday + dt.timedelta(days=n) for n in range(8)]
        return [
            Bucket(WEEK_LABELS[n], days[n].year, _local_midnight(days[n]), _local_midnight(days[n + 1]))
            for n in range(7)
        ]
    if interval == "month":
        starts = [dt.date(day.year, month, 1) for month in range(1, 13)] + [dt.date(day.year + 1, 1, 1)]
        return [
            Bucket(MONTH_LABELS[n], day.year, _local_midnight(starts[n]), _local_midnight(starts[n + 1]))
            for n in range(12)
        ]
    first = day.year - YEARS + 1
    return [
        Bucket(str(year), year, _local_midnight(dt.date(year, 1, 1)), _local_midnight(dt.date(year + 1, 1, 1)))
        for year in range(first, day.year + 1)
    ]


def trunc_kind(interval: str) -> str:
    """The ``date_trunc`` unit whose values start the buckets of ``interval``."""
    return {"week": "day", "month": "month", "year": "year"}[interval]
