"""Public pages (server-rendered), the sitemap and robots.txt."""

from django.contrib.sitemaps import views as sitemap_views
from django.urls import path
from django.views.decorators.cache import cache_page

from . import pages
from .sitemaps import SITEMAPS

urlpatterns = [
    path("", pages.home, name="home"),
    path("property-listing", pages.property_listing, name="property-listing"),
    path("listing-details/<str:slug>", pages.listing_details, name="listing-details"),
    path("host/<str:user_name>", pages.host_profile, name="host-profile"),
    path("about-us", pages.about, name="about-us"),
    path("contact-us", pages.contact, name="contact-us"),
    path("terms-and-conditions", pages.terms, name="terms"),
    path("privacy-policy", pages.privacy, name="privacy"),
    path("become-host", pages.become_host, name="become-host"),
    path("robots.txt", pages.robots_txt, name="robots"),
    path(
        "sitemap.xml",
        cache_page(3600)(sitemap_views.index),
        {"sitemaps": SITEMAPS, "sitemap_url_name": "sitemap-section"},
        name="sitemap",
    ),
    path(
        "sitemap-<section>.xml",
        cache_page(3600)(sitemap_views.sitemap),
        {"sitemaps": SITEMAPS},
        name="sitemap-section",
    ),
    # The two categories; any other first segment falls through to the not-found page.
    path("coworking-spaces", pages.property_listing, {"space": "coworking-spaces"}, name="coworking-spaces"),
    path("event-spaces", pages.property_listing, {"space": "event-spaces"}, name="event-spaces"),
    path("coworking-spaces/<slug:city>", pages.property_listing, {"space": "coworking-spaces"}, name="coworking-city"),
    path("event-spaces/<slug:city>", pages.property_listing, {"space": "event-spaces"}, name="event-city"),
]
