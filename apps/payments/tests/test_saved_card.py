"""Payments that outlive a card hold: a request more than 6 days ahead saves the card; if the hold
has lapsed when the booking is captured, the saved card is charged without the renter, and when
the bank wants the renter to confirm, the renter is asked to pay and the booking expires unpaid."""

import datetime as dt

import pytest

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.bookings.models import Occupancy
from apps.core.statemachine import history
from apps.notifications.models import Notification
from apps.payments import services
from apps.payments.models import Invoice, Payment

from .conftest import WEBHOOK_SECRET
from .fake_stripe import signed_event

pytestmark = pytest.mark.django_db


def _webhook(api, event_type, obj):
    payload, header = signed_event(event_type, obj, secret=WEBHOOK_SECRET)
    return api.generic(
        "POST", "/api/payment/webhook", payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )


def _request_and_pay(api, clients, users, fake_stripe, *, days: int):
    booking = booking_make(
        renter=users["renter"], listing=PricedEventListingFactory(host=users["host"]), day=weekday(days)
    )
    assert clients["renter"].post("/api/payment/checkout", {"bookingId": str(booking.pk)}).status_code == 200
    payment = Payment.objects.get(booking=booking)
    _webhook(api, "checkout.session.completed", fake_stripe.complete_session(payment.session_id))
    payment.refresh_from_db()
    assert payment.status == "authorized"
    return booking, payment


def _approve(users, booking, capture):
    with capture(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")


def test_a_request_within_six_days_only_holds_the_card(api, clients, users, fake_stripe):
    _request_and_pay(api, clients, users, fake_stripe, days=3)
    [sent] = fake_stripe.calls("POST", "/v1/checkout/sessions")
    assert sent["payment_intent_data[capture_method]"] == "manual"
    assert "payment_intent_data[setup_future_usage]" not in sent


def test_a_lapsed_hold_is_charged_to_the_saved_card_at_approval(
    api, clients, users, fake_stripe, django_capture_on_commit_callbacks
):
    booking, payment = _request_and_pay(api, clients, users, fake_stripe, days=20)
    [sent] = fake_stripe.calls("POST", "/v1/checkout/sessions")
    assert sent["payment_intent_data[setup_future_usage]"] == "off_session"
    assert payment.customer_id and payment.payment_method_id
    held_intent = payment.payment_id
    fake_stripe.objects[held_intent]["status"] = "canceled"  # the hold lapsed at the bank

    _approve(users, booking, django_capture_on_commit_callbacks)
    payment.refresh_from_db()
    assert payment.status == "completed" and payment.captured_amount == booking.total_amount
    assert payment.payment_id != held_intent
    [charge] = fake_stripe.calls("POST", "/v1/payment_intents")
    assert charge["off_session"] == "true" and charge["confirm"] == "true"
    assert (charge["customer"], charge["payment_method"]) == (payment.customer_id, payment.payment_method_id)
    assert charge["amount"] == str(int(booking.total_amount * 100))
    assert not fake_stripe.calls("POST", f"/v1/payment_intents/{held_intent}/capture")
    assert Invoice.objects.filter(payment=payment, kind="invoice").count() == 1


@pytest.fixture
def needs_the_renter(api, clients, users, fake_stripe, django_capture_on_commit_callbacks):
    """An approved booking whose lapsed hold could not be charged: the bank wants the renter."""
    booking, payment = _request_and_pay(api, clients, users, fake_stripe, days=20)
    fake_stripe.objects[payment.payment_id]["status"] = "canceled"
    fake_stripe.require_authentication = True
    _approve(users, booking, django_capture_on_commit_callbacks)
    booking.refresh_from_db()
    payment.refresh_from_db()
    assert booking.status == "approved"
    assert payment.status == "actionRequired" and payment.captured_amount == 0
    assert payment.pay_by is not None and payment.pay_by <= booking.check_in
    told = Notification.objects.get(user=users["renter"], kind="paymentActionRequired")
    assert "confirm the payment" in told.content and told.link == f"/booking-detail/{booking.pk}"
    assert not Invoice.objects.exists()
    return booking, payment


def test_the_renter_who_does_not_pay_in_time_loses_the_booking(
    users, needs_the_renter, django_capture_on_commit_callbacks
):
    booking, payment = needs_the_renter
    assert services.payments_expire_unpaid(now=payment.pay_by - dt.timedelta(minutes=1)) == 0
    booking.refresh_from_db()
    assert booking.status == "approved"

    with django_capture_on_commit_callbacks(execute=True):
        assert services.payments_expire_unpaid(now=payment.pay_by + dt.timedelta(minutes=1)) == 1
    booking.refresh_from_db()
    payment.refresh_from_db()
    assert booking.status == "expired" and payment.status == "released"
    assert not Occupancy.objects.filter(booking=booking, active=True).exists()  # the time is free again
    assert Notification.objects.filter(user=users["renter"], kind="bookingExpired", content__contains="released")
    assert Notification.objects.filter(user=users["host"], kind="bookingExpired", content__contains="released")
    assert [c.to_status for c in history(booking)][-2:] == ["approved", "expired"]
    assert services.payments_expire_unpaid(now=payment.pay_by + dt.timedelta(days=1)) == 0


def test_the_renter_who_pays_keeps_the_booking(api, clients, users, fake_stripe, needs_the_renter):
    booking, payment = needs_the_renter
    fake_stripe.requests.clear()
    # Someone else cannot pay it; the renter can, from the booking, and is charged at once.
    assert clients["other_renter"].post("/api/payment/checkout", {"bookingId": str(booking.pk)}).status_code == 404
    response = clients["renter"].post("/api/payment/checkout", {"bookingId": str(booking.pk)})
    assert response.status_code == 200, response.content
    [sent] = fake_stripe.calls("POST", "/v1/checkout/sessions")
    assert sent["payment_intent_data[capture_method]"] == "automatic"
    payment.refresh_from_db()
    _webhook(api, "checkout.session.completed", fake_stripe.complete_session(payment.session_id))

    payment.refresh_from_db()
    booking.refresh_from_db()
    assert payment.status == "completed" and payment.captured_amount == booking.total_amount
    assert booking.status == "approved" and payment.pay_by is None
    assert Invoice.objects.filter(payment=payment, kind="invoice").count() == 1
    assert services.payments_expire_unpaid(now=booking.check_in) == 0
    shown = clients["renter"].get(f"/api/payment/get-single/{booking.pk}").json()["data"]["statusHistory"]
    assert [c["toStatus"] for c in shown] == [c.to_status for c in history(payment)]
    assert [c.to_status for c in history(payment)] == [
        "pending",
        "authorized",
        "actionRequired",
        "pending",
        "authorized",
        "completed",
    ]
