"""axe-core finds no serious or critical problems on the public pages and the modal's steps."""

import pytest
from playwright.sync_api import expect

from apps.listings.factories import ListingFactory

from .fixtures import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("path", ["/", "/about-us", "/property-listing", "/become-host", "/contact-us"])
def test_public_page_has_no_serious_violations(page, path):
    ListingFactory(title="Harbour View Loft", slug="harbour-view-loft")
    page.goto(path)
    assert axe_violations(page) == []


@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("/login", "Welcome back Please log in"),
        ("/register", "Create an account"),
        ("/?auth=forgotPassword", "Provide Email"),
        ("/reset-password", "Reset Your Password"),
    ],
)
def test_auth_modal_step_has_no_serious_violations(page, path, heading):
    page.goto(path)
    dialog = page.locator("dialog.auth-modal")
    expect(dialog.get_by_role("heading", name=heading)).to_be_visible()
    assert axe_violations(page, include=["dialog.auth-modal"]) == []


def test_navbar_search_results_have_no_serious_violations(page):
    ListingFactory(title="Harbour View Loft", slug="harbour-view-loft")
    page.goto("/about-us")
    page.get_by_role("button", name="Search spaces").click()
    page.get_by_role("searchbox", name="Search spaces by title").fill("harbour")
    expect(page.get_by_role("link", name="Harbour View Loft")).to_be_visible()
    assert axe_violations(page, include=["header.navbar"]) == []
