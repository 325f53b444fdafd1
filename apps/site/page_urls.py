"""The public site's pages, the sitemap and robots.txt."""

from django.contrib.sitemaps import views as sitemap_views
from django.urls import path
from django.views.decorators.cache import cache_page

from . import pages
from .sitemaps import SITEMAPS

urlpatterns = [
    path("", pages.home, name="home"),
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
]
