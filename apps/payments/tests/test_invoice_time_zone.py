"""The invoice names the space's own clock: a Mumbai booking of 10:00 AM to 4:00 PM says IST."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory
from apps.core.testing import ApiClient
from apps.payments.models import Invoice

from .conftest import pay_locally
from .test_unpaid_requests import _pdf_text

pytestmark = pytest.mark.django_db


def test_a_mumbai_invoice_shows_mumbai_times_and_names_the_zone(
    api, users, local_gateway, django_capture_on_commit_callbacks
):
    listing = PricedEventListingFactory(
        host=users["host"],
        title="Andheri Rooftop Venue",
        city="Mumbai",
        country="India",
        latitude=Decimal("19.119700"),
        longitude=Decimal("72.846900"),
        payment_preference="payNow",
    )
    with time_machine.travel(dt.datetime(2027, 1, 10, 12, tzinfo=dt.UTC), tick=False):
        renter = ApiClient().as_user(users["renter"])  # a token issued on the frozen day
        booking = bookings.booking_request(
            renter=users["renter"],
            listing_id=listing.pk,
            check_in_date=dt.date(2027, 1, 20),
            check_out_date=dt.date(2027, 1, 20),
            start_time=dt.time(10),
            end_time=dt.time(16),
        )
        pay_locally(api, renter, booking)
        with django_capture_on_commit_callbacks(execute=True):
            bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
        invoice = Invoice.objects.get()
        text = _pdf_text(renter.get(f"/api/invoice/pdf/{invoice.pk}").content)
    assert "20-01-2027 10:00 AM IST" in text and "20-01-2027 04:00 PM IST" in text
    assert "Asia/Kolkata" in text
