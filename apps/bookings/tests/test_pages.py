"""The booking flow's server-rendered step pages: one island each, the listing's data for it."""

import json
import re

import pytest

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.bookings.models import Booking
from apps.listings.factories import AddOnFactory, ListingFactory, OfficeListingFactory

from .conftest import make_booking

pytestmark = pytest.mark.django_db

STEPS = ("request-booking-details", "event-booking-details", "services-and-add-ons", "review-and-pay")


def props(response) -> dict:
    match = re.search(r'<script id="booking-flow-props" type="application/json">(.*?)</script>', response.text, re.S)
    return json.loads(match.group(1))


def test_each_step_renders_one_island_with_the_listing(client):
    office = OfficeListingFactory(slug="quiet-desks", cancellation_policy="strict")
    AddOnFactory(listing=office, title="Locker", price="5.00")
    for step in ("request-booking-details", "services-and-add-ons", "review-and-pay"):
        response = client.get(f"/{step}?listing=quiet-desks")
        assert response.status_code == 200
        assert response.text.count('data-island="BookingFlow"') == 1
        assert 'aria-current="step"' in response.text
        assert response["X-Robots-Tag"] == "noindex"
        data = props(response)
        assert data["step"] == step
        assert data["listing"]["slug"] == "quiet-desks"
        assert [a["title"] for a in data["listing"]["servicesAndAddOns"]] == ["Locker"]
        assert {o["kind"] for o in data["listing"]["spaceOffering"]} == {"hotDesk", "meetingSpace"}
        assert data["listing"]["cancellationText"].startswith("50% refund")
        assert data["listing"]["isLoggedIn"] is False


def test_the_details_step_follows_the_kind_of_space(client):
    ListingFactory(slug="big-hall")
    OfficeListingFactory(slug="desks")
    assert client.get("/event-booking-details?listing=big-hall").status_code == 200
    response = client.get("/request-booking-details?listing=big-hall")
    assert response.status_code == 302
    assert response["Location"] == "/event-booking-details?listing=big-hall"
    assert client.get("/event-booking-details?listing=desks")["Location"] == "/request-booking-details?listing=desks"


@pytest.mark.parametrize("step", STEPS)
def test_unknown_hidden_or_missing_listings(client, step):
    ListingFactory(slug="draft-space", pending=True)
    assert client.get(f"/{step}?listing=draft-space").status_code == 404
    assert client.get(f"/{step}?listing=nothing-here").status_code == 404
    assert client.get(f"/{step}?listing=" + "x" * 5000).status_code == 404
    assert client.get(f"/{step}?listing=%27%20OR%201%3D1--").status_code == 404
    assert client.get(f"/{step}?listing=caf%C3%A9%F0%9F%8E%89").status_code == 404
    response = client.get(f"/{step}")
    assert response.status_code == 302 and response["Location"] == "/property-listing"


def test_review_step_says_who_may_send_the_request(client):
    OfficeListingFactory(slug="quiet-desks")
    assert props(client.get("/review-and-pay?listing=quiet-desks"))["listing"]["mayBook"] is False
    seen = {}
    for role in (Role.ADMIN, Role.MODERATOR, Role.HOST, Role.RENTER):
        client.force_login(UserFactory(role=role))
        seen[role] = props(client.get("/review-and-pay?listing=quiet-desks"))["listing"]["mayBook"]
    assert seen == {Role.ADMIN: False, Role.MODERATOR: False, Role.HOST: False, Role.RENTER: True}


def test_return_from_payment_finds_the_renters_own_booking(client):
    booking = make_booking(UserFactory(role=Role.RENTER), ListingFactory())
    url = f"/review-and-pay?bookingId={booking.pk}&type=booking&success=false"
    assert client.get(url).status_code == 302  # signed out: no listing to show
    client.force_login(booking.renter)
    response = client.get(url)
    assert response.status_code == 200
    assert props(response)["listing"]["listingId"] == str(booking.listing_id)
    assert props(response)["listing"]["mayBook"] is True
    client.force_login(UserFactory(role=Role.RENTER))
    assert client.get(url).status_code == 302
    assert client.get("/review-and-pay?bookingId=not-a-uuid").status_code == 302
    assert Booking.objects.count() == 1


def test_the_listing_page_mounts_the_booking_widget(client):
    ListingFactory(slug="sunny-hall")
    response = client.get("/listing-details/sunny-hall")
    assert '<div data-island="BookingWidget" data-props-id="booking-widget-props">' in response.text
    assert 'id="booking-widget-props"' in response.text
