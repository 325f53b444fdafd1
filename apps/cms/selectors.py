"""Reads of CMS content, for the API and for the server-rendered public pages.

``cms_page_get(slug)`` is what the /terms-and-conditions, /privacy-policy and /about-us
templates render: its ``content`` is sanitized again on the way out, so it is safe for ``|safe``.
"""

from django.db import IntegrityError, transaction

from .defaults import DEFAULT_CONTACT, DEFAULT_PAGES
from .models import ContactDetails, Page, PageSlug, ReviewSettings
from .sanitize import sanitize_html


def cms_page_get(slug: str) -> Page:
    """The page for ``slug`` (terms, privacy, about, faq), created from the defaults when missing.

    The returned object's ``content`` is sanitized HTML. An unknown slug raises ValueError.
    """
    if slug not in PageSlug.values:
        raise ValueError(f"unknown CMS page {slug!r}")
    page = Page.objects.filter(slug=slug).first()
    if page is None:
        title, content = DEFAULT_PAGES[slug]
        try:
            with transaction.atomic():
                page = Page.objects.create(slug=slug, title=title, content=sanitize_html(content))
        except IntegrityError:  # created concurrently
            page = Page.objects.get(slug=slug)
    page.content = sanitize_html(page.content)
    return page


def contact_details_get() -> ContactDetails:
    details = ContactDetails.objects.filter(pk=1).first()
    if details is None:
        details, _ = ContactDetails.objects.get_or_create(pk=1, defaults=DEFAULT_CONTACT)
    return details


def review_settings_get() -> ReviewSettings:
    """The review settings; ``review_settings_get().auto_publish`` says whether a new review shows at once."""
    settings_row = ReviewSettings.objects.filter(pk=1).first()
    if settings_row is None:
        settings_row, _ = ReviewSettings.objects.get_or_create(pk=1)
    return settings_row
