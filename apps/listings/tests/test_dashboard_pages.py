"""The listing screens of the dashboard mount their islands for every role the route table allows."""

import pytest

from apps.listings.factories import ListingFactory

pytestmark = pytest.mark.django_db

ROLE_ACTORS = {"admin": "admin", "moderator": "moderator", "host": "host", "subHost": "sub_host", "renter": "renter"}
STAFF_AND_HOSTS = {"admin", "moderator", "host", "subHost"}
EVERYONE = set(ROLE_ACTORS)


@pytest.mark.parametrize(
    ("path", "island", "view", "allowed"),
    [
        ("/listing", "DashboardListings", "list", STAFF_AND_HOSTS),
        ("/listing-requests", "DashboardListings", "requests", STAFF_AND_HOSTS),
        ("/other-requests", "DashboardListings", "otherRequests", {"host", "subHost"}),
        ("/listing-detail/LISTING", "DashboardListings", "detail", EVERYONE),
        ("/add-new-listing", "DashboardListingForm", None, {"host", "subHost"}),
        ("/edit-listing/LISTING", "DashboardListingForm", None, STAFF_AND_HOSTS),
        ("/manage-amenities", "DashboardAmenities", None, {"admin", "moderator"}),
        ("/favourites", "DashboardFavourites", None, {"renter"}),
        ("/calender", "DashboardCalendar", None, EVERYONE),
    ],
)
def test_listing_pages_mount_their_island_for_allowed_roles(client, users, path, island, view, allowed):
    listing = ListingFactory(host=users["host"])
    path = path.replace("LISTING", str(listing.pk))
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        response = client.get(path)
        assert response.status_code == 200
        html = response.content.decode()
        props = response.context["page_props"]
        if role in allowed:
            assert response.context["page_island"] == island, role
            assert props.get("view") == view
            assert props["role"] == role
            assert f'data-island="{island}"' in html
            assert "This page is coming soon" not in html
        else:
            assert props["route"] == "dashboard", role
            assert response.context["page_island"] != island


def test_listing_form_props_carry_tax_premium_and_map_tiles(client, users, settings):
    settings.MAP_TILE_URL = "http://127.0.0.1:8199/{z}/{x}/{y}.png"
    users["host"].tax = 13
    users["host"].save()
    for actor in ("host", "sub_host"):
        client.force_login(users[actor])
        props = client.get("/add-new-listing").context["page_props"]
        assert props["mode"] == "add" and props["hostTax"] == "13.00"
        assert props["isPremiumHost"] is False and props["tileUrl"] == "http://127.0.0.1:8199/{z}/{x}/{y}.png"
    listing = ListingFactory(host=users["host"])
    client.force_login(users["host"])
    props = client.get(f"/edit-listing/{listing.pk}").context["page_props"]
    assert props["mode"] == "edit" and props["id"] == str(listing.pk)


def test_listing_detail_passes_the_request_it_was_opened_for(client, users):
    listing = ListingFactory(host=users["host"])
    client.force_login(users["moderator"])
    props = client.get(f"/listing-detail/{listing.pk}?request=abc").context["page_props"]
    assert props["requestId"] == "abc" and props["id"] == str(listing.pk)
