"""``/sitemap.xml``: an index of three sections (pages and categories, city pages, listing pages)."""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.utils.text import slugify

from apps.listings.policies import public_listings
from apps.listings.search import CATEGORY_BY_TYPE, searchable_listings


class _SiteSitemap(Sitemap):
    """Absolute URLs on the public address (``settings.SITE_URL``), whatever host the request used."""

    def get_domain(self, site=None) -> str:
        return urlsplit(settings.SITE_URL).netloc

    def get_protocol(self, protocol=None) -> str:
        return urlsplit(settings.SITE_URL).scheme or "https"


class PagesSitemap(_SiteSitemap):
    changefreq = "weekly"
    priority = 0.6

    def items(self) -> list[str]:
        return [
            "/",
            "/property-listing",
            "/coworking-spaces",
            "/event-spaces",
            "/about-us",
            "/become-host",
            "/contact-us",
            "/terms-and-conditions",
            "/privacy-policy",
        ]

    def location(self, item: str) -> str:
        return item


class CitySitemap(_SiteSitemap):
    """``/{category}/{city}`` for every city with a public listing of that category."""

    changefreq = "daily"
    priority = 0.7

    def items(self) -> list[str]:
        pairs = searchable_listings().values_list("property_type", "city").distinct().order_by("property_type", "city")
        seen: list[str] = []
        for property_type, city in pairs:
            path = f"/{CATEGORY_BY_TYPE[property_type]}/{slugify(city)}"
            if slugify(city) and path not in seen:
                seen.append(path)
        return seen

    def location(self, item: str) -> str:
        return item


class ListingSitemap(_SiteSitemap):
    """Every approved, active, not deleted listing (the ones whose page opens)."""

    changefreq = "weekly"
    priority = 0.8
    limit = 10_000

    def items(self):
        return public_listings().order_by("created_at", "id").values("slug", "updated_at")

    def location(self, item: dict) -> str:
        return f"/listing-details/{item['slug']}"

    def lastmod(self, item: dict):
        return item["updated_at"]


SITEMAPS = {"pages": PagesSitemap, "cities": CitySitemap, "listings": ListingSitemap}
