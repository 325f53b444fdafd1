"""Every listing screen of the dashboard for every role the route table allows, at 390 px: the page
draws (no "coming soon"), nothing is wider than the screen, and axe finds no serious problem."""

import io

import pytest
from playwright.sync_api import expect

from apps.accounts.models import User
from apps.accounts.seed import seed as seed_accounts
from apps.bookings.factories import booking_make, future_day
from apps.core.tests.browser.fixtures import axe_violations
from apps.dashboard.navigation import ROUTES_BY_NAME
from apps.dashboard.tests.browser.test_shell import DEMO, sign_in
from apps.listings.factories import AmenityFactory, ListingFactory
from apps.listings.models import Favourite

pytestmark = pytest.mark.django_db(transaction=True)

ROUTES = ["listing", "listing-requests", "other-requests", "listing-detail", "add-new-listing", "edit-listing",
          "manage-amenities", "favourites", "calender"]  # fmt: skip
# What each screen shows once it has drawn.
HEADINGS = {
    "listing": r"(My|Manage) Listing",
    "listing-requests": "Listing Requests",
    "other-requests": "Other Requests",
    "listing-detail": "Corner Studio",
    "add-new-listing": "Add New Listing",
    "edit-listing": "Edit Listing",
    "manage-amenities": "Manage Amenities",
    "favourites": "Favourites",
    "calender": "My Calender",
}


WIDE_ELEMENTS = """() => [...document.querySelectorAll('main *')]
  .filter((el) => el.getBoundingClientRect().right > 391)
  .slice(0, 6)
  .map((el) => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))"""


@pytest.fixture
def data(settings, live_server):
    settings.MAP_TILE_URL = f"{live_server.url}/tiles/{{z}}/{{x}}/{{y}}.png"
    seed_accounts(io.StringIO())
    people = {role: User.objects.get(email=email) for role, email in DEMO.items()}
    AmenityFactory(name="Projector")
    listing = ListingFactory(host=people["host"], title="Corner Studio")
    ListingFactory(host=people["host"], title="Waiting Room", pending=True)
    booking_make(renter=people["renter"], listing=listing, day=future_day(3))
    Favourite.objects.create(user=people["renter"], listing=listing)
    return {"people": people, "listing": listing}


def test_each_listing_screen_for_each_allowed_role_at_390px(page, data):
    import re

    page.set_viewport_size({"width": 390, "height": 844})
    checked = 0
    for role, email in DEMO.items():
        page.context.clear_cookies()
        sign_in(page, email)
        for name in ROUTES:
            route = ROUTES_BY_NAME[name]
            if not route.allows(role):
                continue
            path = "/" + route.path.replace("<id>", str(data["listing"].pk))
            page.goto(path)
            expect(page.get_by_role("heading", name=re.compile(HEADINGS[name])).first).to_be_visible()
            expect(page.locator("main")).not_to_contain_text("This page is coming soon")
            expect(page.locator("main .spinner, main .dash-loading")).to_have_count(0)
            width = page.evaluate("document.documentElement.scrollWidth")
            wide = page.evaluate(WIDE_ELEMENTS) if width > 390 else []
            assert width <= 390, f"{path} as {role} is {width}px wide: {wide}"
            assert axe_violations(page, include=["main"]) == [], f"{path} as {role}"
            checked += 1
    assert checked == 29
