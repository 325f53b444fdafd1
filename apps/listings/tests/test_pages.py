"""Server-rendered discovery pages: search, listing and host pages (titles, canonical URLs, JSON-LD)."""

import json
import re
from decimal import Decimal

import pytest
from django.test import Client

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.core.tests.pages import canonical_of, html, json_ld, meta, title_of
from apps.listings.factories import (
    AddOnFactory,
    AmenityFactory,
    FacilityFactory,
    ListingFactory,
    OfficeListingFactory,
)

SITE = "http://127.0.0.1:8000"


@pytest.fixture
def browser() -> Client:
    return Client()


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = SITE


@pytest.mark.django_db
class TestSearchPages:
    def test_property_listing_filters_with_a_plain_form(self, browser):
        ListingFactory(title="Harbour Hall", city="Toronto", guest=100)
        ListingFactory(title="Tiny Hall", city="Toronto", guest=5)
        page = html(browser.get("/property-listing", {"city": "toronto", "guests": "50"}))
        assert "Harbour Hall" in page and "Tiny Hall" not in page
        assert title_of(page) == "Spaces to book | Spacemarket"
        assert canonical_of(page) == f"{SITE}/property-listing"
        assert '<label for="f-city">City</label>' in page

    def test_category_and_city_pages(self, browser):
        OfficeListingFactory(title="Soho Desks", city="New York")
        ListingFactory(title="Soho Hall", city="New York")
        page = html(browser.get("/coworking-spaces/new-york"))
        assert title_of(page) == "Coworking spaces in New York | Spacemarket"
        assert canonical_of(page) == f"{SITE}/coworking-spaces/new-york"
        assert "Soho Desks" in page and "Soho Hall" not in page
        assert "Event spaces" in title_of(html(browser.get("/event-spaces")))

    def test_unknown_category_is_not_found(self, browser):
        assert browser.get("/castles").status_code == 404
        assert browser.get("/castles/london").status_code == 404

    def test_footer_type_links_lead_to_the_categories(self, browser):
        assert browser.get("/listing?type=workSpaces", follow=True).redirect_chain[-1][0] == "/coworking-spaces"
        assert browser.get("/property-listing?type=eventSpaces")["Location"] == "/event-spaces"

    def test_pagination_links_keep_the_filters(self, browser):
        ListingFactory.create_batch(12, city="Leeds", images=0)
        page = html(browser.get("/property-listing", {"city": "Leeds"}))
        assert "12 spaces found" in page
        assert 'href="/property-listing?city=Leeds&amp;page=2"' in page
        second = html(browser.get("/property-listing", {"city": "Leeds", "page": "2"}))
        assert 'aria-current="page">2<' in second

    def test_bad_filter_shows_a_message_not_an_error_page(self, browser):
        response = browser.get("/property-listing", {"minPrice": "cheap"})
        assert response.status_code == 400
        assert "Minimum price must be a number." in response.content.decode()

    def test_no_results(self, browser):
        assert "No results found" in html(browser.get("/property-listing", {"title": "nothing like this"}))


