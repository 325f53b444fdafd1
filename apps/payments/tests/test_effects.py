"""Money effects are never lost: a failing gateway is retried until the capture is made exactly
once, a crash after the gateway answered does not capture twice, and what keeps failing is shown
to the admin (API, Django admin and the stuckEffects counter)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.core.effects import MAX_ATTEMPTS, STUCK_AFTER, effects_run_due
from apps.core.models import Effect
from apps.core.schema_check import check
from apps.core.statemachine import history
from apps.core.testing import check_role_matrix
from apps.notifications.models import Notification
from apps.payments import effects, services
from apps.payments.models import Earning, Invoice, Payment

from .conftest import WEBHOOK_SECRET
from .fake_stripe import signed_event

pytestmark = pytest.mark.django_db


def _webhook(api, event_type, obj):
    payload, header = signed_event(event_type, obj, secret=WEBHOOK_SECRET)
    return api.generic(
        "POST", "/api/payment/webhook", payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )


@pytest.fixture
def held(api, clients, users, fake_stripe):
    """A pay-now request whose card is held at (fake) Stripe."""
    booking = booking_make(renter=users["renter"], listing=PricedEventListingFactory(host=users["host"]))
    response = clients["renter"].post("/api/payment/checkout", {"bookingId": str(booking.pk)}, format="json")
    assert response.status_code == 200
    payment = Payment.objects.get(booking=booking)
    assert (
        _webhook(api, "checkout.session.completed", fake_stripe.complete_session(payment.session_id)).status_code == 200
    )
    payment.refresh_from_db()
    assert payment.status == "authorized"
    return booking, payment


def _approve(users, booking, capture):
    with capture(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")


def _later(hours: int = 7) -> dt.datetime:
    return timezone.now() + dt.timedelta(hours=hours)


def test_a_capture_that_fails_twice_is_retried_and_made_exactly_once(
    users, held, fake_stripe, django_capture_on_commit_callbacks
):
    booking, payment = held
    fake_stripe.fail("/capture", 2)

    _approve(users, booking, django_capture_on_commit_callbacks)
    booking.refresh_from_db()
    payment.refresh_from_db()
    assert booking.status == "approved"  # the host's answer stands
    assert payment.status == "authorized"  # not captured yet, but not forgotten either
    effect = Effect.objects.get(kind="payments.capture")
    assert (effect.status, effect.attempts) == ("pending", 1)
    assert "could not complete" in effect.last_error
    assert effect.next_attempt_at > timezone.now()  # backoff: not retried at once
    effects_run_due()
    effect.refresh_from_db()
    assert effect.attempts == 1

    with django_capture_on_commit_callbacks(execute=True):
        effects_run_due(now=_later())  # second failure
        effect.refresh_from_db()
        assert (effect.status, effect.attempts) == ("pending", 2)
        effects_run_due(now=_later(14))  # third attempt succeeds

    effect.refresh_from_db()
    payment.refresh_from_db()
    assert (effect.status, effect.attempts) == ("done", 3)
    assert payment.status == "completed" and payment.captured_amount == booking.total_amount
    assert len(fake_stripe.calls("POST", f"/v1/payment_intents/{payment.payment_id}/capture")) == 3
    assert fake_stripe.objects[payment.payment_id]["amount_received"] == int(booking.total_amount * 100)
    assert Invoice.objects.filter(payment=payment, kind="invoice").count() == 1
    assert Notification.objects.filter(kind="paymentCaptured").count() == 2  # renter and host, once each
    # Nothing runs again.
    effects_run_due(now=_later(48))
    effect.refresh_from_db()
    assert effect.attempts == 3
    assert len(fake_stripe.calls("POST", f"/v1/payment_intents/{payment.payment_id}/capture")) == 3
    assert [c.to_status for c in history(payment)] == ["pending", "authorized", "completed"]


def test_a_crash_after_the_gateway_captured_does_not_capture_twice(
    users, held, fake_stripe, django_capture_on_commit_callbacks
):
    booking, payment = held
    with django_capture_on_commit_callbacks(execute=False):  # approved; the worker has not run yet
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    effect = Effect.objects.get(kind="payments.capture")

    # A worker calls Stripe, then dies before its transaction commits: our side rolls back.
    with pytest.raises(SystemExit), transaction.atomic():
        effects.capture(payment_id=str(payment.pk), key=effect.key)
        raise SystemExit("worker killed")
    payment.refresh_from_db()
    assert payment.status == "authorized"
    assert fake_stripe.objects[payment.payment_id]["status"] == "succeeded"

    with django_capture_on_commit_callbacks(execute=True):
        effects_run_due()
    effect.refresh_from_db()
    assert (effect.status, effect.attempts) == ("done", 1)
    payment.refresh_from_db()
    assert payment.status == "completed" and payment.captured_amount == booking.total_amount
    assert len(fake_stripe.calls("POST", f"/v1/payment_intents/{payment.payment_id}/capture")) == 1
    # The retry asked Stripe where the intent stands (captured) instead of capturing again.
    assert Invoice.objects.filter(payment=payment).count() == 1


def test_an_effect_that_keeps_failing_is_shown_to_the_admin_who_can_retry_it(
    api, clients, users, held, fake_stripe, django_capture_on_commit_callbacks
):
    booking, payment = held
    fake_stripe.fail("/capture", MAX_ATTEMPTS)
    _approve(users, booking, django_capture_on_commit_callbacks)
    counters = clients["admin"].get("/api/dashboard/pending-counter").json()["data"]
    assert counters["stuckEffects"] == 0
    for hours in range(1, STUCK_AFTER):
        effects_run_due(now=_later(hours * 7))
    assert clients["admin"].get("/api/dashboard/pending-counter").json()["data"]["stuckEffects"] == 1
    assert clients["moderator"].get("/api/dashboard/pending-counter").json()["data"]["stuckEffects"] == 0

    check_role_matrix(clients, "get", "/api/effects", allowed={"admin"})
    body = clients["admin"].get("/api/effects").json()
    check("EffectList", body)
    listed = body["data"]
    assert listed["totalCount"] == 1
    [shown] = listed["effects"]
    assert shown["kind"] == "payments.capture" and shown["attempts"] == STUCK_AFTER and shown["lastError"]
    assert shown["payload"] == {"payment_id": str(payment.pk)}

    for hours in range(STUCK_AFTER, MAX_ATTEMPTS):
        effects_run_due(now=_later(hours * 7))
    effect = Effect.objects.get(kind="payments.capture")
    assert (effect.status, effect.attempts) == ("failed", MAX_ATTEMPTS)
    effects_run_due(now=_later(24 * 30))  # stopped: waits for staff
    effect.refresh_from_db()
    assert (effect.status, effect.attempts) == ("failed", MAX_ATTEMPTS)

    # The Django admin lists it under "needs attention".
    api.force_login(users["admin"])
    page = api.get("/django-admin/core/effect/?stuck=yes")
    assert page.status_code == 200 and b"payments.capture" in page.content

    # A refused retry changes nothing; the admin's retry runs it (the gateway is back).
    assert clients["host"].post(f"/api/effects/{effect.pk}/retry").status_code == 403
    effect.refresh_from_db()
    assert effect.status == "failed"
    fake_stripe.failures.clear()
    response = clients["admin"].post(f"/api/effects/{effect.pk}/retry")
    assert response.status_code == 200
    effect.refresh_from_db()
    payment.refresh_from_db()
    assert effect.status == "done" and payment.status == "completed"
    assert clients["admin"].get("/api/dashboard/pending-counter").json()["data"]["stuckEffects"] == 0
    assert clients["admin"].post("/api/effects/00000000-0000-0000-0000-000000000000/retry").status_code == 404


def test_a_cancellation_refund_and_a_dispute_refund_share_one_entry_point(
    users, held, fake_stripe, django_capture_on_commit_callbacks
):
    booking, payment = held
    _approve(users, booking, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        cancelled = bookings.booking_cancel_by_renter(booking_id=booking.pk, renter=users["renter"], reason="Plans")
    refund = payment.refunds.get()
    assert refund.status == "completed" and refund.amount == cancelled.refund_amount
    [sent] = fake_stripe.calls("POST", "/v1/refunds")
    assert sent["amount"] == str(int(cancelled.refund_amount * 100))
    assert Effect.objects.get(kind="payments.refund").key == f"refund:{refund.pk}"


def test_a_refund_repeated_after_a_crash_is_answered_from_stripes_record(
    users, held, fake_stripe, django_capture_on_commit_callbacks
):
    booking, payment = held
    _approve(users, booking, django_capture_on_commit_callbacks)
    payment.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=False):  # decided; the worker has not run yet
        refund = services.payment_refund(payment=payment, amount=Decimal("10.00"), source="dispute")
    effect = Effect.objects.get(kind="payments.refund")

    with pytest.raises(SystemExit), transaction.atomic():  # Stripe refunds, then the worker dies
        effects.refund(refund_id=str(refund.pk), key=effect.key)
        raise SystemExit("worker killed")
    refund.refresh_from_db()
    assert refund.status == "pending" and not refund.gateway_refund_id

    with django_capture_on_commit_callbacks(execute=True):
        effects_run_due()
    refund.refresh_from_db()
    assert refund.status == "completed" and refund.gateway_refund_id
    assert len(fake_stripe.calls("POST", "/v1/refunds")) == 1  # the money went back once
    assert fake_stripe.replayed == [effect.key]  # the repeat was answered from Stripe's idempotency record
    assert Invoice.objects.filter(kind="creditNote", refund=refund).count() == 1


def test_a_booking_that_ends_before_its_capture_still_earns_the_host(
    users, held, fake_stripe, django_capture_on_commit_callbacks
):
    booking, payment = held
    fake_stripe.fail("/capture", 1)
    _approve(users, booking, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.bookings_complete_due(now=booking.check_out + dt.timedelta(minutes=1))
    booking.refresh_from_db()
    assert booking.status == "completed" and not Earning.objects.exists()  # nothing captured yet

    with django_capture_on_commit_callbacks(execute=True):
        effects_run_due(now=_later(1))
    payment.refresh_from_db()
    assert payment.status == "completed"
    earning = Earning.objects.get(payment=payment)
    assert earning.gross_amount == booking.total_amount and earning.host == users["host"]
