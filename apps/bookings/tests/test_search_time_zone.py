"""The public search's date filter reads a listing's held time on that listing's own calendar: a
Mumbai venue booked 10 AM to 4 PM (Mumbai) on 20 January is taken on Mumbai's 20 January, not on
New York's 19 January (when those hours fall in New York)."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from apps.bookings import services
from apps.bookings.factories import PricedEventListingFactory

pytestmark = pytest.mark.django_db

URL = "/api/listing/property-listing"
NOW = dt.datetime(2027, 1, 10, 12, 0, tzinfo=dt.UTC)
DAY = dt.date(2027, 1, 20)  # a Wednesday


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


def found(api, day: dt.date) -> set[str]:
    response = api.get(URL, {"filters[startDate]": day.isoformat(), "filters[endDate]": day.isoformat()})
    assert response.status_code == 200, response.content
    return {item["title"] for item in response.json()["data"]["listings"]}


def test_a_mumbai_booking_takes_the_venue_out_on_mumbai_days(frozen, api, users):
    open_days = ("monday", "tuesday", "wednesday", "thursday")
    andheri = PricedEventListingFactory(
        host=users["host"],
        title="Andheri Rooftop Venue",
        city="Mumbai",
        state="MH",
        country="India",
        latitude=Decimal("19.119700"),
        longitude=Decimal("72.846900"),
        opening_hours={day: {"open": "09:00", "close": "22:00"} for day in open_days},
        payment_preference="payLater",
    )
    assert andheri.time_zone == "Asia/Kolkata"
    assert found(api, DAY - dt.timedelta(days=1)) == {"Andheri Rooftop Venue"}

    services.booking_request(
        renter=users["renter"],
        listing_id=andheri.pk,
        check_in_date=DAY,
        check_out_date=DAY,
        start_time=dt.time(10),
        end_time=dt.time(16),
        guests=4,
    )

    assert found(api, DAY) == set()
    # 10 AM in Mumbai on the 20th is 11:30 PM on the 19th in New York: the 19th stays free.
    assert found(api, DAY - dt.timedelta(days=1)) == {"Andheri Rooftop Venue"}
    assert found(api, DAY + dt.timedelta(days=1)) == {"Andheri Rooftop Venue"}
