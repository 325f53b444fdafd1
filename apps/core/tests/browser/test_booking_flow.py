"""The booking flow in a real browser: search from the navbar, open a listing, choose an offering,
dates and 30-minute slots, go through the steps, log in when asked, pay through the local checkout,
and find the request pending among the host's booking requests."""

import datetime as dt
import json
import re
from decimal import Decimal

import pytest
from django.test import Client
from playwright.sync_api import expect

from apps.accounts.factories import PASSWORD, UserFactory
from apps.accounts.models import Role
from apps.bookings.models import Booking
from apps.listings.factories import AddOnFactory, OfficeListingFactory
from apps.listings.models import OfferingKind

from .fixtures import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)

HOURS = {day: {"open": "08:00", "close": "20:00"} for day in ("monday", "tuesday", "wednesday", "thursday", "friday")}
HOURS |= {"saturday": None, "sunday": None}


TOAST_RECORDER = """
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (node.classList && node.classList.contains("toast")) {
      document.body.dataset.toasts = (document.body.dataset.toasts || "") + node.textContent + "\\n";
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def next_weekday(days_ahead: int = 8) -> dt.date:
    day = dt.date.today() + dt.timedelta(days=days_ahead)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day


@pytest.fixture
def listing(settings, live_server):
    # The payment page and its return addresses are built on SITE_URL: this test server's address.
    settings.SITE_URL = live_server.url
    host = UserFactory(role=Role.HOST, email="host.flow@example.com", first_name="Hana", last_name="Host")
    space = OfficeListingFactory(
        host=host,
        title="Harbour Work Loft",
        slug="harbour-work-loft",
        offerings=[OfferingKind.HOT_DESK, OfferingKind.MEETING_SPACE],
        opening_hours=HOURS,
        discount=Decimal("10"),
        processing_fee=Decimal("3"),
    )
    AddOnFactory(listing=space, title="Projector", price=Decimal("15.00"))
    return space


def choose_details(scope, day: dt.date) -> None:
    offering = scope.get_by_label("Space offering")
    meeting = next(text for text in offering.locator("option").all_inner_texts() if text.startswith("Meeting Space"))
    offering.select_option(label=meeting)
    scope.get_by_label("Check-in date").fill(day.isoformat())
    start = scope.get_by_label("Start time")
    # 30-minute slots in the 12-hour format, within the day's opening hours (08:00 to 20:00), on the
    # space's clock with its zone named (the listing is in New York: EST or EDT by the date).
    options = start.locator("option").all_inner_texts()
    clocks = [text.rsplit(" ", 1) for text in options[1:]]
    assert [clock for clock, _ in clocks[:3]] == ["08:00 AM", "08:30 AM", "09:00 AM"] and clocks[-1][0] == "07:30 PM"
    assert {zone for _, zone in clocks} <= {"EST", "EDT"}
    start.select_option("10:00 AM")
    scope.get_by_label("End time").select_option("12:00 PM")


def test_search_choose_request_log_in_pay_and_the_host_sees_the_request(page, live_server, listing):
    renter = UserFactory(email="renter.flow@example.com", role=Role.RENTER)
    day = next_weekday()
    # Toasts close after 4 s; keep a record of every one shown, so a slow page cannot hide it.
    page.add_init_script(TOAST_RECORDER)

    # Search from the navbar and open the listing.
    page.goto("/")
    page.get_by_role("button", name="Search spaces").click()
    page.get_by_role("searchbox", name="Search spaces by title").fill("harbour")
    page.locator(".nav-search-island__results").get_by_role("link", name="Harbour Work Loft").click()
    page.wait_for_url("**/listing-details/harbour-work-loft")

    # The booking widget: details, a live quote from the server, then Request.
    widget = page.locator(".booking-widget")
    expect(widget.get_by_text("Log in to see which dates are already booked.")).to_be_visible()
    with page.expect_response("**/api/booking/quote/request-booking-details") as answer:
        choose_details(widget, day)
    assert answer.value.ok
    quote = answer.value.json()["data"]["paymentDetails"]
    expect(widget.get_by_role("table", name="Price breakdown")).to_contain_text(f"${Decimal(quote['total']):,.2f}")
    expect(widget.get_by_text("2 Hours × $25.00")).to_be_visible()
    widget.get_by_role("button", name="Request").click()

    # Straight to the checkout (no page repeating the widget's form): the details kept from the
    # widget, the add-ons (the quote follows the choice), the server's breakdown and the policy.
    page.wait_for_url("**/review-and-pay?listing=harbour-work-loft")
    expect(page.locator(".booking-summary")).to_contain_text("at 10:00 AM")
    expect(page.get_by_label("Start time")).to_have_count(0)
    with page.expect_response("**/api/booking/quote/review-and-pay"):
        page.get_by_label(re.compile("Projector")).check()
    breakdown = page.get_by_role("table", name="Price breakdown")
    for label in ("2 Hours × $25.00", "Projector", "Discount (10%)", "Convenience fee (3%)", "Tax", "Total"):
        expect(breakdown).to_contain_text(label)
    expect(page.get_by_role("heading", name=re.compile("Cancellation policy"))).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_role("button", name="Log in to book").click()
    dialog = page.locator("dialog.auth-modal")
    dialog.get_by_label("Email").fill(renter.email)
    dialog.get_by_role("textbox", name="Password", exact=True).fill(PASSWORD)
    dialog.get_by_role("button", name="Login").click()

    # After login the renter stays on the step, with the draft intact.
    page.wait_for_url("**/review-and-pay?listing=harbour-work-loft")
    pay = page.get_by_role("button", name="Request to book and pay")
    expect(pay).to_be_visible()
    expect(page.get_by_text("Projector").first).to_be_visible()
    total = page.get_by_role("table", name="Price breakdown").locator("tr").last.locator("td").inner_text()
    pay.click()

    # The local checkout (no payment keys): pay the held amount.
    page.wait_for_url("**/checkout/**")
    expect(page.get_by_text(total, exact=True)).to_be_visible()
    page.get_by_role("button", name=re.compile(r"^Pay ")).click()

    # Back on the booking detail with the success message; the draft is gone.
    page.wait_for_url(re.compile(r"/booking-detail/[0-9a-f-]{36}$"))
    expect(page.locator("body")).to_have_attribute(
        "data-toasts", re.compile("Payment successful. Your booking request was sent to the host.")
    )
    assert page.evaluate("localStorage.getItem('spacemarket:bookingDetails')") is None

    booking = Booking.objects.get(renter=renter)
    assert page.url.endswith(f"/booking-detail/{booking.pk}")
    assert booking.status == "pending"
    assert booking.check_in_date == day
    assert [s["title"] for s in booking.services_and_add_ons] == ["Projector"]
    assert f"${booking.total_amount:,.2f}" == total

    # The host finds it among the booking requests.
    host_client = Client()
    host_client.force_login(listing.host)
    answer = host_client.get("/api/booking/booking-requests")
    rows = json.loads(answer.content)["data"]["bookings"]
    assert [(row["_id"], row["status"]) for row in rows] == [(str(booking.pk), "pending")]
    assert rows[0]["paymentDetails"]["total"] == str(booking.total_amount)


def test_cancelled_payment_keeps_the_request_and_offers_to_pay_again(page, live_server, client, listing):
    renter = UserFactory(email="renter.cancel@example.com", role=Role.RENTER)
    page.add_init_script(TOAST_RECORDER)
    client.force_login(renter)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto("/request-booking-details?listing=harbour-work-loft")
    choose_details(page.locator("form[aria-label='Booking details']"), next_weekday(9))
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/review-and-pay**")
    expect(page.get_by_role("table", name="Price breakdown")).to_be_visible()
    page.get_by_role("button", name="Request to book and pay").click()
    page.wait_for_url("**/checkout/**")
    page.get_by_role("button", name="Cancel").click()

    page.wait_for_url("**/review-and-pay?**")
    expect(page.locator("body")).to_have_attribute("data-toasts", re.compile("Payment cancelled. Your booking request"))
    expect(page.get_by_text("Your booking request is saved and waits for payment.")).to_be_visible()
    assert Booking.objects.filter(renter=renter).count() == 1
    page.get_by_role("button", name="Pay now").click()
    page.wait_for_url("**/checkout/**")
    page.get_by_role("button", name=re.compile(r"^Pay ")).click()
    page.wait_for_url(re.compile(r"/booking-detail/"))
    assert Booking.objects.filter(renter=renter).count() == 1


def test_a_renter_who_left_the_checkout_asks_again_for_the_same_time(page, live_server, client, listing):
    renter = UserFactory(email="renter.retry@example.com", role=Role.RENTER)
    client.force_login(renter)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    day = next_weekday(10)
    page.goto("/listing-details/harbour-work-loft")
    widget = page.locator(".booking-widget")
    choose_details(widget, day)
    widget.get_by_role("button", name="Request").click()
    page.wait_for_url("**/review-and-pay?**")
    page.get_by_role("button", name="Request to book and pay").click()
    page.wait_for_url("**/checkout/**")

    # The renter leaves the payment page, back to the listing, and asks for the same time again. The
    # widget may quote the details it kept as soon as it is drawn, before they are chosen again: the
    # first quote for this time, whichever asks it, is the one read.
    with page.expect_response("**/api/booking/quote/request-booking-details", timeout=20_000) as answer:
        page.goto("/listing-details/harbour-work-loft")
        choose_details(widget, day)
    assert answer.value.json()["data"]["available"] is True
    expect(widget.get_by_role("table", name="Price breakdown")).to_be_visible()
    expect(widget.get_by_text("This time is taken")).to_have_count(0)
    widget.get_by_role("button", name="Request").click()
    page.wait_for_url("**/review-and-pay?**")
    page.get_by_role("button", name="Request to book and pay").click()
    page.wait_for_url("**/checkout/**")
    page.get_by_role("button", name=re.compile(r"^Pay ")).click()
    page.wait_for_url(re.compile(r"/booking-detail/"))
    live = Booking.objects.filter(renter=renter, status="pending")
    assert live.count() == 1 and page.url.endswith(f"/booking-detail/{live.get().pk}")


def test_the_widget_marks_booked_days_for_a_signed_in_renter(page, live_server, client, listing):
    from apps.bookings import services

    day = next_weekday(10)
    other = UserFactory(role=Role.RENTER)
    meeting = listing.space_offerings.get(kind=OfferingKind.MEETING_SPACE)
    services.booking_request(
        renter=other,
        listing_id=listing.pk,
        offering_id=meeting.pk,
        check_in_date=day,
        check_out_date=day,
        start_time=dt.time(8),
        end_time=dt.time(20),
        guests=None,
        seats=None,
        add_on_ids=(),
    )
    client.force_login(UserFactory(role=Role.RENTER))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto("/listing-details/harbour-work-loft")
    widget = page.locator(".booking-widget")
    shown = day.strftime("%d-%m-%Y")
    expect(widget.get_by_text(re.compile(f"(Booked|Pending): .*{shown}"))).to_be_visible()
