"""Refunds, extension charges and membership payments change status only through their machines:
each change is in the record's history, and a move the table refuses changes nothing."""

from decimal import Decimal
from urllib.parse import parse_qs, urlsplit

import pytest

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.core.exceptions import Conflict
from apps.core.statemachine import history
from apps.payments import services
from apps.payments.models import ExtensionCharge, Refund, SubscriptionPayment
from apps.payments.subscriptions.common import SUBSCRIPTION_PAYMENT_MACHINE

from .conftest import pay_locally
from .test_money_invariants import _approved_extension

pytestmark = pytest.mark.django_db


def moves(obj) -> list[tuple[str, str]]:
    return [(change.from_status, change.to_status) for change in history(obj)]


def refused_changes_nothing(machine, obj, to_status: str) -> None:
    before = type(obj).objects.values().get(pk=obj.pk)
    changes = len(history(obj))
    with pytest.raises(Conflict):
        machine.transition(obj, to_status, reason="Not allowed")
    assert type(obj).objects.values().get(pk=obj.pk) == before
    assert len(history(obj)) == changes


def test_a_refund_is_recorded_then_completed_in_its_history(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    booking = booking_make(renter=users["renter"], listing=PricedEventListingFactory(host=users["host"]))
    payment = pay_locally(api, clients["renter"], booking)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    with django_capture_on_commit_callbacks(execute=True):
        services.payment_refund(
            payment=payment, amount=Decimal("10.00"), source="dispute", reason="Agreed", actor=users["admin"]
        )
    refund = Refund.objects.get()
    assert refund.status == "completed"
    assert moves(refund) == [("", "pending"), ("pending", "completed")]
    assert history(refund)[0].actor == users["admin"]
    refused_changes_nothing(services.REFUND_MACHINE, refund, "pending")


def test_an_extension_charge_is_opened_then_cancelled_in_its_history(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    booking, extension_id = _approved_extension(api, clients, users, django_capture_on_commit_callbacks)
    body = {"bookingId": str(booking.pk), "extensionId": extension_id}
    assert clients["renter"].post("/api/payment/checkout", body, format="json").status_code == 200
    charge = ExtensionCharge.objects.get()
    services.payment_checkout_abandon(session_id=charge.session_id)
    charge.refresh_from_db()
    assert charge.status == "cancelled"
    assert moves(charge) == [("", "pending"), ("pending", "cancelled")]
    assert history(charge)[0].actor == users["renter"]
    refused_changes_nothing(services.EXTENSION_CHARGE_MACHINE, charge, "pending")


def test_an_extension_charge_paid_is_completed_in_its_history(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    booking, extension_id = _approved_extension(api, clients, users, django_capture_on_commit_callbacks)
    body = {"bookingId": str(booking.pk), "extensionId": extension_id}
    url = clients["renter"].post("/api/payment/checkout", body, format="json").json()["data"]["url"]
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(urlsplit(url).path + "/pay").status_code == 302
    charge = ExtensionCharge.objects.get()
    assert charge.status == "completed"
    assert moves(charge) == [("", "pending"), ("pending", "completed")]
    refused_changes_nothing(services.EXTENSION_CHARGE_MACHINE, charge, "cancelled")


def _subscribe(client, plan) -> str:
    body = {"planId": plan.plan_id, "totalAmount": str(plan.total_amount), "redirectUrl": "/dashboard"}
    response = client.post("/api/payment/subscribe", body, format="json")
    assert response.status_code == 200, response.content
    return urlsplit(response.json()["data"]["url"]).path


def test_a_membership_payment_is_completed_in_its_history(clients, users, plan, local_gateway, api):
    paid = api.post(_subscribe(clients["host"], plan) + "/pay")
    query = parse_qs(urlsplit(paid["Location"]).query)
    confirmed = clients["host"].put(
        "/api/payment/subscribe-success",
        {"sessionId": query["sessionId"][0], "paymentId": query["paymentId"][0]},
        format="json",
    )
    assert confirmed.status_code == 200, confirmed.content
    record = SubscriptionPayment.objects.get()
    assert record.status == "completed"
    assert moves(record) == [("", "pending"), ("pending", "completed")]
    assert history(record)[0].actor == users["host"]
    refused_changes_nothing(SUBSCRIPTION_PAYMENT_MACHINE, record, "cancelled")


def test_an_abandoned_membership_checkout_is_cancelled_in_its_history(clients, plan, local_gateway, api):
    assert api.post(_subscribe(clients["host"], plan) + "/cancel").status_code == 302
    record = SubscriptionPayment.objects.get()
    assert record.status == "cancelled"
    assert moves(record) == [("", "pending"), ("pending", "cancelled")]
    refused_changes_nothing(SUBSCRIPTION_PAYMENT_MACHINE, record, "completed")
