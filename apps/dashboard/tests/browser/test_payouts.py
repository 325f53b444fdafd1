"""Payouts in a real browser: a host with a completed booking requests a payout, the admin releases
it from Payout Requests, and the host then sees it as Approved. Each page is checked with axe."""

import io
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from apps.accounts.models import User
from apps.accounts.seed import seed as seed_accounts
from apps.bookings import services as bookings
from apps.bookings.models import Booking
from apps.core.tests.browser.fixtures import axe_violations
from apps.payments import services as payments
from apps.payments.models import Earning, Payment, Payout

from .test_actions import paid_request, pay_now_listing
from .test_shell import DEMO, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def local_checkout(settings, live_server):
    settings.STRIPE_SECRET_KEY = ""
    settings.SITE_URL = live_server.url
    return live_server


@pytest.fixture
def people():
    seed_accounts(io.StringIO())
    return {role: User.objects.get(email=email) for role, email in DEMO.items()}


def completed_booking_earning(host, renter) -> Earning:
    """A paid, approved booking that took place: its host share becomes available for a payout."""
    listing = pay_now_listing(host, title="Harbour Loft")
    booking = paid_request(renter, listing, 10)
    bookings.booking_update_status(booking_id=booking.pk, actor=host, status="approved")
    Booking.objects.filter(pk=booking.pk).update(status="completed")  # the stay is over
    payment = Payment.objects.select_related("booking").get(booking=booking)
    assert payment.status == "completed"
    return payments.earning_record(payment=payment)


def dollars(amount: Decimal) -> str:
    return f"${amount:,.2f}"


def test_host_requests_a_payout_and_the_admin_releases_it(page, people, local_checkout):
    earning = completed_booking_earning(people["host"], people["renter"])
    assert earning.amount > 0

    # The host sees the available balance and asks for it, after a confirmation.
    sign_in(page, DEMO["host"])
    page.goto("/payout")
    expect(page.get_by_role("heading", name="Payout", exact=True)).to_be_visible()
    expect(page.get_by_test_id("payout-balance")).to_contain_text(dollars(earning.amount))
    expect(page.locator("tbody")).to_contain_text("No data found")
    assert axe_violations(page) == []
    page.get_by_role("button", name="Request payout").click()
    dialog = page.get_by_role("dialog", name="Request Payout")
    expect(dialog).to_contain_text(f"request a payout of {dollars(earning.amount)}")
    assert axe_violations(page) == []
    with page.expect_response(lambda r: r.url.endswith("/api/payout/request")) as answer:
        dialog.get_by_role("button", name="Request").click()
    assert answer.value.status == 201, answer.value.text()
    expect(page.locator(".toast--success")).to_contain_text("Payout requested.")
    row = page.locator("tbody tr").first
    expect(row).to_contain_text("Pending")
    expect(row).to_contain_text(dollars(earning.amount))
    expect(page.get_by_role("button", name="Request payout")).to_be_disabled()
    payout = Payout.objects.get()
    assert payout.status == "onhold" and payout.amount == earning.amount

    # The admin releases it from Payout Requests (Pending tab), after a confirmation.
    page.context.clear_cookies()
    sign_in(page, DEMO["admin"])
    page.goto("/payout-requests")
    expect(page.get_by_role("heading", name="Payout Requests")).to_be_visible()
    row = page.locator("tbody tr", has_text=dollars(earning.amount))
    expect(row).to_contain_text("Pending")
    for label in ("Release", "Hold", "Fail"):
        expect(row.get_by_role("button", name=label, exact=True)).to_be_visible()
    assert axe_violations(page) == []
    row.get_by_role("button", name="Release", exact=True).click()
    dialog = page.get_by_role("dialog", name="Release Payout")
    expect(dialog).to_contain_text("Are you sure you want to release this payout")
    with page.expect_response(lambda r: "/api/payout/update-status/" in r.url) as answer:
        dialog.get_by_role("button", name="Release", exact=True).click()
    assert answer.value.ok, answer.value.text()
    expect(page.locator(".toast--success")).to_contain_text("Payout approved.")
    payout.refresh_from_db()
    assert payout.status == "released"
    # A released payout leaves the Pending tab and offers no more decisions.
    expect(page.locator("tbody")).to_contain_text("No data found")
    page.get_by_role("tab", name="Approved").click()
    row = page.locator("tbody tr", has_text=dollars(earning.amount))
    expect(row).to_contain_text("Approved")
    expect(row.get_by_role("button")).to_have_count(0)

    # The admin's Payout page lists every payout, without a balance or a request button.
    page.goto("/payout")
    expect(page.locator("tbody tr", has_text=dollars(earning.amount))).to_contain_text("Approved")
    expect(page.get_by_role("button", name="Request payout")).to_have_count(0)
    expect(page.get_by_test_id("payout-balance")).to_have_count(0)

    # The host now sees it Approved, and the amount as paid out.
    page.context.clear_cookies()
    sign_in(page, DEMO["host"])
    page.goto("/payout")
    expect(page.locator("tbody tr").first).to_contain_text("Approved")
    expect(page.locator(".dash-stat", has_text="Paid out")).to_contain_text(dollars(earning.amount))
    expect(page.get_by_role("button", name="Request payout")).to_be_disabled()


def test_payments_page_shows_the_booking_payment_as_paid(page, people, local_checkout):
    earning = completed_booking_earning(people["host"], people["renter"])
    payment = earning.payment
    sign_in(page, DEMO["host"])
    page.goto("/payments")
    expect(page.get_by_role("heading", name="Payments")).to_be_visible()
    row = page.locator("tbody tr", has_text="Harbour Loft")
    expect(row).to_contain_text("Paid")
    expect(row).to_contain_text(dollars(payment.total_amount))
    assert axe_violations(page) == []
    page.get_by_label("Select By").select_option("daily")
    with page.expect_response(lambda r: "filters%5Bperiod%5D=daily" in r.url or "filters[period]=daily" in r.url):
        page.get_by_label("Select By").select_option("daily")
    expect(page.locator("tbody tr", has_text="Harbour Loft")).to_be_visible()
