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
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.bookings.models import Booking
from apps.core.testing import ApiClient
from apps.disputes import services as disputes
from apps.payments import payouts
from apps.payments import services as payments
from apps.payments.models import Invoice, Payment, Refund

from .conftest import paid_completed_booking, pay_locally
from .test_money_invariants import assert_paid_out_within_what_is_kept

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


# --- Refunds racing the release of the payout their earnings sit in ------------------------------


def _call(user, url: str, body: dict):
    return lambda: ApiClient().as_user(user).patch(url, body, format="json")


def test_refunds_racing_a_payout_release_never_pay_out_refunded_money(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    """Each dispute refund either wins (its earning leaves the payout before it is paid) or is
    refused with nothing changed: never refunded in full while its earning is paid out, never
    capped silently below the amount staff chose."""
    host, renter = users["host"], users["renter"]
    rounds, per_round = 2, 5
    for round_ in range(rounds):
        booked = [
            paid_completed_booking(
                api, clients, users, django_capture_on_commit_callbacks, day=weekday(10 + 7 * (round_ * per_round + n))
            )
            for n in range(per_round)
        ]
        raised = [disputes.dispute_raise(user=renter, booking_id=b.pk, reason="The room was locked.") for b in booked]
        payout = payouts.payout_request(user=host)
        full = {d.pk: payments.refundable(Payment.objects.get(booking_id=d.booking_id)) for d in raised}
        staff = [UserFactory(role=Role.ADMIN) for _ in range(per_round + 1)]
        calls = [_call(staff[0], f"/api/payout/update-status/{payout.pk}", {"status": "released"})]
        calls += [
            _call(user, f"/api/dispute/update-status/{d.pk}", {"status": "approved", "refundAmount": str(full[d.pk])})
            for d, user in zip(raised, staff[1:], strict=True)
        ]
        answers = race(calls)
        assert answers[0].status_code in (200, 409), answers[0].content
        for dispute, answer in zip(raised, answers[1:], strict=True):
            dispute.refresh_from_db()
            refunds = Refund.objects.filter(payment__booking_id=dispute.booking_id)
            if answer.status_code == 200:
                assert dispute.status == "approved"
                assert [r.amount for r in refunds] == [full[dispute.pk]], "a refund was capped silently"
            else:
                assert answer.status_code in (400, 409), answer.content
                assert dispute.status == "pending" and not refunds.exists(), "a refused refund changed something"
        assert_paid_out_within_what_is_kept(host)


def test_money_moves_racing_on_one_host_keep_paid_out_within_what_is_kept(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    """The money invariant under concurrency: refunds of every size, a release and a rejection of
    the same payout, a renter's cancellation and a new payout request, all at once, twice over."""
    host, renter = users["host"], users["renter"]
    for round_ in range(2):
        week = 10 + 10 * round_
        completed = [
            paid_completed_booking(api, clients, users, django_capture_on_commit_callbacks, day=weekday(7 * (week + n)))
            for n in range(3)
        ]
        upcoming = paid_approved_booking(api, clients, users)
        raised = [disputes.dispute_raise(user=renter, booking_id=b.pk, reason="Not as described.") for b in completed]
        payout = payouts.payout_request(user=host)
        shares = (Decimal("1"), Decimal("0.5"), Decimal("0.01"))
        asked = {
            d.pk: (payments.refundable(Payment.objects.get(booking_id=d.booking_id)) * share).quantize(Decimal("0.01"))
            for d, share in zip(raised, shares, strict=True)
        }
        staff = [UserFactory(role=Role.ADMIN) for _ in range(5)]
        payout_url = f"/api/payout/update-status/{payout.pk}"
        calls = [
            _call(staff[0], payout_url, {"status": "released"}),
            _call(staff[1], payout_url, {"status": "failed", "note": "Bank details missing"}),
            _call(renter, f"/api/booking/cancel/{upcoming.pk}", {"reason": "Plans changed"}),
            lambda: ApiClient().as_user(host).post("/api/payout/request", {}, format="json"),
        ]
        calls += [
            _call(user, f"/api/dispute/update-status/{d.pk}", {"status": "approved", "refundAmount": str(asked[d.pk])})
            for d, user in zip(raised, staff[2:], strict=True)
        ]
        answers = race(calls)
        assert all(answer.status_code < 500 for answer in answers), [a.status_code for a in answers]
        assert sorted(a.status_code for a in answers[:2]) == [200, 409]  # the payout is decided once
        for dispute, answer in zip(raised, answers[4:], strict=True):
            dispute.refresh_from_db()
            refunds = Refund.objects.filter(payment__booking_id=dispute.booking_id)
            if answer.status_code == 200:
                assert [r.amount for r in refunds] == [asked[dispute.pk]]
            else:
                assert dispute.status == "pending" and not refunds.exists()
        assert_paid_out_within_what_is_kept(host)
