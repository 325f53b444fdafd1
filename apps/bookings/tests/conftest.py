import datetime as dt
from decimal import Decimal

import pytest

from apps.bookings.factories import PricedEventListingFactory, booking_make, future_day, weekday
from apps.listings.factories import AddOnFactory, OfficeListingFactory
from apps.listings.models import OfferingKind

__all__ = ["future_day", "make_booking", "payload", "weekday"]


@pytest.fixture
def event_listing(users):
    return PricedEventListingFactory(host=users["host"])


@pytest.fixture
def office_listing(users):
    return OfficeListingFactory(
        host=users["host"], offerings=[OfferingKind.HOT_DESK, OfferingKind.MEETING_SPACE, OfferingKind.PRIVATE_CABIN]
    )


@pytest.fixture
def add_on(event_listing):
    return AddOnFactory(listing=event_listing, title="Catering", price=Decimal("20"))


def payload(listing, day=None, start="10:00 AM", end="02:00 PM", **extra) -> dict:
    day = day or weekday()
    data = {
        "listingId": str(listing.pk),
        "checkInDate": day.strftime("%d-%m-%Y"),
        "checkOutDate": day.strftime("%d-%m-%Y"),
        "startTime": start,
        "endTime": end,
        "guests": 5,
    }
    data.update(extra)
    return data


def make_booking(renter, listing, day=None, start=dt.time(10), end=dt.time(14), **extra):
    return booking_make(renter=renter, listing=listing, day=day, start=start, end=end, **extra)
