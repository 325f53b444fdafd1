"""What premium gives a host in the listings app (active listing limit, featured placement, badges),
and what a host's account status and a listing's bookings mean for the listing."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from apps.accounts.services_users import user_status_set
from apps.bookings import services as bookings
from apps.bookings.tests.conftest import make_booking, weekday
from apps.listings.factories import ListingFactory
from apps.listings.models import Listing
from apps.payments.subscriptions import subscription_grant

from .fixtures_api import event_payload, media_root, upload  # noqa: F401

URL = "/api/listing/property-listing"
pytestmark = pytest.mark.django_db


def make_premium(users, host=None):
    return subscription_grant(host=host or users["host"], by=users["admin"])


def titles(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [item["title"] for item in response.json()["data"]["listings"]]


# --- Active listing limit -------------------------------------------------------------------------


def test_a_free_host_keeps_three_active_listings_and_premium_lifts_the_limit(clients, users, media_root):  # noqa: F811
    for _ in range(3):
        ListingFactory(host=users["host"])
    images = upload(clients["host"])

    refused = clients["host"].post("/api/listing/create", event_payload(images), format="json")
    assert refused.status_code == 403
    message = refused.json()["message"]
    assert "3 active listings" in message and "premium" in message.lower()
    assert Listing.objects.filter(host=users["host"]).count() == 3

    make_premium(users)
    created = clients["sub_host"].post("/api/listing/create", event_payload(images), format="json")
    assert created.status_code == 201, created.content
    assert Listing.objects.filter(host=users["host"], is_active=True).count() == 4


def test_activating_a_fourth_listing_is_refused_for_a_free_host(clients, users):
    for _ in range(3):
        ListingFactory(host=users["host"])
    sleeping = ListingFactory(host=users["host"], is_active=False)
    url = f"/api/listing/toggle-active/{sleeping.pk}"

    response = clients["host"].patch(url, {"isActive": True}, format="json")
    assert response.status_code == 403
    assert "premium" in response.json()["message"].lower()
    sleeping.refresh_from_db()
    assert sleeping.is_active is False

    # Another host's listings do not count; deactivating one of the three frees a place.
    ListingFactory(host=users["other_host"])
    first = Listing.objects.filter(host=users["host"], is_active=True).first()
    off = clients["host"].patch(f"/api/listing/toggle-active/{first.pk}", {"isActive": False}, format="json")
    assert off.status_code == 200
    assert clients["host"].patch(url, {"isActive": True}, format="json").status_code == 200


def test_only_a_premium_host_marks_a_listing_premium(clients, users, media_root):  # noqa: F811
    images = upload(clients["host"])
    refused = clients["host"].post("/api/listing/create", event_payload(images, isPremium=True), format="json")
    assert refused.status_code == 403
    assert "premium" in refused.json()["message"].lower()

    make_premium(users)
    created = clients["host"].post("/api/listing/create", event_payload(images, isPremium=True), format="json")
    assert created.status_code == 201, created.content
    assert created.json()["data"]["isPremium"] is True


# --- Featured placement and badges ----------------------------------------------------------------


def test_premium_listings_of_premium_hosts_come_first_with_a_badge(api, users):
    ListingFactory(host=users["other_host"], title="Marked by a free host", is_premium=True)
    ListingFactory(host=users["host"], title="Premium hall", is_premium=True)
    ListingFactory(host=users["host"], title="Plain hall of a premium host")
    ListingFactory(title="Newest plain")

    # Before the membership, the mark gives nothing: newest first, no badge.
    response = api.get(URL)
    assert titles(response)[0] == "Newest plain"
    assert not any(item["isPremium"] for item in response.json()["data"]["listings"])

    make_premium(users)
    response = api.get(URL)
    listed = titles(response)
    assert listed[0] == "Premium hall"
    assert listed[1:] == ["Newest plain", "Plain hall of a premium host", "Marked by a free host"]
    badges = {item["title"]: item["isPremium"] for item in response.json()["data"]["listings"]}
    assert badges == {
        "Premium hall": True,
        "Newest plain": False,
        "Plain hall of a premium host": False,
        "Marked by a free host": False,
    }
    assert response.json()["data"]["totalCount"] == 4


def test_featured_listings_lead_across_pages(api, users):
    make_premium(users)
    ListingFactory.create_batch(11, images=0)
    for index in range(3):
        ListingFactory(host=users["host"], title=f"Premium {index}", is_premium=True)
    first = titles(api.get(URL, {"page": 1}))
    second = titles(api.get(URL, {"page": 2}))
    assert first[:3] == ["Premium 2", "Premium 1", "Premium 0"]
    assert len(first) == 10 and len(second) == 4
    assert not set(first) & set(second)
    assert not any(title.startswith("Premium") for title in second)


def test_home_and_listing_page_show_the_premium_badges(api, users):
    listing = ListingFactory(host=users["host"], title="Premium Hall", is_premium=True)
    ListingFactory(title="Plain Hall")
    page = api.get(f"/listing-details/{listing.slug}").content.decode()
    assert "badge-premium" not in page

    make_premium(users)
    home = api.get("/").content.decode()
    assert home.index("Premium Hall") < home.index("Plain Hall")
    assert '<span class="badge badge-premium">Premium</span>' in home
    page = api.get(f"/listing-details/{listing.slug}").content.decode()
    assert '<span class="badge badge-premium">Premium</span>' in page
    assert "Premium host" in page
    assert "Premium host" in api.get("/host/hosty").content.decode()


def test_after_the_membership_ends_the_listing_is_plain_again(api, users):
    subscription = make_premium(users)
    ListingFactory(host=users["host"], title="Premium hall", is_premium=True)
    ListingFactory(title="Newest plain")
    assert titles(api.get(URL))[0] == "Premium hall"
    subscription.next_billing_date = timezone.now() - dt.timedelta(minutes=1)
    subscription.save(update_fields=["next_billing_date"])
    assert titles(api.get(URL))[0] == "Newest plain"


# --- Hosts that are deleted or suspended ----------------------------------------------------------


@pytest.mark.parametrize("status", ["suspended", "deleted"])
def test_listings_of_a_suspended_or_deleted_host_are_hidden_and_cannot_be_booked(
    api, clients, users, status, django_capture_on_commit_callbacks
):
    hidden = ListingFactory(host=users["other_host"], title="Hidden hall", city="Oslo", country="Norway")
    ListingFactory(title="Shown hall", city="Oslo", country="Norway")
    user_status_set(actor=users["admin"], user=users["other_host"], status=status)

    assert titles(api.get(URL)) == ["Shown hall"]
    assert api.get(f"/listing-details/{hidden.slug}").status_code == 404
    assert "Hidden hall" not in api.get("/event-spaces").content.decode()
    sitemap = api.get("/sitemap-listings.xml").content.decode()
    assert hidden.slug not in sitemap
    assert clients["renter"].get(f"/api/listing/get-single/{hidden.pk}").status_code == 404
    assert clients["renter"].post(f"/api/favourites/add/{hidden.pk}").status_code == 404

    day = weekday()
    response = clients["renter"].post(
        "/api/booking/create",
        {
            "listingId": str(hidden.pk),
            "checkInDate": day.strftime("%d-%m-%Y"),
            "checkOutDate": day.strftime("%d-%m-%Y"),
            "startTime": "10:00 AM",
            "endTime": "02:00 PM",
            "guests": 2,
        },
        format="json",
    )
    assert response.status_code == 409
    assert "not open for booking" in response.json()["message"]


# --- Listings with bookings still to come ---------------------------------------------------------


def test_a_listing_with_upcoming_bookings_cannot_be_deleted_or_deactivated(clients, users):
    listing = ListingFactory(host=users["host"], payment_preference="payLater")
    booking = make_booking(users["renter"], listing)

    for method, url, body in (
        ("delete", f"/api/listing/delete/{listing.pk}", None),
        ("patch", f"/api/listing/toggle-active/{listing.pk}", {"isActive": False}),
    ):
        response = getattr(clients["host"], method)(url, body, format="json")
        assert response.status_code == 409, response.content
        assert "1 upcoming booking" in response.json()["message"]
    # Staff are held to the same rule: the renter was promised the space.
    assert clients["admin"].delete(f"/api/listing/delete/{listing.pk}").status_code == 409
    listing.refresh_from_db()
    assert listing.is_active and not listing.is_deleted

    bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="rejected", reason="Closed")
    off = clients["host"].patch(f"/api/listing/toggle-active/{listing.pk}", {"isActive": False}, format="json")
    assert off.status_code == 200
    assert clients["host"].delete(f"/api/listing/delete/{listing.pk}").status_code == 200


def test_past_bookings_do_not_hold_a_listing(clients, users):
    listing = ListingFactory(host=users["host"], payment_preference="payLater")
    booking = make_booking(users["renter"], listing)
    bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    bookings.bookings_complete_due(now=booking.check_out + dt.timedelta(minutes=1))
    response = clients["host"].delete(f"/api/listing/delete/{listing.pk}")
    assert response.status_code == 200, response.content
    assert re.search("deleted", response.json()["message"])
