"""After the booking in a real browser: the renter cancels and sees the policy's refund, then the
credit note; a dispute with a photo decided by a moderator with a partial refund; double-blind
reviews reaching the listing page; and every after-booking route for every role it allows, at
desktop width and at 390 px, with axe."""

import io
import re
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from PIL import Image
from playwright.sync_api import expect

from apps.accounts.models import User
from apps.accounts.seed import seed as seed_accounts
from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.bookings.models import Booking, BookingStatus
from apps.core.testing import ApiClient
from apps.core.tests.browser.fixtures import axe_violations, settle
from apps.dashboard.navigation import ROUTES_BY_NAME
from apps.dashboard.tests.browser.test_shell import DEMO, sign_in
from apps.listings.models import PaymentPreference
from apps.payments.models import Invoice, Payment

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people():
    seed_accounts(io.StringIO())
    return {role: User.objects.get(email=email) for role, email in DEMO.items()}


@pytest.fixture
def local_checkout(settings, live_server):
    settings.STRIPE_SECRET_KEY = ""
    settings.SITE_URL = live_server.url
    return live_server


def person(browser, live_server):
    """Another person's browser (the consent banner answered, as for ``page``)."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "cookieConsent", "value": "%7B%22marketing%22%3Afalse%7D", "url": live_server.url}])
    other = context.new_page()
    other.set_default_timeout(10_000)
    return other


def photo() -> dict:
    buffer = io.BytesIO()
    Image.new("RGB", (60, 40), "orange").save(buffer, format="PNG")
    return {"name": "leak.png", "mimeType": "image/png", "buffer": buffer.getvalue()}


def paid_and_approved(people, title: str, days: int = 12) -> Booking:
    listing = PricedEventListingFactory(
        host=people["host"], title=title, payment_preference=PaymentPreference.PAY_NOW, cancellation_policy="moderate"
    )
    booking = booking_make(renter=people["renter"], listing=listing, day=weekday(days))
    client = ApiClient().as_user(people["renter"])
    response = client.post("/api/payment/checkout", {"bookingId": str(booking.pk)}, format="json")
    assert response.status_code == 200, response.content
    assert client.post(urlsplit(response.json()["data"]["url"]).path + "/pay").status_code == 302
    bookings.booking_update_status(booking_id=booking.pk, actor=people["host"], status="approved")
    return Booking.objects.get(pk=booking.pk)


def test_renter_cancels_sees_the_refund_first_and_finds_the_credit_note(page, people, local_checkout):
    booking = paid_and_approved(people, "Garden Room", days=3)
    expected = bookings.refund_amount_for(booking)
    assert Decimal("0") < expected < booking.total_amount  # moderate policy, 3 days ahead: half back
    sign_in(page, DEMO["renter"])
    page.goto(f"/booking-detail/{booking.pk}")
    actions = page.get_by_role("group", name="Booking actions")
    expect(actions.get_by_role("button", name="Review")).to_have_count(0)
    actions.get_by_role("button", name="Cancel booking").click()
    dialog = page.get_by_role("dialog", name="Cancel booking")
    expect(dialog.get_by_test_id("refund-preview")).to_contain_text(f"${expected:,.2f} of ${booking.total_amount:,.2f}")
    assert axe_violations(page) == []
    dialog.get_by_label("Reason (optional)").fill("Plans changed")
    with page.expect_response(lambda r: "/api/booking/cancel/" in r.url) as answer:
        dialog.get_by_role("button", name="Cancel booking").click()
    assert answer.value.ok, answer.value.text()
    expect(page.locator(".badge[data-status=cancelled]").first).to_be_visible()
    assert Booking.objects.get(pk=booking.pk).status == BookingStatus.CANCELLED
    note = Invoice.objects.get(kind="creditNote")
    assert note.amount == expected
    page.goto("/invoices")
    row = page.locator("tr", has_text=note.number)
    expect(row).to_be_visible()
    expect(row).to_contain_text(f"${expected:,.2f}")


def test_renter_extends_by_two_hours_host_approves_renter_pays_the_difference_and_the_invoice_shows_it(
    page, people, local_checkout, browser, live_server
):
    booking = paid_and_approved(people, "Dock Studio")
    sign_in(page, DEMO["renter"])
    page.goto(f"/booking-detail/{booking.pk}")
    actions = page.get_by_role("group", name="Booking actions")
    expect(actions.get_by_role("button", name=re.compile("^Pay extension"))).to_have_count(0)
    actions.get_by_role("button", name="Request extension").click()
    dialog = page.get_by_role("dialog", name="Request extension")
    dialog.get_by_label("How long").fill("2")
    dialog.get_by_label("Unit").select_option(label="Hour")
    with page.expect_response(lambda r: "/api/booking/extend/" in r.url) as asked:
        dialog.get_by_role("button", name="Send request").click()
    assert asked.value.status == 201, asked.value.text()
    extension = booking.extensions.get()
    assert extension.additional_hours == 2 and extension.status == "pending"
    expect(actions.get_by_role("button", name="Request extension")).to_have_count(0)  # one request at a time

    host = person(browser, live_server)
    sign_in(host, DEMO["host"])
    host.goto(f"/booking-detail/{booking.pk}")
    host.get_by_role("button", name="Approve", exact=True).click()
    confirm = host.get_by_role("dialog", name="Approve Extension")
    expect(confirm).to_contain_text("Are you sure you want to approve this extension request?")
    with host.expect_response(lambda r: "/api/booking/update-extend-status/" in r.url) as answered:
        confirm.get_by_role("button", name="Approve").click()
    assert answered.value.ok, answered.value.text()
    expect(host.get_by_role("button", name="Approve", exact=True)).to_have_count(0)
    assert axe_violations(host) == []
    host.context.close()

    extension.refresh_from_db()
    page.reload()
    pay = page.get_by_role("group", name="Booking actions").get_by_role(
        "button", name=f"Pay extension ${extension.additional_amount:,.2f}"
    )
    pay.click()
    page.wait_for_url("**/checkout/**")
    page.get_by_role("button", name=re.compile(r"^Pay ")).click()
    page.wait_for_url(re.compile(rf"/booking-detail/{booking.pk}\?type=extension&success=true"))
    expect(page.get_by_text("Payment successful. Your extension is paid.")).to_be_visible()
    expect(page).to_have_url(re.compile(rf"/booking-detail/{booking.pk}$"))
    expect(page.get_by_role("button", name=re.compile("^Pay extension"))).to_have_count(0)
    extension.refresh_from_db()
    assert extension.paid
    invoice = Invoice.objects.get(amount=extension.additional_amount)

    page.goto("/invoices")
    row = page.locator("tr", has_text=invoice.number)
    expect(row).to_contain_text(f"${extension.additional_amount:,.2f}")
    row.get_by_role("button").first.click()
    modal = page.get_by_test_id("invoice-modal")
    expect(modal).to_contain_text(f"${extension.additional_amount:,.2f}")
    pdf = page.request.get(f"/api/invoice/pdf/{invoice.pk}")
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf" and pdf.body().startswith(b"%PDF")


def test_dispute_with_a_photo_decided_with_a_partial_refund(page, people, local_checkout, browser, live_server):
    booking = paid_and_approved(people, "Harbour Loft")
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.COMPLETED)
    sign_in(page, DEMO["renter"])
    page.goto(f"/booking-detail/{booking.pk}")
    page.get_by_role("group", name="Booking actions").get_by_role("button", name="Raise dispute").click()
    dialog = page.get_by_role("dialog", name="Raise dispute")
    dialog.get_by_label(re.compile("What went wrong")).fill("The heating was broken all day.")
    dialog.locator('input[type="file"]').set_input_files(photo())
    with page.expect_response(lambda r: r.url.endswith("/api/dispute/create")) as answer:
        dialog.get_by_role("button", name="Raise dispute").click()
    assert answer.value.status == 201, answer.value.text()

    moderator = person(browser, live_server)
    sign_in(moderator, DEMO["moderator"])
    moderator.goto("/dispute-requests")
    moderator.get_by_role("link", name=re.compile("View dispute about Harbour Loft")).click()
    expect(moderator.get_by_role("img", name=re.compile("^leak"))).to_be_visible()
    expect(moderator.get_by_role("heading", name="Conversation")).to_be_visible()
    moderator.get_by_role("button", name="Approve with refund").click()
    form = moderator.get_by_role("dialog", name="Approve dispute")
    form.get_by_label("Refund amount ($)").fill(f"{booking.total_amount + 1}")
    form.get_by_role("button", name="Approve").click()
    expect(form.get_by_role("alert")).to_contain_text("at most")
    assert Payment.objects.get(booking=booking).refunded_amount == 0
    form.get_by_label("Refund amount ($)").fill("40.00")
    with moderator.expect_response(lambda r: "/api/dispute/update-status/" in r.url) as decided:
        form.get_by_role("button", name="Approve").click()
    assert decided.value.ok, decided.value.text()
    assert axe_violations(moderator) == []
    moderator.context.close()

    page.goto("/dispute-payments")
    page.get_by_role("link", name=re.compile("View dispute about Harbour Loft")).click()
    expect(page.get_by_test_id("refunded-amount")).to_have_text("$40.00")
    expect(page.locator(".badge[data-status=approved]").first).to_be_visible()
    assert axe_violations(page) == []


def test_reviews_reach_the_listing_page_only_after_both_sides_reviewed(page, people, browser, live_server):
    listing = PricedEventListingFactory(host=people["host"], title="Quiet Study")
    booking = booking_make(renter=people["renter"], listing=listing, day=weekday(5))
    bookings.booking_update_status(booking_id=booking.pk, actor=people["host"], status="approved")
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.COMPLETED)

    sign_in(page, DEMO["renter"])
    page.goto(f"/booking-detail/{booking.pk}")
    page.get_by_role("button", name="Add review").click()
    dialog = page.get_by_role("dialog", name="Add review")
    dialog.get_by_role("radio", name="4 stars").check(force=True)
    dialog.get_by_label("Review", exact=True).fill("Calm and bright, great desk chairs.")
    dialog.get_by_role("button", name="Submit review").click()
    expect(page.get_by_text("Review added successfully")).to_be_visible()
    expect(page.get_by_role("button", name="Add review")).to_have_count(0)
    page.goto(f"/listing-details/{listing.slug}")
    expect(page.get_by_text("No reviews yet.")).to_be_visible()

    host = person(browser, live_server)
    sign_in(host, DEMO["host"])
    host.goto(f"/booking-detail/{booking.pk}")
    host.get_by_role("button", name="Review renter").click()
    host_dialog = host.get_by_role("dialog", name="Review the renter")
    host_dialog.get_by_role("radio", name="5 stars").check(force=True)
    host_dialog.get_by_label("Review", exact=True).fill("Left the room spotless.")
    host_dialog.get_by_role("button", name="Submit review").click()
    expect(host.get_by_text("Review added successfully")).to_be_visible()
    # Both reviewed: the host reads the renter's review, replies to it, and sees its own review of the
    # renter among what hosts said about them.
    reviews_card = host.get_by_role("region", name="Reviews")
    expect(reviews_card).to_contain_text("Calm and bright, great desk chairs.")
    expect(host.get_by_test_id("renter-reputation")).to_contain_text("Left the room spotless.")
    reviews_card.get_by_role("button", name="Reply").click()
    reviews_card.get_by_label("Your reply").fill("Thank you, see you again!")
    with host.expect_response(lambda r: "/api/reviews/reply/" in r.url) as replied:
        reviews_card.get_by_role("button", name="Publish reply").click()
    assert replied.value.ok, replied.value.text()
    expect(reviews_card.get_by_role("button", name="Reply")).to_have_count(0)
    assert axe_violations(host, include=['[aria-labelledby="reviews-title"]']) == []
    host.context.close()

    page.reload()
    review = page.get_by_test_id("review")
    expect(review).to_have_count(1)
    expect(review).to_contain_text("Calm and bright, great desk chairs.")
    expect(review).to_contain_text("Rated 4 out of 5")
    expect(review.locator(".review__reply")).to_contain_text("Thank you, see you again!")
    assert axe_violations(page, include=["#reviews"]) == []


AFTER_ROUTES = ["message", "notifications", "disputes", "dispute-requests", "dispute-payments", "payment-details"]


@pytest.mark.parametrize("width", [1280, 390])
def test_every_after_booking_route_for_every_allowed_role(page, people, width):
    page.set_viewport_size({"width": width, "height": 900})
    for role, email in DEMO.items():
        sign_in(page, email)
        for name in AFTER_ROUTES:
            route = ROUTES_BY_NAME[name]
            if not route.allows(role):
                continue
            page.goto(f"/{route.path}")
            main = page.locator("main")
            expect(main).not_to_contain_text("coming soon")
            expect(main.locator("[data-island]").first).to_be_attached()
            settle(page)
            expect(main).not_to_contain_text("Oops! something went wrong")
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"/{route.path} scrolls sideways at {width} px for {role}"
            assert axe_violations(page, include=["main"]) == [], f"/{route.path} for {role}"
        page.context.clear_cookies()
