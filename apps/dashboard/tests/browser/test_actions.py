"""The dashboard's actions in a real browser: a host answers booking requests, a renter downloads an
invoice, a host buys and cancels the premium membership on the local checkout, and the admin
dashboard draws its widgets from the statistics API. Each page is checked with axe."""

import base64
import io
import re
import zlib
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from apps.accounts.models import User
from apps.accounts.seed import seed as seed_accounts
from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.bookings.models import Booking
from apps.core.testing import ApiClient
from apps.core.tests.browser.fixtures import axe_violations
from apps.listings.models import PaymentPreference
from apps.payments.models import Invoice
from apps.premium.models import Plan, Subscription

from .test_shell import DEMO, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def local_checkout(settings, live_server):
    """Payments go through the site's own checkout page, and come back to the test server."""
    settings.STRIPE_SECRET_KEY = ""
    settings.SITE_URL = live_server.url
    return live_server


@pytest.fixture
def people():
    seed_accounts(io.StringIO())
    return {role: User.objects.get(email=email) for role, email in DEMO.items()}


def pay_now_listing(host, **fields):
    """An event space whose requests are paid (held) when made and captured when approved."""
    return PricedEventListingFactory(host=host, payment_preference=PaymentPreference.PAY_NOW, **fields)


def paid_request(renter, listing, days: int) -> Booking:
    """A pending request whose payment the renter has authorised on the local checkout."""
    booking = booking_make(renter=renter, listing=listing, day=weekday(days))
    client = ApiClient().as_user(renter)
    response = client.post("/api/payment/checkout", {"bookingId": str(booking.pk)}, format="json")
    assert response.status_code == 200, response.content
    path = urlsplit(response.json()["data"]["url"]).path
    assert client.post(path + "/pay").status_code == 302
    return booking


def pdf_text(content: bytes) -> str:
    """The text drawn on the PDF's pages (reportlab writes ASCII85 + Flate streams)."""
    chunks = []
    for match in re.finditer(rb"(?<!end)stream\r?\n(.*?)endstream", content, re.DOTALL):
        body = match.group(1).strip().removesuffix(b"~>")
        try:
            chunks.append(zlib.decompress(base64.a85decode(body)).decode("latin-1"))
        except (ValueError, zlib.error):
            continue
    return "".join(chunks)


def status_of(booking: Booking) -> str:
    booking.refresh_from_db()
    return booking.status


def answered(page, click) -> None:
    """Click, wait for the status call to succeed, then for the page to go to /booking-requests."""
    with page.expect_navigation(url=re.compile(r"/booking-requests$")):
        with page.expect_response(lambda response: "/api/booking/update-status/" in response.url) as answer:
            click()
        assert answer.value.ok, answer.value.text()


def approve_in(scope, page) -> None:
    scope.get_by_role("button", name="Approve", exact=True).click()
    dialog = page.get_by_role("dialog", name="Approve Booking")
    expect(dialog).to_contain_text("Are you sure you want to approve this booking?")
    assert axe_violations(page) == []
    answered(page, lambda: dialog.get_by_role("button", name="Approve", exact=True).click())


def reject_in(scope, page, reason: str) -> None:
    scope.get_by_role("button", name="Reject", exact=True).click()
    modal = page.get_by_role("dialog", name="Reject Booking")
    submit = modal.get_by_role("button", name="Submit")
    expect(submit).to_be_disabled()
    modal.get_by_label("Reason").fill("   ")
    expect(submit).to_be_disabled()
    modal.get_by_label("Reason").fill(reason)
    expect(submit).to_be_enabled()
    assert axe_violations(page) == []
    answered(page, submit.click)


def test_host_approves_and_rejects_from_the_booking_requests_list(page, people, local_checkout):
    listing = pay_now_listing(people["host"], title="Harbour Loft")
    first = paid_request(people["renter"], listing, 10)
    second = paid_request(people["renter"], listing, 12)
    sign_in(page, DEMO["host"])
    page.goto("/booking-requests")
    rows = page.locator("tbody tr")
    expect(rows).to_have_count(2)
    assert axe_violations(page) == []

    approve_in(rows.first, page)
    approved = [b for b in (first, second) if status_of(b) == "approved"]
    assert len(approved) == 1
    expect(page.locator("tbody tr")).to_have_count(1)

    reject_in(page.locator("tbody tr").first, page, "The hall is closed for repairs that week.")
    assert sorted(status_of(b) for b in (first, second)) == ["approved", "rejected"]
    rejected = next(b for b in (first, second) if b.status == "rejected")
    assert rejected.reject_reason == "The hall is closed for repairs that week."
    expect(page.locator("tbody")).to_contain_text("No data found")


def test_host_approves_and_rejects_on_the_request_details_page(page, people, local_checkout):
    listing = pay_now_listing(people["host"], title="Harbour Loft")
    first = paid_request(people["renter"], listing, 10)
    second = paid_request(people["renter"], listing, 12)
    sign_in(page, DEMO["host"])

    page.goto(f"/booking-request-details/{first.pk}")
    expect(page.get_by_role("link", name="Message Renter")).to_be_visible()
    expect(page.get_by_role("heading", name="Harbour Loft")).to_be_visible()
    assert axe_violations(page) == []
    approve_in(page.locator(".dash-detail"), page)
    assert status_of(first) == "approved"

    page.goto(f"/booking-request-details/{second.pk}")
    reject_in(page.locator(".dash-detail"), page, "Double booked by mistake.")
    assert status_of(second) == "rejected"
    second.refresh_from_db()
    assert second.reject_reason == "Double booked by mistake."

    # Answered requests offer no more buttons.
    page.goto(f"/booking-request-details/{first.pk}")
    expect(page.get_by_role("heading", name="Harbour Loft")).to_be_visible()
    expect(page.locator(".dash-detail").get_by_role("button", name="Approve", exact=True)).to_have_count(0)


