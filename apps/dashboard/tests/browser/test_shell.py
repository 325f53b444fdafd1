"""The signed-in shell in a real browser: each demo role's sidebar, collapse at 768 px, logout."""

import io
import re

import pytest
from playwright.sync_api import expect

from apps.accounts.seed import DEMO_PASSWORD
from apps.accounts.seed import seed as seed_accounts
from apps.core.tests.browser.fixtures import axe_violations
from apps.dashboard.navigation import sidebar_for

pytestmark = pytest.mark.django_db(transaction=True)

DEMO = {
    "admin": "admin@example.com",
    "moderator": "moderator@example.com",
    "host": "host@example.com",
    "subHost": "subhost@example.com",
    "renter": "renter@example.com",
}


def sign_in(page, email: str) -> None:
    """Sign in through the login API, as the login form does; the session cookie lands in the browser."""
    page.goto("/")
    token = page.context.cookies()
    csrf = next((c["value"] for c in token if c["name"] == "csrftoken"), None)
    if csrf is None:
        csrf = page.evaluate("document.querySelector('meta[name=csrf-token]').content")
    response = page.request.post(
        "/api/user/login", data={"email": email, "password": DEMO_PASSWORD}, headers={"X-CSRFToken": csrf}
    )
    assert response.ok, response.text()


def expected_links(role: str) -> list[str]:
    hrefs = []
    for node in sidebar_for(role):
        hrefs += [child["href"] for child in node["children"]] if node["kind"] == "group" else [node["href"]]
    return hrefs


@pytest.mark.parametrize("role", list(DEMO))
def test_each_demo_role_sees_exactly_its_sidebar(page, role):
    seed_accounts(io.StringIO())
    sign_in(page, DEMO[role])
    page.goto("/dashboard")
    menu = page.get_by_test_id("sidebar")
    expect(menu).to_be_visible()
    hrefs = menu.locator("a.dash-link").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert hrefs == expected_links(role)
    expect(page.get_by_role("heading", name="Dashboard", exact=True)).to_be_visible()
    premium = page.locator('[data-island="DashboardPremium"] button')
    expect(premium).to_have_count(1 if role in ("host", "subHost") else 0)
    assert axe_violations(page, include=[".dash-sidebar", ".dash-topbar"]) == []


def test_signed_out_visitor_goes_home(page):
    page.goto("/booking")
    assert page.url.rstrip("/").endswith(page.url.split("/")[2])  # back at the site root


def test_sidebar_collapses_at_768_and_keeps_the_state(page):
    seed_accounts(io.StringIO())
    sign_in(page, DEMO["host"])
    page.goto("/booking-requests")
    html = page.locator("html")
    expect(html).not_to_have_class(re.compile("sidebar-collapsed"))
    expect(page.locator('details[data-group="booking"]')).to_have_attribute("open", "")
    page.set_viewport_size({"width": 768, "height": 900})
    expect(html).to_have_class(re.compile("sidebar-collapsed"))
    page.reload()
    expect(html).to_have_class(re.compile("sidebar-collapsed"))
    assert page.evaluate("JSON.parse(localStorage.getItem('dashboardTheme'))") == {
        "collapsed": True,
        "autoCollapsed": True,
    }
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(html).not_to_have_class(re.compile("sidebar-collapsed"))
    page.get_by_role("button", name="Toggle the menu").click()
    expect(html).to_have_class(re.compile("sidebar-collapsed"))
    page.reload()
    expect(html).to_have_class(re.compile("sidebar-collapsed"))


def test_bell_and_logout_with_confirmation(page):
    seed_accounts(io.StringIO())
    sign_in(page, DEMO["renter"])
    page.goto("/dashboard")
    page.get_by_role("button", name=re.compile("^Notifications")).click()
    expect(page.get_by_text("No new notifications")).to_be_visible()
    expect(page.get_by_role("link", name="See All Notifications")).to_have_attribute("href", "/notifications")
    page.locator(".dash-profile summary").click()
    page.get_by_role("button", name="Logout").click()
    dialog = page.get_by_role("dialog", name="Logout")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Logout").click()
    page.wait_for_url(re.compile(r"/$"))
    page.goto("/dashboard")
    page.wait_for_url(re.compile(r"/$"))
