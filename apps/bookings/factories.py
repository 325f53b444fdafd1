"""Test data builders for bookings.

A booking is made through ``services.booking_request`` (not a bare model row), so it holds its time
with Occupancy rows, is priced by the listing's rates and is told to the host like a real request.
"""

import datetime as dt
from decimal import Decimal

import factory
from django.utils import timezone

from apps.listings.factories import ListingFactory

from . import services
from .models import Booking
from .times import LOCAL_TZ


def future_day(days: int = 10) -> dt.date:
    """The local date ``days`` from today."""
    return timezone.now().astimezone(LOCAL_TZ).date() + dt.timedelta(days=days)


def weekday(days: int = 10) -> dt.date:
    """A future Monday-to-Saturday date (``PricedEventListingFactory`` is closed on Sundays)."""
    day = future_day(days)
    return day + dt.timedelta(days=1) if day.weekday() == 6 else day


class PricedEventListingFactory(ListingFactory):
    """An event space with every rule a booking's price uses, and a host who charges 13% tax.

    $50 an hour, $300 a day, $1,500 a week; up to 20 guests; a 10% discount from 2 days on; a 3%
    convenience fee and a 10% commission; closed on Sundays. ``host_tax=`` sets another tax rate
    on the host (saved on the host row).
    """

    hourly = Decimal("50")
    daily = Decimal("300")
    weekly = Decimal("1500")
    guest = 20
    minimum_days = 2
    discount = Decimal("10")
    processing_fee = Decimal("3")
    commission_collection = Decimal("10")
    opening_hours = factory.LazyFunction(lambda: {"sunday": None})

    @factory.post_generation
    def host_tax(obj, create, extracted, **kwargs):
        if create:
            obj.host.tax = Decimal("13") if extracted is None else extracted
            obj.host.save(update_fields=["tax"])


def booking_make(
    *,
    renter,
    listing,
    day: dt.date | None = None,
    start: dt.time = dt.time(10),
    end: dt.time = dt.time(14),
    check_out_date: dt.date | None = None,
    guests: int = 2,
    **extra,
) -> Booking:
    """A pending booking request by ``renter`` (10 AM to 2 PM on a future weekday unless told).

    ``extra`` goes to ``booking_request`` as is (``offering_id``, ``seats``, ``add_on_ids``, ...).
    """
    day = day or weekday()
    return services.booking_request(
        renter=renter,
        listing_id=listing.pk,
        check_in_date=day,
        check_out_date=check_out_date or day,
        start_time=start,
        end_time=end,
        guests=guests,
        **extra,
    )
