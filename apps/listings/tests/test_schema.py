"""The listing responses pages read match their OpenAPI components exactly."""

import pytest

from apps.core.schema_check import check
from apps.listings.factories import FavouriteFactory, ListingFactory, OfficeListingFactory
from apps.listings.models import OfferingKind

pytestmark = pytest.mark.django_db


def test_listing_responses_match_the_schema(clients, users):
    listing = ListingFactory(host=users["host"], opening_hours={"monday": {"open": "09:00", "close": "18:00"}})
    office = OfficeListingFactory(host=users["host"], offerings=[OfferingKind.HOT_DESK])
    FavouriteFactory(user=users["renter"], listing=listing)
    for actor in ("renter", "host", "admin"):
        for item in (listing, office):
            response = clients[actor].get(f"/api/listing/get-single/{item.pk}")
            assert response.status_code == 200, response.content
            check("ListingDetailResponse", response.json())
            # Its status history is for staff and the listing's host side only.
            assert ("statusHistory" in response.json()["data"]) == (actor != "renter")
    check("ListingPage", clients["host"].get("/api/listing/get-all").json())
    check("FavouritePage", clients["renter"].get("/api/favourites/get-all").json())
    check("FavouriteRemoveResponse", clients["renter"].delete(f"/api/favourites/remove/{listing.pk}").json())
    deleted = clients["host"].delete(f"/api/listing/delete/{office.pk}")
    assert deleted.status_code == 200, deleted.content
    check("ListingDeleteResponse", deleted.json())
