"""Periods of the dashboard intervals, in New York time."""

import datetime as dt

import pytest

from apps.core.exceptions import InvalidInput
from apps.statistics import intervals

UTC = dt.UTC
NY = intervals.LOCAL_TZ


def test_week_runs_sunday_to_saturday_in_new_york():
    # Sunday 2026-11-22 02:00 UTC is still Saturday 21 November in New York.
    now = dt.datetime(2026, 11, 22, 2, tzinfo=UTC)
    periods = intervals.buckets("week", now)
    assert [p.label for p in periods] == ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    assert periods[0].start == dt.datetime(2026, 11, 15, tzinfo=NY)
    assert periods[-1].end == dt.datetime(2026, 11, 22, tzinfo=NY)
    assert intervals.current_window("week", now) == (periods[0].start, periods[-1].end)


def test_month_view_is_january_to_december_and_window_is_this_month():
    now = dt.datetime(2026, 3, 1, 3, tzinfo=UTC)  # 28 February in New York
    periods = intervals.buckets("month", now)
    assert [p.label for p in periods][::11] == ["Jan", "Dec"]
    assert periods[1].start == dt.datetime(2026, 2, 1, tzinfo=NY) and periods[1].end == dt.datetime(
        2026, 3, 1, tzinfo=NY
    )
    assert intervals.current_window("month", now) == (
        dt.datetime(2026, 2, 1, tzinfo=NY),
        dt.datetime(2026, 3, 1, tzinfo=NY),
    )


def test_year_view_is_the_last_ten_years():
    now = dt.datetime(2026, 6, 1, tzinfo=UTC)
    periods = intervals.buckets("year", now)
    assert [p.year for p in periods] == list(range(2017, 2027))
    assert intervals.current_window("year", now)[0] == dt.datetime(2026, 1, 1, tzinfo=NY)


def test_sunday_starts_a_new_week():
    now = dt.datetime(2026, 11, 22, 15, tzinfo=UTC)  # Sunday in New York
    assert intervals.buckets("week", now)[0].start == dt.datetime(2026, 11, 22, tzinfo=NY)


@pytest.mark.parametrize("value", ["", "weekly", "YEAR", None])
def test_unknown_interval(value):
    with pytest.raises(InvalidInput, match=r"Interval must be week, month or year\."):
        intervals.check_interval(value)
