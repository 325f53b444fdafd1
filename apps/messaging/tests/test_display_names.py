"""People without a name are still named: one rule (``User.display_name``) wherever a person shows."""

import pytest

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role, display_name
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.core.testing import ApiClient
from apps.listings.factories import ListingFactory
from apps.listings.models import ListingRequest, ListingStatus


@pytest.mark.parametrize(
    ("first", "last", "user_name", "email", "shown"),
    [
        ("Ada", "Lovelace", "ada", "ada@example.com", "Ada Lovelace"),
        ("Ada", "", "", "ada@example.com", "Ada"),
        ("", "Lovelace", "", "ada@example.com", "Lovelace"),
        ("  ", "", "loftqueen", "jr-host-7@example.com", "loftqueen"),
        ("", "", "", "jr-host-7@example.com", "jr-host-7"),
    ],
)
def test_the_rule_falls_back_to_the_first_name_then_the_user_name_then_the_mail_local_part(
    first, last, user_name, email, shown
):
    assert display_name(first_name=first, last_name=last, user_name=user_name, email=email) == shown


@pytest.fixture
def nameless(db):
    return {
        "host": UserFactory(role=Role.HOST, first_name="", last_name="", email="quiet-host@example.com"),
        "renter": UserFactory(role=Role.RENTER, first_name="", last_name="", email="shy.renter@example.com"),
        "moderator": UserFactory(role=Role.MODERATOR, first_name="Mo", last_name="", email="mod@example.com"),
    }


def test_a_booking_and_its_history_name_a_host_and_a_renter_who_gave_no_name(nameless):
    listing = PricedEventListingFactory(host=nameless["host"])
    booking = booking_make(renter=nameless["renter"], listing=listing, day=weekday(20))
    data = ApiClient().as_user(nameless["host"]).get(f"/api/booking/booking/{booking.pk}").json()["data"]
    assert data["renter"]["displayName"] == "shy.renter"
    assert data["host"]["displayName"] == "quiet-host"
    assert data["statusHistory"][-1]["actor"]["displayName"] == "shy.renter"


def test_listing_requests_show_the_host_of_a_nameless_host(nameless):
    listing = ListingFactory(host=nameless["host"], status=ListingStatus.PENDING)
    ListingRequest.objects.create(listing=listing, kind="new", requested_by=nameless["host"])
    page = ApiClient().as_user(nameless["moderator"]).get("/api/listing/get-all-requests").json()["data"]
    assert [row["listing"]["host"]["displayName"] for row in page["requests"]] == ["quiet-host"]


def test_chat_names_the_other_party_when_they_gave_no_name(nameless):
    response = (
        ApiClient()
        .as_user(nameless["renter"])
        .post("/api/chat/start", {"userId": str(nameless["host"].pk)}, format="json")
    )
    assert response.status_code == 201, response.content
    data = response.json()["data"]
    assert data["host"]["displayName"] == "quiet-host"
    assert data["renter"]["displayName"] == "shy.renter"


def test_the_dashboard_shell_names_a_user_without_a_name(nameless, client):
    client.force_login(nameless["host"])
    page = client.get("/dashboard").content.decode()
    assert "quiet-host" in page
