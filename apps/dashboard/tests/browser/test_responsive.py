"""No page is wider than a phone: every public page at 360 and 390 px, and every signed-in route for
every role at 390 px, checked in Chromium (the document's width never exceeds the viewport)."""

import io
import json

import pytest

from apps.accounts.models import User
from apps.accounts.seed import seed as seed_accounts
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.dashboard.navigation import ROUTES

from .test_shell import DEMO, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

# What overflows, to say so in the failure: elements reaching past the right edge, deepest first.
MEASURE = """() => {
  const view = window.innerWidth;
  const wide = [];
  for (const element of document.body.querySelectorAll('*')) {
    const box = element.getBoundingClientRect();
    if (box.width && box.right > view + 1 && !element.closest('.visually-hidden, [hidden], dialog:not([open])')) {
      wide.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right=${Math.round(box.right)}`);
    }
  }
  return {width: document.documentElement.scrollWidth, view, wide: wide.slice(-5)};
}"""


def settled(page, path: str) -> None:
    page.goto(path, wait_until="load")
    # Islands have mounted and their first reads have answered (no loading spinner left).
    page.wait_for_function("() => !document.querySelector('.dash-loading, [aria-busy=true]')", timeout=10_000)


def overflowing(page, paths: list[str]) -> dict[str, dict]:
    found = {}
    for path in paths:
        settled(page, path)
        measure = page.evaluate(MEASURE)
        if measure["width"] > measure["view"]:
            found[path] = measure
    return found


@pytest.fixture
def site():
    seed_accounts(io.StringIO())
    host = User.objects.get(email=DEMO["host"])
    renter = User.objects.get(email=DEMO["renter"])
    if not host.user_name:
        host.user_name = "harbourhost"
        host.save(update_fields=["user_name"])
    listing = PricedEventListingFactory(
        host=host, title="Harbour Loft with a rather long name for small screens", city="Toronto"
    )
    booking = booking_make(renter=renter, listing=listing, day=weekday(10))
    return {"host": host, "renter": renter, "listing": listing, "booking": booking}


@pytest.mark.parametrize("width", [360, 390])
def test_public_pages_fit_a_phone(page, site, width):
    page.set_viewport_size({"width": width, "height": 800})
    listing = site["listing"]
    paths = [
        "/",
        "/about-us",
        "/property-listing",
        "/event-spaces",
        "/event-spaces/toronto",
        "/coworking-spaces",
        f"/listing-details/{listing.slug}",
        f"/host/{site['host'].user_name}",
        "/become-host",
        "/contact-us",
        "/terms-and-conditions",
        "/privacy-policy",
        "/no/such/page",
    ]
    found = overflowing(page, paths)
    assert not found, json.dumps(found, indent=1)


@pytest.mark.parametrize("role", list(DEMO))
def test_every_signed_in_route_fits_a_phone_for_every_role(page, site, role):
    page.set_viewport_size({"width": 390, "height": 800})
    sign_in(page, DEMO[role])
    ids = {
        "listing-detail": str(site["listing"].pk),
        "edit-listing": str(site["listing"].pk),
        "booking-detail": str(site["booking"].pk),
        "booking-request-details": str(site["booking"].pk),
        "view-user": str(site["renter"].pk),
    }
    paths = ["/" + route.path.replace("<id>", ids.get(route.name, "0")) for route in ROUTES]
    found = overflowing(page, paths)
    assert not found, json.dumps(found, indent=1)


def test_phone_menu_button_and_filters_drawer(page, site):
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 390, "height": 800})
    page.goto("/property-listing")
    about = page.get_by_role("link", name="About", exact=True)
    expect(about).to_be_hidden()
    page.get_by_role("button", name="Menu").click()
    expect(about).to_be_visible()
    title = page.locator("#f-title")
    expect(title).to_be_hidden()
    page.get_by_role("button", name="Filters", exact=True).click()
    expect(title).to_be_visible()
    page.keyboard.press("Escape")
    expect(title).to_be_hidden()

    page.set_viewport_size({"width": 1280, "height": 900})
    page.reload()
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    expect(page.get_by_role("link", name="About", exact=True)).to_be_visible()
    expect(page.locator("#f-title")).to_be_visible()
