"""A checkout's return address goes through the one URL-safety check (issue 24, 12)."""

import pytest

from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.payments.models import LocalCheckoutSession, Payment

pytestmark = pytest.mark.django_db


@pytest.fixture
def booking(users):
    return booking_make(renter=users["renter"], listing=PricedEventListingFactory(host=users["host"]))


@pytest.mark.parametrize(
    "address",
    ["https://evil.example\\@127.0.0.1:8000/", "http://evil.example\\@testserver/", "http://a@127.0.0.1:8000/"],
)
def test_a_backslash_or_userinfo_address_is_refused_and_stores_nothing(clients, booking, local_gateway, address):
    response = clients["renter"].post(
        "/api/payment/checkout", {"bookingId": str(booking.pk), "redirectUrl": address}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"]["redirectUrl"] == ["The return address must be a page of this site."]
    assert not Payment.objects.exists()
    assert not LocalCheckoutSession.objects.exists()


def test_a_page_of_the_site_is_the_return_address(clients, booking, local_gateway, settings):
    response = clients["renter"].post(
        "/api/payment/checkout",
        {"bookingId": str(booking.pk), "redirectUrl": f"{settings.SITE_URL}/booking-detail/{booking.pk}"},
        format="json",
    )
    assert response.status_code == 200
    session = LocalCheckoutSession.objects.get()
    assert session.success_url.startswith(f"{settings.SITE_URL}/booking-detail/{booking.pk}?")
