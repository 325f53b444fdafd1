"""The public search's "available on a date range" leaves out listings fully booked over the range."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.bookings import services as bookings
from apps.bookings.times import LOCAL_TZ
from apps.listings.factories import ListingFactory, OfficeListingFactory
from apps.listings.models import OfferingKind

URL = "/api/listing/property-listing"
pytestmark = pytest.mark.django_db


def day(offset: int) -> dt.date:
    moment = timezone.now().astimezone(LOCAL_TZ).date() + dt.timedelta(days=offset)
    return moment + dt.timedelta(days=1) if moment.weekday() == 6 else moment


def book(renter, listing, on: dt.date, *, offering=None, seats=1, start=dt.time(10), end=dt.time(14)):
    return bookings.booking_request(
        renter=renter,
        listing_id=listing.pk,
        offering_id=offering.pk if offering else None,
        check_in_date=on,
        check_out_date=on,
        start_time=start,
        end_time=end,
        guests=1,
        seats=seats,
    )


def found(api, start: dt.date, end: dt.date | None = None) -> set[str]:
    query = {"filters[startDate]": start.isoformat(), "filters[endDate]": (end or start).isoformat()}
    response = api.get(URL, query)
    assert response.status_code == 200, response.content
    return {item["title"] for item in response.json()["data"]["listings"]}


def test_an_event_space_with_time_held_in_the_range_is_left_out(api, users):
    hall = ListingFactory(title="Booked hall")
    ListingFactory(title="Free hall")
    booking = book(users["renter"], hall, day(10))

    assert found(api, day(10)) == {"Free hall"}
    assert found(api, day(9), day(12)) == {"Free hall"}
    assert found(api, day(11)) == {"Booked hall", "Free hall"}

    # A rejected request gives the time back.
    bookings.booking_update_status(booking_id=booking.pk, actor=hall.host, status="rejected", reason="Closed")
    assert found(api, day(10)) == {"Booked hall", "Free hall"}


def test_an_office_space_is_left_out_only_when_every_offering_is_full(api, users):
    office = OfficeListingFactory(title="Desks", offerings=[OfferingKind.HOT_DESK, OfferingKind.MEETING_SPACE])
    desk = office.space_offerings.get(kind=OfferingKind.HOT_DESK)
    room = office.space_offerings.get(kind=OfferingKind.MEETING_SPACE)
    desk.seats, room.seats = 2, 1
    desk.save(update_fields=["seats"])
    room.save(update_fields=["seats"])

    book(users["renter"], office, day(10), offering=room)
    assert found(api, day(10)) == {"Desks"}  # desks are still free
    book(users["renter"], office, day(10), offering=desk, seats=1)
    assert found(api, day(10)) == {"Desks"}  # one desk of two is still free
    book(users["other_renter"], office, day(10), offering=desk, seats=1)
    assert found(api, day(10)) == set()
    assert found(api, day(11)) == {"Desks"}


def test_the_booking_check_is_one_query_whatever_the_number_of_listings(api, users):
    for index in range(6):
        hall = ListingFactory(title=f"Hall {index}")
        book(users["renter"], hall, day(10))
    for index in range(3):
        OfficeListingFactory(title=f"Office {index}")
    with CaptureQueriesContext(connection) as small:
        assert len(found(api, day(10))) == 3
    for index in range(6, 12):
        book(users["renter"], ListingFactory(title=f"Hall {index}"), day(10))
    with CaptureQueriesContext(connection) as large:
        assert len(found(api, day(10), day(11))) == 3
    assert len(large.captured_queries) == len(small.captured_queries)
