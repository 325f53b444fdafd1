"""Favourites: renters save listings; listing outputs carry the flag without a query per row."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.core.testing import check_role_matrix
from apps.listings.factories import FavouriteFactory, ListingFactory, OfficeListingFactory
from apps.listings.models import Favourite

pytestmark = pytest.mark.django_db


def test_renter_adds_lists_and_removes(clients, users):
    listing = ListingFactory()
    response = clients["renter"].post(f"/api/favourites/add/{listing.pk}")
    assert response.status_code == 201 and response.json()["message"] == "Added to your favourites."
    assert response.json()["data"]["favourite"] is True
    again = clients["renter"].post(f"/api/favourites/add/{listing.pk}")
    assert again.status_code == 200 and again.json()["message"] == "Already in your favourites."
    assert Favourite.objects.filter(user=users["renter"]).count() == 1

    page = clients["renter"].get("/api/favourites/get-all").json()["data"]
    assert page["totalCount"] == 1 and page["listings"][0]["_id"] == str(listing.pk)
    assert page["listings"][0]["favourite"] is True
    assert clients["other_renter"].get("/api/favourites/get-all").json()["data"]["totalCount"] == 0
    # the flag is the caller's own
    assert clients["renter"].get(f"/api/listing/get-single/{listing.pk}").json()["data"]["favourite"] is True
    assert clients["other_renter"].get(f"/api/listing/get-single/{listing.pk}").json()["data"]["favourite"] is False

    removed = clients["renter"].delete(f"/api/favourites/remove/{listing.pk}")
    assert removed.status_code == 200 and removed.json()["message"] == "Removed from your favourites."
    assert clients["renter"].delete(f"/api/favourites/remove/{listing.pk}").json()["message"] == (
        "This listing was not in your favourites."
    )
    assert clients["renter"].get("/api/favourites/get-all").json()["data"]["totalCount"] == 0


def test_only_live_listings_can_be_saved_and_are_listed(clients, users):
    pending = ListingFactory(pending=True)
    inactive = ListingFactory(is_active=False)
    assert clients["renter"].post(f"/api/favourites/add/{pending.pk}").status_code == 404
    assert clients["renter"].post(f"/api/favourites/add/{inactive.pk}").status_code == 404
    assert clients["renter"].post("/api/favourites/add/not-a-uuid").status_code == 404
    gone = ListingFactory()
    FavouriteFactory(user=users["renter"], listing=gone)
    gone.is_deleted = True
    gone.save()
    assert clients["renter"].get("/api/favourites/get-all").json()["data"]["totalCount"] == 0


def test_favourites_role_matrix(clients):
    listing = ListingFactory()
    check_role_matrix(clients, "post", f"/api/favourites/add/{listing.pk}", allowed={"renter", "other_renter"})
    check_role_matrix(clients, "get", "/api/favourites/get-all", allowed={"renter", "other_renter"})
    check_role_matrix(clients, "delete", f"/api/favourites/remove/{listing.pk}", allowed={"renter", "other_renter"})


def test_favourite_flag_costs_no_query_per_row(clients, users):
    def queries():
        with CaptureQueriesContext(connection) as context:
            response = clients["renter"].get("/api/favourites/get-all")
            assert response.status_code == 200
        return len(context.captured_queries), response.json()["data"]["listings"]

    FavouriteFactory(user=users["renter"], listing=ListingFactory())
    few, _ = queries()
    assert 0 < few <= 10
    for _ in range(6):
        FavouriteFactory(user=users["renter"], listing=OfficeListingFactory(images=3))
    many, listings = queries()
    assert many == few and len(listings) == 7 and all(item["favourite"] for item in listings)
