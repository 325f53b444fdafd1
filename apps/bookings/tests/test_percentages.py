"""The percentages a booking was priced with are typed columns on the booking: set at the request,
filled for existing bookings from their paymentDetails JSON, and read back from the columns."""

import datetime as dt
import importlib
from decimal import Decimal

import pytest
from django.apps import apps as django_apps

from apps.bookings.models import Booking

from .conftest import make_booking

pytestmark = pytest.mark.django_db

migration = importlib.import_module("apps.bookings.migrations.0004_booking_percentages_as_columns")


def test_a_request_keeps_the_listing_and_host_percentages_of_that_moment(users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    # The host changes the listing afterwards: the booking keeps what it was priced with.
    event_listing.processing_fee = Decimal("7")
    event_listing.save(update_fields=["processing_fee"])

    booking = Booking.objects.get(pk=booking.pk)
    assert booking.discount_percent == Decimal("10.00")
    assert booking.processing_fee_percent == Decimal("3.00")
    assert booking.tax_percent == Decimal("13.00")
    assert booking.commission_percent == Decimal("10.00")


def test_existing_bookings_are_filled_from_their_payment_details(users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    broken = make_booking(users["renter"], event_listing, start=dt.time(15), end=dt.time(17))
    zero = {"discount_percent": 0, "processing_fee_percent": 0, "tax_percent": 0, "commission_percent": 0}
    Booking.objects.filter(pk__in=[booking.pk, broken.pk]).update(**zero)
    details = dict(broken.payment_details, taxPercent="not a number", commissionPercent="250")
    Booking.objects.filter(pk=broken.pk).update(payment_details=details)

    migration.fill_from_payment_details(django_apps, None)

    booking = Booking.objects.get(pk=booking.pk)
    assert (
        booking.discount_percent,
        booking.processing_fee_percent,
        booking.tax_percent,
        booking.commission_percent,
    ) == (
        Decimal("10.00"),
        Decimal("3.00"),
        Decimal("13.00"),
        Decimal("10.00"),
    )
    broken = Booking.objects.get(pk=broken.pk)
    assert broken.processing_fee_percent == Decimal("3.00")
    # A value that is not a percentage is not carried over.
    assert broken.tax_percent == Decimal("0")
    assert broken.commission_percent == Decimal("0")
