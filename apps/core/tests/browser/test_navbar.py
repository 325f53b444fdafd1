"""The navbar island: title search, sign out with confirmation, sticky on scroll, cookie consent."""

import json
import re
from urllib.parse import unquote

import pytest
from playwright.sync_api import expect

from apps.accounts.factories import UserFactory
from apps.listings.factories import ListingFactory

pytestmark = pytest.mark.django_db(transaction=True)


def sign_in(page, live_server, client, user) -> None:
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def test_search_by_title_links_to_the_listing(page):
    ListingFactory(title="Harbour View Loft", slug="harbour-view-loft")
    ListingFactory(title="Quiet Garden Studio", slug="quiet-garden-studio")
    ListingFactory(title="Harbour Hidden Draft", slug="harbour-hidden", pending=True)
    page.goto("/about-us")
    page.get_by_role("button", name="Search spaces").click()
    search = page.get_by_role("searchbox", name="Search spaces by title")
    with page.expect_request("**/api/listing/property-listing**") as request:
        search.fill("harbour")
    assert "filters%5Btitle%5D=harbour" in request.value.url or "filters[title]=harbour" in unquote(request.value.url)
    link = page.get_by_role("link", name="Harbour View Loft")
    expect(link).to_have_attribute("href", "/listing-details/harbour-view-loft")
    expect(page.get_by_role("link", name="Harbour Hidden Draft")).to_have_count(0)
    search.fill("zzzz nothing")
    expect(page.get_by_text("No results found", exact=True)).to_be_visible()
    search.fill("harbour")
    page.get_by_role("link", name="Harbour View Loft").click()
    page.wait_for_url("**/listing-details/harbour-view-loft")


def test_search_is_debounced(page):
    page.goto("/about-us")
    calls = []
    page.on("request", lambda r: calls.append(r.url) if "property-listing" in r.url else None)
    page.get_by_role("button", name="Search spaces").click()
    page.get_by_role("searchbox", name="Search spaces by title").press_sequentially("studio", delay=50)
    page.wait_for_timeout(900)
    assert len(calls) == 1


def test_sign_out_asks_first(page, live_server, client):
    sign_in(page, live_server, client, UserFactory(email="leaving@example.com"))
    page.goto("/about-us")
    expect(page.locator("header.navbar").get_by_role("link", name="Become a Host")).to_have_count(0)
    expect(page.get_by_role("link", name="Dashboard")).to_be_visible()
    page.get_by_role("button", name="Sign Out").click()
    dialog = page.get_by_role("dialog", name="Sign Out")
    expect(dialog.get_by_text("Are you sure you want to sign out?")).to_be_visible()
    dialog.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("button", name="Sign Out")).to_be_visible()
    page.get_by_role("button", name="Sign Out").click()
    page.get_by_role("dialog", name="Sign Out").get_by_role("button", name="Sign Out").click()
    page.wait_for_url(live_server.url + "/")
    expect(page.get_by_role("link", name="Login")).to_be_visible()


STICKY = re.compile(r"\bnavbar--sticky\b")


def test_navbar_is_sticky_after_300px_except_on_home(page):
    page.goto("/about-us")
    page.evaluate("document.body.style.minHeight = '3000px'")
    page.mouse.wheel(0, 200)
    page.wait_for_timeout(100)
    expect(page.locator("header.navbar")).not_to_have_class(STICKY)
    page.evaluate("window.scrollTo(0, 400)")
    expect(page.locator("header.navbar")).to_have_class(STICKY)
    page.goto("/")
    page.evaluate("document.body.style.minHeight = '3000px'; window.scrollTo(0, 600)")
    page.wait_for_timeout(100)
    expect(page.locator("header.navbar")).not_to_have_class(STICKY)


def test_cookie_consent_records_the_marketing_choice_and_loads_nothing(page):
    page.context.clear_cookies()
    scripts = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.goto("/")
    banner = page.get_by_role("region", name="Cookie consent")
    banner.get_by_role("button", name="Essential only").click()
    expect(banner).to_have_count(0)
    consent = next(c for c in page.context.cookies() if c["name"] == "cookieConsent")
    assert json.loads(unquote(consent["value"])) == {"marketing": False}
    assert all(url.startswith(page.url.split("/", 3)[0] + "//" + page.url.split("/")[2]) for url in scripts), scripts
    page.reload()
    expect(page.get_by_role("region", name="Cookie consent")).to_have_count(0)


def test_links_work_without_javascript(browser, live_server):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/")
    page.get_by_role("link", name="Login").click()
    page.wait_for_url("**/login")
    assert "Signing in and creating an account need JavaScript" in page.content()
    context.close()