@pytest.mark.django_db
class TestListingDetails:
    def test_page_has_title_canonical_gallery_prices_host_and_booking_island(self, browser):
        host = UserFactory(role=Role.HOST, user_name="hannah", first_name="Hannah", last_name="Host")
        wifi = AmenityFactory(name="Wi-Fi")
        AmenityFactory(name="Espresso bar")  # another listing's
        listing = OfficeListingFactory(
            title="King West Loft",
            city="Toronto",
            host=host,
            images=2,
            amenities=[wifi, AmenityFactory(name="Air conditioning")],
            facilities=[FacilityFactory(name="Parking"), FacilityFactory(name="Elevator")],
            rating_average=Decimal("4.50"),
            rating_count=12,
            cancellation_policy="moderate",
        )
        AddOnFactory(listing=listing, title="Locker", price=Decimal("15"))
        page = html(browser.get(f"/listing-details/{listing.slug}"))
        assert title_of(page) == "King West Loft in Toronto | Spacemarket"
        assert canonical_of(page) == f"{SITE}/listing-details/{listing.slug}"
        assert meta(page, "og:type") == "place"
        assert page.count('<figure class="gallery-item') == 2 and 'alt="King West Loft' in page
        assert "Hot Desk" in page and "$30.00" in page and "Locker: $15.00" in page
        amenities = page.split('id="amenities-title"', 1)[1].split("</section>", 1)[0]
        facilities = page.split('id="facilities-title"', 1)[1].split("</section>", 1)[0]
        assert re.findall(r"<li>(.*?)</li>", amenities) == ["Air conditioning", "Wi-Fi"]
        assert re.findall(r"<li>(.*?)</li>", facilities) == ["Elevator", "Parking"]
        assert 'href="/host/hannah"' in page
        assert "openstreetmap.org/?mlat=" in page
        assert "Cancellation policy: Moderate" in page
        assert '<div data-island="BookingWidget" data-props-id="booking-widget-props"></div>' in page
        props = json.loads(
            re.search(r'id="booking-widget-props" type="application/json">(.*?)</script>', page).group(1)
        )
        assert props["listingId"] == str(listing.id) and props["spaceOffering"][0]["kind"]

    def test_json_ld_is_a_local_business_with_offers_and_rating(self, browser):
        listing = ListingFactory(title="Harbour Hall", rating_average=Decimal("4.20"), rating_count=7)
        blocks = json_ld(html(browser.get(f"/listing-details/{listing.slug}")))
        business = next(block for block in blocks if "LocalBusiness" in block["@type"])
        assert "Place" in business["@type"]
        assert business["name"] == "Harbour Hall"
        assert business["address"]["addressLocality"] == "New York"
        assert {offer["price"] for offer in business["offers"]} == {"50.00", "300.00", "1500.00"}
        assert business["offers"][0]["priceCurrency"] == "USD"
        assert business["aggregateRating"] == {
            "@type": "AggregateRating",
            "ratingValue": "4.20",
            "reviewCount": 7,
            "bestRating": 5,
            "worstRating": 1,
        }
        assert any(block["@type"] == "BreadcrumbList" for block in blocks)

    def test_json_ld_escapes_html_in_titles(self, browser):
        listing = ListingFactory(title="</script><script>alert(1)</script>")
        page = html(browser.get(f"/listing-details/{listing.slug}"))
        assert "<script>alert(1)" not in page

    @pytest.mark.parametrize(
        "options", [{"pending": True}, {"rejected": True}, {"is_active": False}, {"is_deleted": True}]
    )
    def test_only_approved_active_listings_open(self, browser, options):
        listing = ListingFactory(**options)
        assert browser.get(f"/listing-details/{listing.slug}").status_code == 404

    def test_unknown_slug_is_the_not_found_page(self, browser):
        response = browser.get("/listing-details/no-such-space")
        assert response.status_code == 404
        assert "Page not found" in response.content.decode()

    def test_query_count_does_not_grow_with_images_and_offerings(self, browser, django_assert_max_num_queries):
        small = OfficeListingFactory(images=1)
        large = OfficeListingFactory(images=8, offerings=["hotDesk", "privateCabin", "meetingSpace", "avRoom"])
        AddOnFactory.create_batch(5, listing=large)
        with django_assert_max_num_queries(7):
            html(browser.get(f"/listing-details/{small.slug}"))
        with django_assert_max_num_queries(7):
            html(browser.get(f"/listing-details/{large.slug}"))


@pytest.mark.django_db
class TestHostProfile:
    def test_a_host_with_a_user_name_has_a_page(self, browser):
        host = UserFactory(role=Role.HOST, user_name="hugo", first_name="Hugo", last_name="Harper", bio="Venues.")
        ListingFactory(host=host, title="Hugo's Hall")
        ListingFactory(host=host, title="Hugo's Pending", pending=True)
        page = html(browser.get("/host/hugo"))
        assert title_of(page) == "Hugo Harper, host on Spacemarket"
        assert canonical_of(page) == f"{SITE}/host/hugo"
        assert "Hugo&#x27;s Hall" in page and "Pending" not in page

    def test_unknown_or_nameless_or_non_hosts_are_not_found(self, browser):
        UserFactory(role=Role.RENTER, user_name="riley")
        UserFactory(role=Role.HOST, user_name="gone", is_deleted=True)
        for name in ("nobody", "riley", "gone", ""):
            assert browser.get(f"/host/{name}").status_code == 404, name