def test_renter_opens_an_invoice_and_downloads_the_pdf(page, people, local_checkout):
    listing = pay_now_listing(people["host"], title="Harbour Loft")
    booking = paid_request(people["renter"], listing, 10)
    bookings.booking_update_status(booking_id=booking.pk, actor=people["host"], status="approved")
    invoice = Invoice.objects.get(payment__booking=booking)

    sign_in(page, DEMO["renter"])
    page.goto("/invoices")
    expect(page.get_by_role("heading", name="Invoices")).to_be_visible()
    row = page.locator("tbody tr", has_text=invoice.number)
    expect(row).to_be_visible()
    expect(row).to_contain_text("Harbour Loft")
    assert axe_violations(page) == []

    row.get_by_role("button", name=f"Open invoice {invoice.number}").click()
    modal = page.get_by_role("dialog", name=f"Invoice {invoice.number}")
    expect(modal).to_contain_text("Harbour Loft")
    expect(modal).to_contain_text(f"${invoice.amount:,.2f}")
    assert axe_violations(page) == []

    with page.expect_download() as download_info:
        modal.get_by_role("link", name="Download PDF").click()
    content = Path(download_info.value.path()).read_bytes()
    assert content.startswith(b"%PDF")
    assert invoice.number in pdf_text(content)


def test_host_subscribes_on_the_local_checkout_and_cancels(page, people, local_checkout):
    plan = Plan.objects.create(
        plan_id="premium-annual",
        plan_name="Premium Annual",
        description="Everything a busy host needs.",
        total_amount=Decimal("199.00"),
        features=[{"bold": "Featured", "normal": "in search"}],
    )
    sign_in(page, DEMO["host"])
    page.goto("/dashboard")
    button = page.locator('[data-island="DashboardPremium"] button')
    expect(button).to_have_text("Get Premium Membership")
    expect(button).to_be_enabled()
    button.click()
    modal = page.get_by_role("dialog", name="Premium Membership")
    expect(modal.get_by_role("radio", name=re.compile("Premium Annual"))).to_be_checked()
    expect(modal).to_contain_text("The amount is non refundable.")
    expect(modal).to_contain_text("Premium listings are deleted 15 days after the membership is cancelled.")
    assert axe_violations(page) == []
    modal.get_by_role("button", name="Proceed").click()

    page.wait_for_url(re.compile(r"/checkout/"))
    page.get_by_role("button", name=re.compile(r"^Pay \$199\.00")).click()

    page.wait_for_url(re.compile(r"/dashboard$"))
    expect(page.get_by_text("Payment successful")).to_be_visible()
    expect(button).to_have_text("Premium Member")
    subscription = Subscription.objects.get(host=people["host"])
    assert (subscription.type, subscription.status, subscription.plan_id) == ("premium", "active", plan.pk)

    button.click()
    modal = page.get_by_role("dialog", name="Premium Membership")
    modal.get_by_role("button", name="Cancel Membership").click()
    confirm = page.get_by_role("dialog", name="Cancel Membership")
    expect(confirm).to_contain_text("Are you sure you want to cancel your premium membership?")
    assert axe_violations(page) == []
    confirm.get_by_role("button", name="Cancel Membership").click()
    expect(page.get_by_text("Your premium membership has been cancelled.")).to_be_visible()
    expect(button).to_have_text("Renew Subscription")
    subscription.refresh_from_db()
    assert subscription.status == "cancelled"


def test_admin_dashboard_shows_the_platform_widgets(page, people, local_checkout):
    listing = pay_now_listing(people["host"], title="Harbour Loft", city="Toronto", country="Canada")
    booking = paid_request(people["renter"], listing, 10)
    bookings.booking_update_status(booking_id=booking.pk, actor=people["host"], status="approved")
    paid_request(people["renter"], listing, 12)  # still pending: a recent request

    sign_in(page, DEMO["admin"])
    page.goto("/dashboard")
    widgets = page.get_by_test_id("admin-widgets")
    locations = widgets.locator('[data-widget="high-demand-locations"]')
    expect(locations.locator("li")).to_have_count(1)
    expect(locations.locator("li").first).to_have_attribute("data-colour", "Black")
    expect(locations).to_contain_text("Toronto, Canada")
    expect(locations).to_contain_text("100.00%")
    expect(widgets.locator('[data-widget="geo-chart"]')).to_contain_text("Canada")
    expect(widgets.locator('[data-widget="popular-hosts"]')).to_contain_text("100.00%")
    expect(widgets.get_by_role("heading", name="Recent requests")).to_be_visible()
    expect(widgets.get_by_role("heading", name="Payout requests")).to_be_visible()
    expect(page.get_by_test_id("revenue-totals")).to_contain_text("Revenue $")
    assert axe_violations(page) == []

    sign_in(page, DEMO["moderator"])
    page.goto("/dashboard")
    expect(page.get_by_test_id("admin-widgets").locator('[data-widget="high-demand-locations"] li')).to_have_count(1)
    expect(page.get_by_role("heading", name="Payout requests")).to_have_count(0)
    expect(page.get_by_role("heading", name="Revenue", exact=True)).to_have_count(0)
    assert axe_violations(page) == []
