"""Staff moderation of reviews: the list for /review-setting, publishing and hiding, the listing's rating."""

from decimal import Decimal

import pytest
from django.utils import timezone

from apps.bookings.models import Booking, BookingStatus, Review
from apps.core.testing import check_role_matrix
from apps.listings.models import Listing

from .conftest import make_booking

pytestmark = pytest.mark.django_db

STAFF = ("admin", "moderator")


@pytest.fixture
def held_review(users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.COMPLETED)
    return Review.objects.create(
        listing=event_listing,
        booking=booking,
        renter=users["renter"],
        review="Bright room",
        rating=4,
        is_published=False,
        # Revealed (both sides reviewed, or the review period ended): only moderation holds it back.
        revealed_at=timezone.now(),
    )


def test_list_is_for_staff_and_filters_by_status(clients, held_review):
    check_role_matrix(clients, "get", "/api/reviews/get-all", allowed=STAFF)
    data = clients["moderator"].get("/api/reviews/get-all", {"filters[status]": "pending"}).json()["data"]
    assert data["totalCount"] == 1
    item = data["reviews"][0]
    assert item["review"] == "Bright room" and item["isPublished"] is False
    assert item["listing"]["title"] == held_review.listing.title and item["renter"]["email"] == "renter@test.example"
    assert item["can"] == {"publish": True, "hide": False}
    assert (
        clients["admin"].get("/api/reviews/get-all", {"filters[status]": "published"}).json()["data"]["reviews"] == []
    )
    bad = clients["admin"].get("/api/reviews/get-all", {"filters[status]": "odd"})
    assert bad.status_code == 400 and "filters[status]" in bad.json()["errors"]


def test_publishing_counts_the_review_and_hiding_removes_it(clients, held_review):
    url = f"/api/reviews/update-status/{held_review.pk}"
    check_role_matrix(clients, "patch", url, allowed=STAFF, data={"isPublished": False}, hidden_status=(403,))
    held_review.refresh_from_db()
    assert held_review.is_published is False
    response = clients["moderator"].patch(url, {"isPublished": True}, format="json")
    assert response.status_code == 200 and response.json()["message"] == "Review published."
    assert response.json()["data"]["can"] == {"publish": False, "hide": True}
    listing = Listing.objects.get(pk=held_review.listing_id)
    assert (listing.rating_average, listing.rating_count) == (Decimal("4.00"), 1)
    clients["admin"].patch(url, {"isPublished": False}, format="json")
    listing.refresh_from_db()
    assert listing.rating_count == 0


def test_refused_and_bad_changes_change_nothing(clients, held_review):
    url = f"/api/reviews/update-status/{held_review.pk}"
    for actor in ("renter", "host", "sub_host"):
        assert clients[actor].patch(url, {"isPublished": True}, format="json").status_code == 403
    bad = clients["admin"].patch(url, {"isPublished": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"]["isPublished"] == ["isPublished must be true or false"]
    missing = clients["admin"].patch(
        "/api/reviews/update-status/00000000-0000-0000-0000-000000000000", {"isPublished": True}, format="json"
    )
    assert missing.status_code == 404
    held_review.refresh_from_db()
    assert held_review.is_published is False
