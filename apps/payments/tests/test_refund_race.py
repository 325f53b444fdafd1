"""Nothing is refunded twice: 32 people cancelling one booking, or deciding one dispute, at once.

Each request runs in its own transaction on its own connection; the refunds and credit notes the
winner causes are made by the payment services as they would be in production.
"""

import threading
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
from django.db import connection

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.bookings.models import Booking
from apps.core.testing import ApiClient
from apps.disputes import services as disputes
from apps.payments.models import Invoice, Payment, Refund

from .conftest import pay_locally

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

RACERS = 32


def race(calls: list) -> list:
    barrier = threading.Barrier(len(calls))

    def attempt(call):
        try:
            barrier.wait(timeout=60)
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(attempt, calls))


def paid_approved_booking(api, clients, users) -> Booking:
    listing = PricedEventListingFactory(host=users["host"])
    booking = booking_make(renter=users["renter"], listing=listing)
    pay_locally(api, clients["renter"], booking)
    bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    payment = Payment.objects.get(booking=booking)
    assert payment.status == "completed" and payment.captured_amount == booking.total_amount
    return Booking.objects.get(pk=booking.pk)


def test_32_renter_and_host_cancels_at_once_refund_once(api, clients, users, local_gateway):
    booking = paid_approved_booking(api, clients, users)
    url = f"/api/booking/cancel/{booking.pk}"
    actors = [users["renter"], users["host"], users["sub_host"], users["renter"]] * (RACERS // 4)
    calls = [
        lambda u=u: ApiClient().as_user(u).patch(url, {"reason": "Closed that day"}, format="json") for u in actors
    ]
    codes = sorted(response.status_code for response in race(calls))
    assert codes.count(200) == 1 and codes.count(409) == RACERS - 1, codes
    booking.refresh_from_db()
    payment = Payment.objects.get(booking=booking)
    assert booking.status == "cancelled"
    assert Refund.objects.filter(payment=payment).count() == 1
    assert payment.refunded_amount == booking.refund_amount > 0
    assert Invoice.objects.filter(payment=payment, kind="creditNote").count() == 1


def test_32_staff_decisions_at_once_decide_once_and_refund_at_most_once(api, clients, users, local_gateway):
    booking = paid_approved_booking(api, clients, users)
    dispute = disputes.dispute_raise(user=users["renter"], booking_id=booking.pk, reason="The room was locked.")
    staff = [UserFactory(role=Role.ADMIN) for _ in range(RACERS // 2)]
    staff += [UserFactory(role=Role.MODERATOR) for _ in range(RACERS // 2)]
    url = f"/api/dispute/update-status/{dispute.pk}"

    def body(user):
        return (
            {"status": "approved", "refundAmount": "25.00"}
            if user.role == Role.ADMIN
            else {"status": "rejected", "reason": "No"}
        )

    calls = [lambda u=u: ApiClient().as_user(u).patch(url, body(u), format="json") for u in staff]
    codes = sorted(response.status_code for response in race(calls))
    assert codes.count(200) == 1 and codes.count(409) == RACERS - 1, codes
    dispute.refresh_from_db()
    payment = Payment.objects.get(booking=booking)
    refunds = Refund.objects.filter(payment=payment)
    if dispute.status == "approved":
        assert refunds.count() == 1 and payment.refunded_amount == Decimal("25.00")
        assert Invoice.objects.filter(payment=payment, kind="creditNote").count() == 1
    else:
        assert not refunds.exists() and payment.refunded_amount == 0
