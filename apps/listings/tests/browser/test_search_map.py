"""The search page's map on a phone and on a desktop, in a real browser.

On a phone (390 px) the results come first and the map waits behind a "Show map" button: Leaflet is
not fetched until it is pressed; once shown, moving the map searches its box. On a desktop the map
is drawn beside the results from the start."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from apps.core.tests.browser.fixtures import axe_violations
from apps.listings.factories import ListingFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site(settings, live_server, users):
    # Tiles from the test server itself (they answer 404; the map still draws its markers).
    settings.MAP_TILE_URL = f"{live_server.url}/tiles/{{z}}/{{x}}/{{y}}.png"
    for title, lat, lng in (
        ("Harbour Loft", "43.642600", "-79.387100"),
        ("Gastown Studio", "49.283000", "-123.108000"),
    ):
        ListingFactory(host=users["host"], title=title, latitude=Decimal(lat), longitude=Decimal(lng))
    return live_server


def test_phone_shows_the_results_first_and_the_map_when_asked(page, site):
    leaflet = []  # Leaflet's library, its styles and the tiles
    page.on(
        "request",
        lambda r: leaflet.append(r.url) if any(k in r.url for k in ("leaflet-src", "leafletCss", "/tiles/")) else None,
    )
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/property-listing", wait_until="load")
    cards = page.locator("article.card")
    expect(cards).to_have_count(2)
    toggle = page.get_by_role("button", name="Show map")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_test_id("search-map")).to_be_hidden()
    page.wait_for_timeout(300)
    assert leaflet == [], "Leaflet loads before the map is asked for"
    assert axe_violations(page, include=["main"]) == []

    toggle.click()
    expect(page.get_by_role("button", name="Hide map")).to_have_attribute("aria-expanded", "true")
    canvas = page.get_by_test_id("search-map")
    expect(canvas).to_be_visible()
    expect(canvas.locator(".leaflet-interactive")).to_have_count(2)
    assert leaflet
    assert axe_violations(page, include=["main"]) == []

    # Dragging the map to the right searches the box further west: Toronto leaves the results.
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 150, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_url("**/property-listing?bounds=*")
    expect(cards).to_have_count(1)
    expect(cards).to_contain_text("Gastown Studio")
    expect(canvas.locator(".leaflet-interactive")).to_have_count(1)

    # Hidden again, the results stay as the box left them.
    page.get_by_role("button", name="Hide map").click()
    expect(canvas).to_be_hidden()
    expect(cards).to_have_count(1)


def test_desktop_shows_the_map_beside_the_results(page, site):
    page.goto("/property-listing", wait_until="load")
    expect(page.get_by_test_id("search-map").locator(".leaflet-interactive")).to_have_count(2)
    expect(page.get_by_role("button", name="Show map")).to_have_count(0)
