"""A listing's description is sanitised on every write path, the Django admin included, and only
sanitised HTML reaches the dashboard (issue 24, 8)."""

import pytest
from django.contrib import admin
from django.test import RequestFactory

from apps.listings.factories import ListingFactory
from apps.listings.models import Listing

pytestmark = pytest.mark.django_db

HOSTILE = (
    '<p>Bright loft</p><meta http-equiv="refresh" content="0;url=https://evil.example">'
    '<img src="x" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">x</a>'
)


def _clean(html: str) -> None:
    lowered = html.lower()
    for bad in ("<meta", "http-equiv", "onerror", "<script", "javascript:"):
        assert bad not in lowered
    assert "<p>Bright loft</p>" in html


def test_a_description_saved_through_the_django_admin_is_sanitised(users):
    listing = ListingFactory(host=users["host"])
    listing.description = HOSTILE
    request = RequestFactory().post("/django-admin/")
    request.user = users["admin"]
    admin.site._registry[Listing].save_model(request, listing, form=None, change=True)
    listing.refresh_from_db()
    _clean(listing.description)


def test_a_description_saved_anywhere_is_stored_sanitised(users):
    listing = ListingFactory(host=users["host"], description=HOSTILE)
    listing.refresh_from_db()
    _clean(listing.description)


def test_the_dashboard_gets_sanitised_html_even_for_a_row_written_around_the_model(clients, users):
    listing = ListingFactory(host=users["host"])
    Listing.objects.filter(pk=listing.pk).update(description=HOSTILE)  # a bulk update skips save()
    response = clients["host"].get(f"/api/listing/get-single/{listing.pk}")
    assert response.status_code == 200
    _clean(response.json()["data"]["description"])


def test_plain_text_descriptions_are_kept_as_written(users):
    listing = ListingFactory(host=users["host"], description="Quiet room & a view\nTwo desks")
    listing.refresh_from_db()
    assert listing.description == "Quiet room & a view\nTwo desks"
