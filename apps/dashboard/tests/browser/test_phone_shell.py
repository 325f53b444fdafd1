"""The signed-in area on a 390 px phone: the menu is a drawer (no strip of icons beside the page),
the premium button is compact, a new host is shown the way to a first listing, and the add-listing
form shows a thin progress bar instead of nine step chips."""

import io

import pytest
from playwright.sync_api import expect

from apps.accounts.seed import seed as seed_accounts

from .test_shell import DEMO, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_on_a_phone_the_menu_is_a_drawer_and_the_page_has_the_whole_width(page):
    seed_accounts(io.StringIO())
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, DEMO["host"])
    page.goto("/dashboard")
    expect(page.get_by_role("heading", name="Dashboard", exact=True)).to_be_visible()
    menu = page.get_by_test_id("sidebar")
    expect(menu).to_be_hidden()
    main = page.locator("main").bounding_box()
    assert main["x"] == 0 and main["width"] == 390
    # The host has no listing yet: the call to action leads to the form.
    expect(page.get_by_role("link", name="Add your first listing")).to_have_attribute("href", "/add-new-listing")
    # The premium button keeps its full name for assistive technology but takes little room.
    premium = page.get_by_role("button", name="Get Premium Membership")
    expect(premium).to_be_visible()
    assert premium.bounding_box()["width"] < 130

    page.get_by_role("button", name="Toggle the menu").click()
    expect(menu).to_be_visible()
    expect(menu.get_by_role("link", name="Dashboards")).to_be_visible()
    page.get_by_role("button", name="Toggle the menu").click()
    expect(menu).to_be_hidden()

    page.goto("/add-new-listing")
    expect(page.get_by_role("progressbar", name="Progress")).to_have_attribute("aria-valuetext", "Step 1 of 9")
    expect(page.get_by_role("list", name="Steps")).to_be_hidden()
    expect(page.get_by_role("heading", name="Step 1 of 9: Kind of space")).to_be_in_viewport()
