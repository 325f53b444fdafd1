"""The public site's pages: home, about, contact, terms, privacy, become a host, sitemap, robots and not found."""

import re

import pytest
from django.test import Client

from apps.core.tests.pages import canonical_of, html, json_ld, meta, title_of
from apps.listings.factories import (
    ListingFactory,
    OfficeListingFactory,
)
from apps.payments.subscriptions import subscription_grant

SITE = "http://127.0.0.1:8000"


@pytest.fixture
def browser() -> Client:
    return Client()


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = SITE


@pytest.mark.django_db
class TestHome:
    def test_home_has_search_categories_featured_and_cities(self, browser, users):
        subscription_grant(host=users["host"], by=users["admin"])
        ListingFactory(host=users["host"], title="Premium Hall", is_premium=True, city="Sydney", country="Australia")
        OfficeListingFactory(title="Plain Desks", city="London", country="United Kingdom")
        page = html(browser.get("/"))
        assert title_of(page).startswith("Spacemarket")
        assert canonical_of(page) == f"{SITE}/"
        assert 'action="/property-listing"' in page and 'role="search"' in page
        assert 'href="/coworking-spaces"' in page and 'href="/event-spaces"' in page
        assert page.index("Premium Hall") < page.index("Plain Desks")
        assert "/coworking-spaces/sydney" in page
        assert meta(page, "og:title") and meta(page, "description")
        assert json_ld(page)[0]["@type"] == "WebSite"

    def test_home_query_count_does_not_grow_with_listings(self, browser, django_assert_max_num_queries):
        ListingFactory.create_batch(8, images=2)
        with django_assert_max_num_queries(8):
            html(browser.get("/"))


@pytest.mark.django_db
class TestStaticPages:
    @pytest.mark.parametrize(
        ("path", "title"),
        [
            ("/about-us", "About us and help center | Spacemarket"),
            ("/contact-us", "Contact us | Spacemarket"),
            ("/terms-and-conditions", "Terms and conditions | Spacemarket"),
            ("/privacy-policy", "Privacy policy | Spacemarket"),
            ("/become-host", "Become a host: list your space | Spacemarket"),
        ],
    )
    def test_titles_and_canonical_urls(self, browser, path, title):
        page = html(browser.get(path))
        assert title_of(page) == title
        assert canonical_of(page) == f"{SITE}{path}"
        assert meta(page, "description") and meta(page, "og:title")
        assert '<main id="main">' in page

    def test_faq_anchor(self, browser):
        assert browser.get("/about-us?scroll=faq")["Location"] == "/about-us#faq"
        assert 'id="faq"' in html(browser.get("/about-us"))

    def test_privacy_shows_today_and_the_laws(self, browser):
        from django.utils import timezone

        page = html(browser.get("/privacy-policy"))
        assert f"Last updated: {timezone.localdate():%d-%m-%Y}" in page

    def test_contact_form_posts_to_the_page(self, browser):
        page = html(browser.get("/contact-us"))
        assert 'action="/contact-us"' in page
        for field in ("name", "phoneNumber", "email", "message"):
            assert f'name="{field}"' in page

    def test_any_other_path_is_the_not_found_page(self, browser):
        response = browser.get("/no/such/page")
        assert response.status_code == 404
        assert "Page not found" in response.content.decode()


@pytest.mark.django_db
class TestSitemapAndRobots:
    def test_robots_points_to_the_sitemap(self, browser):
        body = browser.get("/robots.txt").content.decode()
        assert f"Sitemap: {SITE}/sitemap.xml" in body and "Disallow: /api/" in body

    def test_sitemap_lists_categories_cities_and_approved_listings(self, browser):
        shown = ListingFactory(title="Shown", city="San Francisco")
        OfficeListingFactory(city="London")
        hidden = ListingFactory(title="Hidden", pending=True, city="Oslo")
        index = browser.get("/sitemap.xml").content.decode()
        sections = re.findall(r"<loc>[^<]*?(/sitemap-\w+\.xml)</loc>", index)
        assert set(sections) == {"/sitemap-pages.xml", "/sitemap-cities.xml", "/sitemap-listings.xml"}
        body = "".join(browser.get(section).content.decode() for section in sections)
        assert f"<loc>{SITE}/coworking-spaces</loc>" in body and f"<loc>{SITE}/event-spaces</loc>" in body
        assert f"<loc>{SITE}/event-spaces/san-francisco</loc>" in body
        assert f"<loc>{SITE}/coworking-spaces/london</loc>" in body
        assert f"/listing-details/{shown.slug}</loc>" in body
        assert hidden.slug not in body and "oslo" not in body
