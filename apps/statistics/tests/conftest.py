"""A small data set whose statistics are computed by hand in the tests.

Week start W is this week's Sunday, midnight in New York. Listings: E1 (event, Toronto, Wi-Fi and
Parking) and O1 (office, New York, Wi-Fi) of ``host``; E2 (event, Mumbai, Projector) of
``other_host``. Bookings:

- b1: renter on E1, made Sunday W+1h, completed, paid 100 + 20 extension, commission 10
- b2: renter on O1, made Monday W+1d+1h, approved, paid 50 less a 10 refund, commission 5
- b3: other_renter on E1, made Monday W+1d+1h, cancelled
- b4: other_renter on E2, made Tuesday W+2d, pending
- b5: renter on E2, made in the middle of last year, completed, paid 200, commission 20
"""

import datetime as dt
from decimal import Decimal

import pytest

from apps.bookings.models import BookingStatus
from apps.listings.factories import AmenityFactory, ListingFactory, OfficeListingFactory
from apps.payments.models import Invoice, Payout, PayoutStatus
from apps.statistics import intervals

from .data import make_booking, make_payment


@pytest.fixture
def world(users):
    week_start, _ = intervals.current_window("week")
    wifi, parking, projector = (AmenityFactory(name=n) for n in ("Wi-Fi", "Parking", "Projector"))
    e1 = ListingFactory(host=users["host"], city="Toronto", country="Canada", amenities=[wifi, parking])
    o1 = OfficeListingFactory(host=users["host"], city="New York", country="United States", amenities=[wifi])
    e2 = ListingFactory(host=users["other_host"], city="Mumbai", country="India", amenities=[projector])
    last_year = dt.datetime(week_start.year - 1, 6, 15, 12, tzinfo=intervals.LOCAL_TZ)
    hour, day = dt.timedelta(hours=1), dt.timedelta(days=1)
    b1 = make_booking(
        listing=e1,
        renter=users["renter"],
        created=week_start + hour,
        status=BookingStatus.COMPLETED,
        commission="10.00",
    )
    b2 = make_booking(
        listing=o1,
        renter=users["renter"],
        created=week_start + day + hour,
        status=BookingStatus.APPROVED,
        price="50.00",
        commission="5.00",
    )
    b3 = make_booking(
        listing=e1, renter=users["other_renter"], created=week_start + day + hour, status=BookingStatus.CANCELLED
    )
    b4 = make_booking(listing=e2, renter=users["other_renter"], created=week_start + 2 * day, status="pending")
    b5 = make_booking(
        listing=e2,
        renter=users["renter"],
        created=last_year,
        status=BookingStatus.COMPLETED,
        price="200.00",
        commission="20.00",
    )
    p1 = make_payment(b1, captured="100.00", extended="20.00", at=b1.created_at)
    make_payment(b2, captured="50.00", refunded="10.00", at=b2.created_at)
    make_payment(b5, captured="200.00", at=b5.created_at)
    Invoice.objects.create(
        year=week_start.year, sequence=1, number=f"INV-{week_start.year}-000001", payment=p1, amount=Decimal("100.00")
    )
    Payout.objects.create(host=users["host"], amount=Decimal("100.00"), status=PayoutStatus.ONHOLD)
    Payout.objects.create(host=users["other_host"], amount=Decimal("50.00"), status=PayoutStatus.RELEASED)
    return {
        "week_start": week_start,
        "listings": {"e1": e1, "o1": o1, "e2": e2},
        "bookings": {"b1": b1, "b2": b2, "b3": b3, "b4": b4, "b5": b5},
        "amenities": {"wifi": wifi, "parking": parking, "projector": projector},
    }
