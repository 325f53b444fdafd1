"""A Mumbai venue in a real browser: the widget offers Mumbai times and names IST, the request
holds 10:00 to 16:00 Asia/Kolkata, a renter who cancels at the checkout pays later from the booking
detail, and until then the host sees it awaiting payment with no Approve."""

import datetime as dt
import re
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from apps.accounts.factories import PASSWORD, UserFactory
from apps.accounts.models import Role
from apps.bookings.factories import PricedEventListingFactory
from apps.bookings.models import Booking
from apps.listings.models import PaymentPreference
from apps.payments.models import Payment

pytestmark = pytest.mark.django_db(transaction=True)

KOLKATA = ZoneInfo("Asia/Kolkata")
EVERY_DAY = {
    day: {"open": "09:00", "close": "22:00"}
    for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
}


@pytest.fixture
def andheri(settings, live_server):
    settings.STRIPE_SECRET_KEY = ""  # the site's own checkout page
    settings.SITE_URL = live_server.url
    host = UserFactory(role=Role.HOST, email="host.mumbai@example.com", first_name="Meera", last_name="Host")
    return PricedEventListingFactory(
        host=host,
        title="Andheri Rooftop Venue",
        slug="andheri-rooftop-venue-mumbai",
        city="Mumbai",
        state="MH",
        country="India",
        latitude=Decimal("19.119700"),
        longitude=Decimal("72.846900"),
        opening_hours=EVERY_DAY,
        minimum_days=1,
        payment_preference=PaymentPreference.PAY_NOW,
    )


def sign_in(page, email: str) -> None:
    page.goto("about:blank")  # leave the signed-in page first: its next call would answer 401 and redirect
    page.context.clear_cookies()
    page.goto("/")
    csrf = next((c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"), None)
    if csrf is None:
        csrf = page.evaluate("document.querySelector('meta[name=csrf-token]').content")
    response = page.request.post(
        "/api/user/login", data={"email": email, "password": PASSWORD}, headers={"X-CSRFToken": csrf}
    )
    assert response.ok, response.text()


def test_a_mumbai_venue_is_booked_on_mumbai_time_and_paid_later_from_the_booking(page, andheri):
    renter = UserFactory(role=Role.RENTER, email="renter.mumbai@example.com")
    day = dt.datetime.now(KOLKATA).date() + dt.timedelta(days=9)
    sign_in(page, renter.email)

    # The widget: Mumbai slots, the zone named beside each.
    page.goto(f"/listing-details/{andheri.slug}")
    widget = page.locator(".booking-widget")
    widget.get_by_label("Check-in date").fill(day.isoformat())
    start = widget.get_by_label("Start time")
    options = start.locator("option").all_inner_texts()
    assert options[1] == "09:00 AM IST" and "10:00 AM IST" in options
    expect(widget.get_by_text("Times are local to the space (Asia/Kolkata).")).to_be_visible()
    start.select_option("10:00 AM")
    with page.expect_response("**/api/booking/quote/event-booking-details") as answer:
        widget.get_by_label("End time").select_option("04:00 PM")
    assert answer.value.ok and answer.value.json()["data"]["timeZoneName"] == "IST"
    widget.get_by_role("button", name="Request").click()

    page.wait_for_url("**/review-and-pay?**")
    expect(page.locator(".booking-summary")).to_contain_text(f"{day.strftime('%d-%m-%Y')} at 10:00 AM IST")
    expect(page.locator(".booking-summary")).to_contain_text("at 04:00 PM IST")

    # The renter cancels at the checkout: the request is kept, unpaid.
    page.get_by_role("button", name="Request to book and pay").click()
    page.wait_for_url("**/checkout/**")
    page.get_by_role("button", name="Cancel").click()
    page.wait_for_url("**/review-and-pay?**")
    booking = Booking.objects.get(renter=renter)
    assert booking.check_in == dt.datetime.combine(day, dt.time(10), tzinfo=KOLKATA)
    assert booking.check_out == dt.datetime.combine(day, dt.time(16), tzinfo=KOLKATA)

    # The host sees it awaiting payment, without Approve.
    sign_in(page, andheri.host.email)
    page.goto(f"/booking-detail/{booking.pk}")
    expect(page.get_by_test_id("awaiting-payment")).to_contain_text("Awaiting payment")
    expect(page.get_by_role("button", name="Reject")).to_be_visible()
    expect(page.get_by_role("button", name="Approve")).to_have_count(0)
    expect(page.locator(".dash-detail")).to_contain_text("10:00 AM IST")

    # The renter pays later from the booking detail.
    sign_in(page, renter.email)
    page.goto(f"/booking-detail/{booking.pk}")
    expect(page.locator(".dash-detail")).to_contain_text("04:00 PM IST")
    page.get_by_role("button", name="Pay now").click()
    page.wait_for_url("**/checkout/**")
    page.get_by_role("button", name=re.compile(r"^Pay ")).click()
    page.wait_for_url(re.compile(rf"/booking-detail/{booking.pk}$"))
    assert Payment.objects.get(booking=booking).status == "authorized"
    expect(page.get_by_role("button", name="Pay now")).to_have_count(0)

    # Now the host may approve.
    sign_in(page, andheri.host.email)
    page.goto(f"/booking-detail/{booking.pk}")
    expect(page.get_by_role("button", name="Approve")).to_be_visible()
    expect(page.get_by_test_id("awaiting-payment")).to_have_count(0)
