"""After the booking, in a real browser with two people at once: the chat between a renter and a
host over the real websocket server (daphne and Redis)."""

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from apps.accounts.models import User
from apps.accounts.seed import seed as seed_accounts
from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.core.tests.browser.fixtures import axe_violations
from apps.dashboard.tests.browser.test_shell import DEMO, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def photo(name="room.png") -> dict:
    buffer = io.BytesIO()
    Image.new("RGB", (60, 40), "teal").save(buffer, format="PNG")
    return {"name": name, "mimeType": "image/png", "buffer": buffer.getvalue()}


@pytest.fixture
def people():
    seed_accounts(io.StringIO())
    return {role: User.objects.get(email=email) for role, email in DEMO.items()}


@pytest.fixture
def other_page(browser, live_server):
    """A second person's browser, beside ``page``."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "cookieConsent", "value": "%7B%22marketing%22%3Afalse%7D", "url": live_server.url}])
    second = context.new_page()
    second.set_default_timeout(10_000)
    errors: list[str] = []
    second.on("pageerror", lambda error: errors.append(str(error)))
    yield second
    context.close()
    assert not errors, f"JavaScript errors on the second page: {errors}"


def approved_booking(people, title="Canal Studio"):
    listing = PricedEventListingFactory(host=people["host"], title=title)
    booking = booking_make(renter=people["renter"], listing=listing, day=weekday(12))
    bookings.booking_update_status(booking_id=booking.pk, actor=people["host"], status="approved")
    return booking


def message_count(page):
    return page.locator('[data-counter="messages"]')


def test_renter_messages_the_host_live_and_both_see_read_receipts(page, other_page, people, websocket_server):
    booking = approved_booking(people)
    host = other_page
    sign_in(host, DEMO["host"])
    host.goto("/message")
    expect(host.get_by_text("No conversations yet")).to_be_visible()

    sign_in(page, DEMO["renter"])
    page.goto(f"/booking-detail/{booking.pk}")
    page.get_by_role("link", name="Message Host").click()
    page.wait_for_url(re.compile(r"/message\?"))
    expect(page.get_by_role("heading", level=2)).to_contain_text(people["host"].first_name)
    page.get_by_label("Message", exact=True).fill("Hello! Is there parking near the studio?")
    page.get_by_role("button", name="Send").click()
    mine = page.get_by_test_id("chat-message").filter(has_text="Is there parking")
    expect(mine).to_be_visible()

    # The host's open page receives the conversation and its unread count, with the menu count.
    conversation = host.get_by_role("button", name=re.compile(people["renter"].first_name))
    expect(conversation).to_be_visible()
    expect(conversation.get_by_test_id("unread-count")).to_have_text("1")
    expect(message_count(host)).to_have_text("1")
    conversation.click()
    expect(host.get_by_test_id("chat-message").filter(has_text="Is there parking")).to_be_visible()
    expect(message_count(host)).to_be_hidden()
    expect(mine.get_by_test_id("receipt")).to_contain_text("Read")

    # The host replies with a photo; the renter's open thread shows it and reads it.
    host.get_by_label("Message", exact=True).fill("Yes, two spaces behind the building.")
    host.locator('input[type="file"]').set_input_files(photo())
    host.get_by_role("button", name="Send").click()
    reply = page.get_by_test_id("chat-message").filter(has_text="two spaces")
    expect(reply).to_be_visible()
    expect(reply.get_by_role("img", name=re.compile(r"^room"))).to_be_visible()
    host_reply = host.get_by_test_id("chat-message").filter(has_text="two spaces")
    expect(host_reply.get_by_test_id("receipt")).to_contain_text("Read")
    expect(message_count(page)).to_be_hidden()
    assert axe_violations(page, include=[".chat"]) == []
    assert axe_violations(host, include=[".chat"]) == []
