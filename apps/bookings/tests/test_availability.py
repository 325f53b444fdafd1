"""The availability calendar (``GET /api/listing/get-availability/{id}``): days grouped in SQL."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.bookings import services
from apps.bookings.times import LOCAL_TZ
from apps.listings.factories import ListingFactory, OfficeListingFactory
from apps.listings.models import OfferingKind

pytestmark = pytest.mark.django_db


def local_day(offset: int) -> dt.date:
    return timezone.now().astimezone(LOCAL_TZ).date() + dt.timedelta(days=offset)


def book(renter, listing, first: dt.date, last: dt.date | None = None, *, offering=None, start=10, end=14):
    return services.booking_request(
        renter=renter,
        listing_id=listing.pk,
        offering_id=offering.pk if offering else None,
        check_in_date=first,
        check_out_date=last or first,
        start_time=dt.time(start),
        end_time=dt.time(end),
        guests=1,
        seats=1,
    )


def availability(client, listing, zone="America/New_York", days=30):
    response = client.get(f"/api/listing/get-availability/{listing.pk}?timezone={zone}&days={days}")
    assert response.status_code == 200, response.content
    return response.json()["data"]


def test_a_stay_over_several_days_occupies_each_of_them(clients, users):
    hall = ListingFactory(host=users["host"], minimum_days=1)
    first = local_day(5)
    booking = book(users["renter"], hall, first, first + dt.timedelta(days=2), start=20, end=9)
    data = availability(clients["renter"], hall)
    touched = [(first + dt.timedelta(days=n)).isoformat() for n in range(3)]
    assert data["pendingDates"] == touched and data["occupiedDates"] == []

    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    data = availability(clients["renter"], hall)
    assert data["occupiedDates"] == touched and data["pendingDates"] == []
    assert not set(touched) & set(data["availableDates"])
    assert len(data["availableDates"]) == 30 - 3


def test_days_follow_the_asked_time_zone(clients, users):
    hall = ListingFactory(host=users["host"], minimum_days=1)
    day = local_day(6)
    booking = book(users["renter"], hall, day, start=20, end=23)  # 8 to 11 PM in New York
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    assert availability(clients["renter"], hall)["occupiedDates"] == [day.isoformat()]
    # The same evening is the next morning in Tokyo.
    tokyo = availability(clients["renter"], hall, zone="Asia/Tokyo")
    assert tokyo["occupiedDates"] == [(day + dt.timedelta(days=1)).isoformat()]


def test_an_office_day_is_occupied_only_when_every_offering_is_full(clients, users):
    office = OfficeListingFactory(host=users["host"], offerings=[OfferingKind.HOT_DESK, OfferingKind.MEETING_SPACE])
    desk = office.space_offerings.get(kind=OfferingKind.HOT_DESK)
    room = office.space_offerings.get(kind=OfferingKind.MEETING_SPACE)
    desk.seats, room.seats = 2, 1
    desk.save(update_fields=["seats"])
    room.save(update_fields=["seats"])
    day = local_day(7)
    for renter, offering, start, end in (
        ("renter", room, 10, 12),
        ("renter", desk, 9, 12),
        ("other_renter", desk, 13, 17),  # another seat the same day: seats add up over the day
    ):
        made = book(users[renter], office, day, offering=offering, start=start, end=end)
        services.booking_update_status(booking_id=made.pk, actor=users["host"], status="approved")
        full = offering is desk and renter == "other_renter"
        assert (day.isoformat() in availability(clients["renter"], office)["occupiedDates"]) is full


def test_a_year_of_bookings_is_read_in_one_query(clients, users):
    hall = ListingFactory(host=users["host"], minimum_days=1)
    for offset in range(3, 40, 3):
        book(users["renter"], hall, local_day(offset))
    with CaptureQueriesContext(connection) as queries:
        data = availability(clients["renter"], hall, days=366)
    assert len(data["pendingDates"]) == 13
    assert sum("bookings_occupancy" in query["sql"] for query in queries.captured_queries) == 1
    # The listing is read bare: its row and its offerings, none of the page's images or amenities.
    read = " ".join(query["sql"] for query in queries.captured_queries)
    assert "listings_listingimage" not in read and "listings_amenity" not in read
    assert len(queries) <= 4, [query["sql"][:120] for query in queries.captured_queries]
