"""The payment-details page's data: one payment's story, for the admin and the payment's host side only."""

from urllib.parse import urlsplit

import pytest

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.core.schema_check import check
from apps.core.testing import check_role_matrix
from apps.payments.models import Earning, ExtensionCharge, Payment, Payout
from apps.payments.services import earning_record

from .conftest import pay_locally

pytestmark = pytest.mark.django_db


def test_payment_details_tell_the_story_of_a_cancelled_booking(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    listing = PricedEventListingFactory(host=users["host"])
    booking = booking_make(renter=users["renter"], listing=listing)
    payment = pay_locally(api, clients["renter"], booking)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    with django_capture_on_commit_callbacks(execute=True):
        cancelled = bookings.booking_cancel_by_renter(booking_id=booking.pk, renter=users["renter"], reason="Plans")
    payment.refresh_from_db()

    url = f"/api/payment/details?paymentId={payment.pk}"
    check_role_matrix(clients, "get", url, allowed=["host", "admin"], hidden_status=(403, 404))
    assert clients["other_host"].get(url).status_code == 404
    assert clients["sub_host"].get(url).status_code == 403  # least privilege (docs/security.md)
    body = clients["host"].get(url).json()
    check("PaymentDetailsResponse", body)
    data = body["data"]
    kinds = [step["kind"] for step in data["steps"]]
    assert kinds[:3] == ["created", "authorized", "captured"] and "refund" in kinds
    assert data["capturedAmount"] == f"{booking.total_amount:.2f}"
    assert data["refundedAmount"] == f"{cancelled.refund_amount:.2f}"
    [refund] = data["refunds"]
    assert refund["source"] == "cancellation" and refund["creditNote"]["number"].startswith("CN-")
    assert {invoice["kind"] for invoice in data["invoices"]} == {"invoice", "creditNote"}
    assert data["booking"]["commission"] == f"{Payment.objects.get().booking.commission:.2f}"
    by_booking = clients["admin"].get(f"/api/payment/details?bookingId={booking.pk}").json()["data"]
    assert by_booking["_id"] == str(payment.pk)
    assert clients["admin"].get("/api/payment/details?paymentId=nope").status_code == 404
    assert clients["admin"].get("/api/payment/details").status_code == 404


def test_payment_details_match_the_schema_before_capture_and_with_a_payout(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    listing = PricedEventListingFactory(host=users["host"])
    booking = booking_make(renter=users["renter"], listing=listing)
    payment = pay_locally(api, clients["renter"], booking)
    url = f"/api/payment/details?paymentId={payment.pk}"
    held = clients["host"].get(url).json()
    check("PaymentDetailsResponse", held)
    assert held["data"]["capturedAt"] is None and held["data"]["earning"] is None and held["data"]["payout"] is None
    with django_capture_on_commit_callbacks(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    payment.refresh_from_db()
    earning = earning_record(payment=payment)
    payout = Payout.objects.create(host=users["host"], amount=earning.amount)
    Earning.objects.filter(pk=earning.pk).update(payout=payout)
    body = clients["admin"].get(url).json()
    check("PaymentDetailsResponse", body)
    data = body["data"]
    assert data["earning"]["amount"] == f"{earning.amount:.2f}"
    assert data["payout"] == {
        "_id": str(payout.pk),
        "status": "onhold",
        "amount": f"{payout.amount:.2f}",
        "requestedAt": data["payout"]["requestedAt"],
        "decidedAt": None,
    }
    assert {"kind": "payout-onhold", "at": data["payout"]["requestedAt"], "amount": None} in data["steps"]


def test_renter_extends_by_two_hours_pays_only_the_difference_and_the_invoice_shows_it(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    listing = PricedEventListingFactory(host=users["host"])
    booking = booking_make(renter=users["renter"], listing=listing)
    pay_locally(api, clients["renter"], booking)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    detail = f"/api/booking/booking/{booking.pk}"
    asked = clients["renter"].post(f"/api/booking/extend/{booking.pk}", {"additionalHours": 2}, format="json")
    assert asked.status_code == 201, asked.content
    extension_id = asked.json()["data"]["_id"]

    def extension_can(actor):
        [extension] = clients[actor].get(detail).json()["data"]["extendBooking"]
        return extension["can"]

    assert clients["renter"].get(detail).json()["data"]["can"]["payExtension"] is False
    checkout = {"bookingId": str(booking.pk), "extensionId": extension_id}
    # The checkout refuses what ``can.pay`` refuses, with the booking policy's words, and starts nothing.
    early = clients["renter"].post("/api/payment/checkout", checkout, format="json")
    assert early.status_code == 409 and early.json()["message"] == "Only an approved extension can be paid."
    assert not ExtensionCharge.objects.exists()
    # The host side decides a pending request; nobody pays it yet.
    assert extension_can("renter") == {"approve": False, "reject": False, "pay": False}
    for actor in ("host", "sub_host"):
        assert extension_can(actor) == {"approve": True, "reject": True, "pay": False}
    for actor in ("admin", "moderator"):
        assert extension_can(actor) == {"approve": False, "reject": False, "pay": False}
    answer = clients["host"].put(
        f"/api/booking/update-extend-status/{booking.pk}",
        {"status": "approved", "requestId": extension_id},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert clients["renter"].get(detail).json()["data"]["can"]["payExtension"] is True
    assert clients["host"].get(detail).json()["data"]["can"]["payExtension"] is False
    assert extension_can("renter") == {"approve": False, "reject": False, "pay": True}
    assert extension_can("host") == {"approve": False, "reject": False, "pay": False}
    again = clients["host"].put(
        f"/api/booking/update-extend-status/{booking.pk}",
        {"status": "rejected", "requestId": extension_id},
        format="json",
    )
    assert again.status_code == 409 and "already approved" in again.json()["message"]
    assert extension_can("renter")["pay"] is True  # the refused answer changed nothing

    started = clients["renter"].post(
        "/api/payment/checkout", {"bookingId": str(booking.pk), "extensionId": extension_id}, format="json"
    )
    assert started.status_code == 200, started.content
    path = urlsplit(started.json()["data"]["url"]).path
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(path + "/pay").status_code == 302
    data = clients["renter"].get(detail).json()["data"]
    assert data["can"]["payExtension"] is False
    extension = next(e for e in data["extendBooking"] if e["_id"] == extension_id)
    assert extension["paid"] is True
    assert extension["can"] == {"approve": False, "reject": False, "pay": False}
    twice = clients["renter"].post("/api/payment/checkout", checkout, format="json")
    assert twice.status_code == 409 and twice.json()["message"] == "This extension is already paid."
    assert ExtensionCharge.objects.count() == 1
    invoices = clients["renter"].get("/api/invoice/get-all").json()["data"]["invoices"]
    amounts = sorted(invoice["amount"] for invoice in invoices)
    assert extension["additionalAmount"] in amounts and len(invoices) == 2
