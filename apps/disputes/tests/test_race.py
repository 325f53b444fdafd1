"""Concurrent requests on one booking or dispute, each in its own transaction on its own connection."""

import threading
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
from django.db import connection

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.core.testing import ApiClient
from apps.disputes import services
from apps.disputes.models import Dispute
from apps.payments.models import Payment, Refund

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

RACERS = 8


def race(calls: list) -> list:
    barrier = threading.Barrier(len(calls))

    def attempt(call):
        try:
            barrier.wait(timeout=30)
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(attempt, calls))


def test_only_one_dispute_opens_when_both_parties_raise_at_once(users, paid_booking):
    body = {"bookingId": str(paid_booking.pk), "reason": "It went wrong."}
    parties = [users["renter"], users["host"]] * (RACERS // 2)
    calls = [lambda u=u: ApiClient().as_user(u).post("/api/dispute/create", body, format="json") for u in parties]
    codes = sorted(r.status_code for r in race(calls))
    assert codes.count(201) == 1 and codes.count(409) == RACERS - 1, codes
    assert Dispute.objects.count() == 1


def test_only_one_decision_and_one_refund_when_staff_decide_at_once(users, paid_booking):
    dispute = services.dispute_raise(user=users["renter"], booking_id=paid_booking.pk, reason="Broken")
    staff = [UserFactory(role=Role.ADMIN) for _ in range(RACERS // 2)]
    staff += [UserFactory(role=Role.MODERATOR) for _ in range(RACERS // 2)]
    url = f"/api/dispute/update-status/{dispute.pk}"

    def body(user):
        if user.role == Role.ADMIN:
            return {"status": "approved", "refundAmount": "10.00"}
        return {"status": "rejected", "reason": "No evidence"}

    calls = [lambda u=u: ApiClient().as_user(u).patch(url, body(u), format="json") for u in staff]
    codes = sorted(r.status_code for r in race(calls))
    assert codes.count(200) == 1 and codes.count(409) == RACERS - 1, codes
    dispute.refresh_from_db()
    payment = Payment.objects.get(booking=paid_booking)
    if dispute.status == "approved":
        assert payment.refunded_amount == Decimal("10.00") and Refund.objects.count() == 1
    else:
        assert dispute.status == "rejected" and payment.refunded_amount == 0 and not Refund.objects.exists()
