from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The public site's own pages: home, about and FAQ, contact, terms, privacy, become a host,
    robots.txt and the sitemaps. Search, listing and host pages belong to listings."""

    name = "apps.site"
    label = "site"
