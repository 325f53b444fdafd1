"""A pay-now request is approved only once the renter's payment is held."""

import datetime as dt
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from django.utils import timezone

from apps.bookings import services as bookings
from apps.bookings.times import LOCAL_TZ
from apps.listings.factories import ListingFactory
from apps.payments.models import Payment
from apps.payments.services import payment_intent_released

pytestmark = pytest.mark.django_db


def _book(renter, listing):
    day = timezone.now().astimezone(LOCAL_TZ).date() + dt.timedelta(days=10)
    return bookings.booking_request(
        renter=renter,
        listing_id=listing.pk,
        check_in_date=day,
        check_out_date=day,
        start_time=dt.time(10),
        end_time=dt.time(14),
        guests=2,
    )


@pytest.fixture
def booking(users):
    listing = ListingFactory(host=users["host"], hourly=Decimal("50"), payment_preference="payNow")
    return _book(users["renter"], listing)


def _status(client, booking, **body):
    return client.patch(f"/api/booking/update-status/{booking.pk}", body, format="json")


def _checkout(client, booking):
    response = client.post("/api/payment/checkout", {"bookingId": str(booking.pk)}, format="json")
    assert response.status_code == 200, response.content
    return urlsplit(response.json()["data"]["url"]).path


def test_an_unpaid_pay_now_request_cannot_be_approved_until_the_payment_is_held(api, clients, booking, local_gateway):
    refused = _status(clients["host"], booking, status="approved")
    assert refused.status_code == 409
    body = refused.json()
    assert "has not paid" in body["message"] and body["data"]["awaitingPayment"] is True
    booking.refresh_from_db()
    assert booking.status == "pending"

    # Opening the checkout is not paying: still refused, for the subHost too.
    checkout_path = _checkout(clients["renter"], booking)
    assert _status(clients["sub_host"], booking, status="approved").status_code == 409

    assert api.post(checkout_path + "/pay").status_code == 302
    payment = Payment.objects.get(booking=booking)
    assert payment.status == "authorized"
    approved = _status(clients["sub_host"], booking, status="approved")
    assert approved.status_code == 200, approved.content
    payment.refresh_from_db()
    assert payment.status == "completed" and payment.captured_amount == booking.total_amount


def test_an_unpaid_pay_now_request_can_still_be_rejected(clients, booking):
    response = _status(clients["host"], booking, status="rejected", reason="Closed that day")
    assert response.status_code == 200
    booking.refresh_from_db()
    assert booking.status == "rejected"


def test_a_released_payment_does_not_count_as_paid(api, clients, users, booking, local_gateway):
    path = _checkout(clients["renter"], booking)
    assert api.post(path + "/pay").status_code == 302
    payment = Payment.objects.get(booking=booking)
    assert payment_intent_released(intent_id=payment.payment_id) == "released"
    assert _status(clients["host"], booking, status="approved").status_code == 409


def test_a_pay_at_the_space_request_is_approved_without_an_online_payment(clients, users):
    listing = ListingFactory(host=users["host"], hourly=Decimal("50"), payment_preference="payLater")
    booking = _book(users["renter"], listing)
    response = _status(clients["host"], booking, status="approved")
    assert response.status_code == 200, response.content
    assert not Payment.objects.filter(booking=booking).exists()
