"""Properties of wall-clock times across zones and daylight-saving changes (hypothesis).

No database: listings are unsaved rows, and ``booking_plan`` is given ``now`` so every generated
date is in the future. The zones cover both hemispheres' daylight saving (New York, London,
Sydney, Auckland), a half-hour offset without it (Kolkata) and UTC.
"""

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.accounts.models import User
from apps.bookings import pricing, services
from apps.bookings.times import exists_locally, local_datetime, to_local, zone_abbreviation
from apps.core.exceptions import InvalidInput
from apps.listings.models import Listing, PropertyType

ZONES = ["America/New_York", "Europe/London", "Australia/Sydney", "Pacific/Auckland", "Asia/Kolkata", "UTC"]
NOW = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)

zones = st.sampled_from(ZONES).map(ZoneInfo)
# Nights when clocks change in these zones (and the day before, for bookings running across them),
# drawn half the time so the properties are tested where they are most likely to break.
CHANGE_DAYS = [
    dt.date(2026, 3, 8), dt.date(2026, 11, 1), dt.date(2027, 3, 14), dt.date(2027, 11, 7),  # New York
    dt.date(2026, 3, 29), dt.date(2026, 10, 25),  # London
    dt.date(2026, 4, 5), dt.date(2026, 10, 4), dt.date(2027, 4, 4), dt.date(2027, 10, 3),  # Sydney
    dt.date(2026, 9, 27), dt.date(2027, 4, 4),  # Auckland
]  # fmt: skip
days = st.one_of(
    st.dates(min_value=dt.date(2026, 1, 2), max_value=dt.date(2028, 12, 30)),
    st.sampled_from(CHANGE_DAYS + [d - dt.timedelta(days=1) for d in CHANGE_DAYS]),
)
slots = st.integers(min_value=0, max_value=47).map(lambda n: dt.time(n // 2, 30 * (n % 2)))


def listing_in(tz: ZoneInfo) -> Listing:
    """An event space open around the clock at $50 an hour, no minimum (no fee, tax or discount)."""
    return Listing(
        host=User(tax=Decimal("0")),
        property_type=PropertyType.EVENT_SPACE,
        time_zone=tz.key,
        hourly=Decimal("50"),
        daily=None,
        weekly=None,
        minimum_days=0,  # any length, so every generated booking is priced
        guest=100,
        opening_hours={},
        blocked_dates=[],
        booking_window_days=100_000,  # unsaved: no booking window, the generated days reach years past NOW
    )


@given(tz=zones, day=days, time=slots)
@settings(max_examples=300, deadline=None)
def test_a_wall_time_that_exists_comes_back_unchanged_and_a_skipped_one_is_refused(tz, day, time):
    if exists_locally(day, time, tz):
        moment = local_datetime(day, time, tz, "startTime")
        local = to_local(moment, tz)
        assert (local.date(), local.time()) == (day, time)
        assert moment.utcoffset() == dt.timedelta(0)
    else:
        with pytest.raises(InvalidInput) as refused:
            local_datetime(day, time, tz, "startTime")
        assert "clocks go forward" in refused.value.errors["startTime"][0]


@given(tz=zones, day=days, start=slots, length=st.integers(min_value=1, max_value=96))
@settings(max_examples=300, deadline=None)
def test_the_hours_priced_are_the_hours_that_pass_where_the_space_is(tz, day, start, length):
    """A booking is priced by the time that really passes: a night when clocks go forward is an
    hour shorter on the wall clock's count, one when they go back an hour longer."""
    begin = dt.datetime.combine(day, start)
    finish = begin + dt.timedelta(minutes=30 * length)
    if not exists_locally(begin.date(), begin.time(), tz) or not exists_locally(finish.date(), finish.time(), tz):
        return
    plan = services.booking_plan(
        listing=listing_in(tz),
        check_in_date=begin.date(),
        check_out_date=finish.date(),
        start_time=begin.time(),
        end_time=finish.time(),
        now=NOW,
    )
    elapsed = Decimal((plan.end - plan.start).total_seconds()) / 3600
    wall = Decimal(length) / 2
    shift = Decimal((plan.start.astimezone(tz).utcoffset() - plan.end.astimezone(tz).utcoffset()).total_seconds())
    assert plan.quote.hours == elapsed == wall + shift / 3600
    assert plan.quote.prices_total == pricing.money(Decimal("50") * pricing._ceil(elapsed))
    assert plan.quote.price == plan.quote.prices_total  # no fee, tax or discount on this listing


@given(tz=zones, day=days, start=slots, length=st.integers(min_value=1, max_value=60))
@settings(max_examples=200, deadline=None)
def test_a_later_end_never_costs_less(tz, day, start, length):
    begin = dt.datetime.combine(day, start)
    ends = [begin + dt.timedelta(minutes=30 * n) for n in (length, length + 1)]
    if not all(exists_locally(m.date(), m.time(), tz) for m in (begin, *ends)):
        return
    prices = [
        services.booking_plan(
            listing=listing_in(tz),
            check_in_date=begin.date(),
            check_out_date=end.date(),
            start_time=begin.time(),
            end_time=end.time(),
            now=NOW,
        ).quote.price
        for end in ends
    ]
    assert prices[0] <= prices[1]


@pytest.mark.parametrize(
    ("zone", "day", "start", "end", "hours"),
    [
        ("America/New_York", dt.date(2027, 3, 14), dt.time(0), dt.time(5), Decimal(4)),  # clocks forward at 2 AM
        ("America/New_York", dt.date(2027, 11, 7), dt.time(0), dt.time(3), Decimal(4)),  # clocks back at 2 AM
        ("Australia/Sydney", dt.date(2027, 10, 3), dt.time(1), dt.time(4), Decimal(2)),  # forward at 2 AM
        ("Australia/Sydney", dt.date(2027, 4, 4), dt.time(1), dt.time(4), Decimal(4)),  # back at 3 AM
        ("Asia/Kolkata", dt.date(2027, 3, 14), dt.time(0), dt.time(5), Decimal(5)),  # no daylight saving
    ],
)
def test_daylight_saving_nights(zone, day, start, end, hours):
    tz = ZoneInfo(zone)
    plan = services.booking_plan(
        listing=listing_in(tz), check_in_date=day, check_out_date=day, start_time=start, end_time=end, now=NOW
    )
    assert plan.quote.hours == hours
    assert plan.quote.prices_total == Decimal(50) * hours


def test_a_skipped_time_is_refused_with_a_clear_message():
    with pytest.raises(InvalidInput) as refused:
        services.booking_plan(
            listing=listing_in(ZoneInfo("America/New_York")),
            check_in_date=dt.date(2027, 3, 14),
            check_out_date=dt.date(2027, 3, 14),
            start_time=dt.time(2, 30),
            end_time=dt.time(5),
            now=NOW,
        )
    # The service names the field in snake_case; the API answers it as startTime.
    assert refused.value.errors == {
        "start_time": [
            "02:30 AM does not exist on 14-03-2027 in America/New_York: the clocks go forward that night. "
            "Please choose another time."
        ]
    }


def test_a_repeated_time_means_the_first_of_the_two():
    tz = ZoneInfo("America/New_York")
    moment = local_datetime(dt.date(2027, 11, 7), dt.time(1, 30), tz, "startTime")
    assert moment == dt.datetime(2027, 11, 7, 5, 30, tzinfo=dt.UTC)  # 1:30 AM EDT, not EST
    assert zone_abbreviation(tz, moment) == "EDT"
    assert zone_abbreviation(tz, moment + dt.timedelta(hours=1)) == "EST"


@pytest.mark.parametrize(
    ("zone", "when", "name"),
    [
        ("Asia/Kolkata", dt.datetime(2027, 1, 20, 4, 30, tzinfo=dt.UTC), "IST"),
        ("Australia/Sydney", dt.datetime(2027, 1, 20, tzinfo=dt.UTC), "AEDT"),
        ("Australia/Sydney", dt.datetime(2027, 7, 20, tzinfo=dt.UTC), "AEST"),
        ("Europe/London", dt.datetime(2027, 7, 20, tzinfo=dt.UTC), "BST"),
        ("Asia/Dubai", dt.datetime(2027, 7, 20, tzinfo=dt.UTC), "UTC+04"),
    ],
)
def test_zone_names_as_shown_beside_times(zone, when, name):
    assert zone_abbreviation(ZoneInfo(zone), when) == name
