"""A host imports another site's calendar in a real browser: adds the feed to the listing, presses
"Sync now", sees the imported day on /calender; a renter cannot pick that day; removing the feed
frees it."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.bookings.calendars.testing import FeedServer
from apps.bookings.factories import PricedEventListingFactory
from apps.bookings.models import ExternalBlock
from apps.bookings.tests.browser.test_listing_clock import sign_in as sign_in_fresh

pytestmark = pytest.mark.django_db(transaction=True)

NY = ZoneInfo("America/New_York")
EVERY_DAY = {
    day: {"open": "08:00", "close": "22:00"}
    for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
}


def sign_in(page, email: str) -> None:
    """Signed in afresh, with the consent banner answered (its cookie goes with the others)."""
    sign_in_fresh(page, email)
    consent = {
        "name": "cookieConsent",
        "value": "%7B%22marketing%22%3Afalse%7D",
        "url": page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2],
    }
    page.context.add_cookies([consent])


def airbnb_feed(day: dt.date) -> bytes:
    lines = [
        "BEGIN:VCALENDAR",
        "PRODID;X-RICAL-TZSOURCE=TZINFO:-//Airbnb Inc//Hosting Calendar 1.0//EN",
        "CALSCALE:GREGORIAN",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        f"DTEND;VALUE=DATE:{(day + dt.timedelta(days=1)).strftime('%Y%m%d')}",
        f"DTSTART;VALUE=DATE:{day.strftime('%Y%m%d')}",
        "UID:1418fb94e984-b0d0ad0c3bb2@airbnb.com",
        "SUMMARY:Reserved",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return ("\r\n".join(lines) + "\r\n").encode()


def test_a_host_imports_a_calendar_and_a_renter_cannot_book_its_day(page, live_server, settings):
    settings.SITE_URL = live_server.url
    host = UserFactory(role=Role.HOST, email="host.sync@example.com", first_name="Hana", last_name="Host")
    renter = UserFactory(role=Role.RENTER, email="renter.sync@example.com")
    listing = PricedEventListingFactory(
        host=host,
        title="Harbour Loft",
        slug="harbour-loft",
        time_zone="America/New_York",
        opening_hours=EVERY_DAY,
        minimum_days=1,
    )
    day = dt.datetime.now(NY).date() + dt.timedelta(days=12)
    with FeedServer() as server:
        server.feeds["/airbnb.ics"] = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nEND:VCALENDAR\r\n"

        # The host adds the feed to the listing on the calendar page (empty at first).
        sign_in(page, host.email)
        page.goto(f"/calender?view=month&day={day.isoformat()}")
        panel = page.locator("section.ext-cal")
        expect(panel.get_by_role("heading", name="Imported calendars: Harbour Loft")).to_be_visible()
        panel.get_by_label("Calendar name").fill("Airbnb")
        panel.get_by_label("iCal address").fill(server.url("/airbnb.ics"))
        panel.get_by_role("button", name="Add calendar").click()
        row = panel.get_by_role("row", name=re.compile("Airbnb"))
        expect(row).to_contain_text("OK")
        expect(row.get_by_role("cell").nth(3)).to_have_text("0")

        # The other site takes the day; "Sync now" brings it in.
        server.feeds["/airbnb.ics"] = airbnb_feed(day)
        row.get_by_role("button", name="Sync Airbnb now").click()
        expect(row.get_by_role("cell").nth(3)).to_have_text("1")
        cell = page.locator("td.cal-day").filter(has=page.locator(".cal-imported"))
        expect(cell.locator(".cal-imported")).to_have_text("Airbnb: Harbour Loft")
        expect(cell.locator(".cal-date")).to_have_text(str(day.day))

        # A renter cannot pick that day.
        sign_in(page, renter.email)
        page.goto(f"/listing-details/{listing.slug}")
        widget = page.locator(".booking-widget")
        widget.get_by_label("Check-in date").fill(day.isoformat())
        expect(widget.get_by_text(re.compile("Not available on"))).to_be_visible()

        # The host removes the feed: the day is free again.
        sign_in(page, host.email)
        page.goto(f"/calender?view=month&day={day.isoformat()}")
        panel = page.locator("section.ext-cal")
        panel.get_by_role("button", name="Remove Airbnb").click()
        page.get_by_role("dialog").get_by_role("button", name="Remove").click()
        expect(panel.get_by_role("row", name=re.compile("Airbnb"))).to_have_count(0)
        expect(page.locator(".cal-imported")).to_have_count(0)
        assert not ExternalBlock.objects.exists()

        sign_in(page, renter.email)
        page.goto(f"/listing-details/{listing.slug}")
        widget = page.locator(".booking-widget")
        widget.get_by_label("Check-in date").fill(day.isoformat())
        widget.get_by_label("Start time").select_option("10:00 AM")
        widget.get_by_label("End time").select_option("12:00 PM")
        expect(widget.get_by_text(re.compile("Not available on"))).to_have_count(0)
        expect(widget.locator(".quote-panel, .quote").first).to_be_visible()


def test_the_listing_form_s_availability_step_imports_a_calendar(page, live_server, settings):
    from apps.listings.models import ListingDraft

    settings.SITE_URL = live_server.url
    host = UserFactory(role=Role.HOST, email="host.form@example.com", first_name="Hana", last_name="Host")
    listing = PricedEventListingFactory(
        host=host, title="Harbour Loft", slug="harbour-loft-form", time_zone="America/New_York"
    )
    # The host left the form on its availability step (the 7th).
    ListingDraft.objects.create(host=host, listing=listing, step=7, data={})
    day = dt.datetime.now(NY).date() + dt.timedelta(days=12)
    with FeedServer() as server:
        server.feeds["/airbnb.ics"] = airbnb_feed(day)
        sign_in(page, host.email)
        page.goto(f"/edit-listing/{listing.pk}")
        panel = page.locator("section.ext-cal")
        expect(panel.get_by_role("heading", name="Imported calendars")).to_be_visible()
        panel.get_by_label("Calendar name").fill("Airbnb")
        panel.get_by_label("iCal address").fill(server.url("/airbnb.ics"))
        panel.get_by_role("button", name="Add calendar").click()
        row = panel.get_by_role("row", name=re.compile("Airbnb"))
        expect(row).to_contain_text("OK")
        expect(row.get_by_role("cell").nth(3)).to_have_text("1")
        expect(row).to_contain_text(f"http://127.0.0.1:{server.port}/…")
        # A refused address is answered beside its field, and nothing is added.
        panel.get_by_label("Calendar name").fill("Inside")
        settings.CALENDAR_ALLOW_LOCAL = False
        panel.get_by_label("iCal address").fill("https://169.254.169.254/latest/meta-data/")
        panel.get_by_role("button", name="Add calendar").click()
        expect(panel.get_by_text("private network")).to_be_visible()
        expect(panel.locator("tbody tr")).to_have_count(1)


def test_the_host_resets_its_calendar_links_and_the_old_link_stops_working(page, live_server, settings, api):
    settings.SITE_URL = live_server.url
    host = UserFactory(role=Role.HOST, email="host.links@example.com", first_name="Hana", last_name="Host")
    listing = PricedEventListingFactory(host=host, title="Harbour Loft", slug="harbour-loft-links")
    from apps.bookings.calendars.export import listing_ical_token

    old = f"/api/listing/calendar/{listing_ical_token(listing)}.ics"
    assert api.get(old).status_code == 200
    sign_in(page, host.email)
    page.goto("/calender")
    links = page.locator("section", has=page.get_by_role("heading", name="Calendar links"))
    links.get_by_role("button", name="Reset links").click()
    dialog = page.get_by_role("dialog", name="Reset calendar links")
    expect(dialog).to_contain_text("Every iCal link you shared stops working")
    dialog.get_by_role("button", name="Reset links").click()
    expect(page.get_by_text("Calendar links reset. The links shared before no longer work.")).to_be_visible()
    expect(dialog).to_have_count(0)
    assert api.get(old).status_code == 404
    listing.host.refresh_from_db()
    assert api.get(f"/api/listing/calendar/{listing_ical_token(listing)}.ics").status_code == 200
