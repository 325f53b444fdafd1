import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.bookings import services
from apps.bookings.times import LOCAL_TZ
from apps.listings.factories import AddOnFactory, ListingFactory, OfficeListingFactory
from apps.listings.models import OfferingKind


def future_day(days: int = 10) -> dt.date:
    return timezone.now().astimezone(LOCAL_TZ).date() + dt.timedelta(days=days)


@pytest.fixture
def event_listing(users):
    users["host"].tax = Decimal("13")
    users["host"].save(update_fields=["tax"])
    return ListingFactory(
        host=users["host"],
        hourly=Decimal("50"),
        daily=Decimal("300"),
        weekly=Decimal("1500"),
        guest=20,
        minimum_days=2,
        discount=Decimal("10"),
        processing_fee=Decimal("3"),
        commission_collection=Decimal("10"),
        opening_hours={"sunday": None},
    )


@pytest.fixture
def office_listing(users):
    return OfficeListingFactory(
        host=users["host"], offerings=[OfferingKind.HOT_DESK, OfferingKind.MEETING_SPACE, OfferingKind.PRIVATE_CABIN]
    )


@pytest.fixture
def add_on(event_listing):
    return AddOnFactory(listing=event_listing, title="Catering", price=Decimal("20"))


def weekday(days: int = 10) -> dt.date:
    """A future Monday-to-Saturday date (the event fixture is closed on Sundays)."""
    day = future_day(days)
    return day + dt.timedelta(days=1) if day.weekday() == 6 else day


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
    day = day or weekday()
    return services.booking_request(
        renter=renter,
        listing_id=listing.pk,
        check_in_date=day,
        check_out_date=extra.pop("check_out_date", day),
        start_time=start,
        end_time=end,
        guests=extra.pop("guests", 2),
        **extra,
    )
