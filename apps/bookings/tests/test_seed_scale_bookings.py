import io

import pytest
from django.core.management import call_command

from apps.bookings.models import Booking, BookingPayment, BookingStatus
from apps.listings.factories import ListingFactory

pytestmark = pytest.mark.django_db


def test_seed_scale_bookings_adds_past_bookings_whose_payment_follows_their_status():
    listings = ListingFactory.create_batch(2)
    out = io.StringIO()

    call_command("seed_scale_bookings", count=40, batch=15, stdout=out)

    bookings = Booking.objects.all()
    assert bookings.count() == 40
    assert set(bookings.values_list("listing_id", flat=True)) == {listing.pk for listing in listings}
    states = dict(bookings.values_list("status", "payment_state").distinct())
    assert states == {
        BookingStatus.COMPLETED: BookingPayment.PAID,
        BookingStatus.CANCELLED: BookingPayment.CLOSED,
        BookingStatus.REJECTED: BookingPayment.NONE,
        BookingStatus.EXPIRED: BookingPayment.NONE,
    }

    call_command("seed_scale_bookings", count=10, stdout=out)
    assert Booking.objects.count() == 50
