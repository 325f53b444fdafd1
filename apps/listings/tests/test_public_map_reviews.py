"""Public pages: the listing page's map, reviews and favourite heart; the search page's map of the results."""

import json
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from apps.bookings.factories import booking_make, future_day
from apps.bookings.models import Review
from apps.listings.factories import ListingFactory
from apps.listings.models import Favourite

pytestmark = pytest.mark.django_db


def props(page: str, element_id: str):
    match = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(match.group(1)) if match else None


@pytest.fixture
def listing(users):
    return ListingFactory(
        host=users["host"], title="Harbour loft", latitude=Decimal("43.642600"), longitude=Decimal("-79.387100")
    )


def test_listing_page_shows_its_map_from_the_tile_server_in_settings(settings, listing):
    settings.MAP_TILE_URL = "http://127.0.0.1:8199/tiles/{z}/{x}/{y}.png"
    page = Client().get(f"/listing-details/{listing.slug}").content.decode()
    map_props = props(page, "listing-map-props")
    assert map_props["tileUrl"] == "http://127.0.0.1:8199/tiles/{z}/{x}/{y}.png"
    assert map_props["markers"] == [{"id": str(listing.pk), "lat": 43.6426, "lng": -79.3871, "title": "Harbour loft"}]
    assert 'data-island="ListingMap"' in page


def test_listing_without_a_pin_has_no_map(users):
    listing = ListingFactory(host=users["host"], latitude=None, longitude=None)
    page = Client().get(f"/listing-details/{listing.slug}").content.decode()
    assert props(page, "listing-map-props") is None and 'data-island="ListingMap"' not in page


def test_listing_page_shows_published_review_texts_with_ratings(users, listing):
    users["renter"].first_name = "Priya"
    users["renter"].save()
    booking = booking_make(renter=users["renter"], listing=listing, day=future_day(5))
    Review.objects.create(
        listing=listing,
        booking=booking,
        renter=users["renter"],
        review="Quiet and bright.",
        rating=4,
        revealed_at=timezone.now(),
    )
    hidden = booking_make(renter=users["other_renter"], listing=listing, day=future_day(9))
    Review.objects.create(
        listing=listing,
        booking=hidden,
        renter=users["other_renter"],
        review="Hidden text",
        rating=1,
        is_published=False,
        revealed_at=timezone.now(),
    )
    page = Client().get(f"/listing-details/{listing.slug}").content.decode()
    section = page.split('id="reviews-title"', 1)[1].split("</section>", 1)[0]
    assert "Quiet and bright." in section and "Priya" in section and "Rated 4 out of 5" in section
    assert "Hidden text" not in page


def test_listing_without_reviews_says_so(listing):
    page = Client().get(f"/listing-details/{listing.slug}").content.decode()
    assert "No reviews yet." in page


def test_favourite_heart_knows_the_visitor(users, listing):
    anonymous = props(Client().get(f"/listing-details/{listing.slug}").content.decode(), "favourite-props")
    assert anonymous == {
        "listingId": str(listing.pk),
        "title": "Harbour loft",
        "favourite": False,
        "isLoggedIn": False,
        "isRenter": False,
    }
    Favourite.objects.create(user=users["renter"], listing=listing)
    client = Client()
    client.force_login(users["renter"])
    renter = props(client.get(f"/listing-details/{listing.slug}").content.decode(), "favourite-props")
    assert renter["favourite"] is True and renter["isLoggedIn"] is True and renter["isRenter"] is True


def test_search_page_maps_its_results_and_its_box(users, listing):
    ListingFactory(host=users["host"], latitude=None, longitude=None, title="No pin")
    page = Client().get("/property-listing").content.decode()
    map_props = props(page, "search-map-props")
    assert [marker["title"] for marker in map_props["markers"]] == ["Harbour loft"]
    assert map_props["markers"][0]["href"] == f"/listing-details/{listing.slug}"
    assert map_props["bounds"] is None
    boxed = Client().get("/property-listing?bounds=43.6,-79.5,43.7,-79.3").content.decode()
    assert props(boxed, "search-map-props")["bounds"] == [43.6, -79.5, 43.7, -79.3]
    outside = Client().get("/property-listing?bounds=45,-75,46,-74").content.decode()
    assert props(outside, "search-map-props")["markers"] == [] and "No results found" in outside


CARD_HEART = re.compile(r'<span class="card-heart" data-heart><script type="application/json">(.*?)</script></span>')


def card_hearts(page: str) -> dict[str, dict]:
    """Each card heart's props on the page, by listing id."""
    return {heart["listingId"]: heart for heart in map(json.loads, CARD_HEART.findall(page))}


def test_every_card_carries_its_heart(users, listing):
    Favourite.objects.create(user=users["renter"], listing=listing)
    client = Client()
    client.force_login(users["renter"])
    for path in ("/", "/property-listing", "/host/hosty"):
        heart = card_hearts(client.get(path).content.decode()).get(str(listing.pk))
        assert heart == {
            "listingId": str(listing.pk),
            "title": listing.title,
            "favourite": True,
            "isLoggedIn": True,
            "isRenter": True,
        }, path
    anonymous = card_hearts(Client().get("/property-listing").content.decode())[str(listing.pk)]
    assert anonymous["favourite"] is False and anonymous["isLoggedIn"] is False and anonymous["isRenter"] is False


def test_a_review_published_by_a_moderator_shows_at_once_on_the_kept_page(users, listing):
    from apps.bookings.reviews.services import review_publish_set

    booking = booking_make(renter=users["renter"], listing=listing, day=future_day(5))
    review = Review.objects.create(
        listing=listing,
        booking=booking,
        renter=users["renter"],
        review="Waits for a moderator.",
        is_published=False,
        revealed_at=timezone.now(),
    )
    assert "Waits for a moderator." not in Client().get(f"/listing-details/{listing.slug}").content.decode()
    review_publish_set(actor=users["admin"], review_id=review.pk, published=True)
    assert "Waits for a moderator." in Client().get(f"/listing-details/{listing.slug}").content.decode()
