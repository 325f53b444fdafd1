"""Money stays right after refunds, wherever the host's earning sits, and an extension is charged once.

The invariant, per booking and per host: what was paid out is never more than what was captured
less what was refunded. A property test drives random sequences of pay, approve, extend, complete,
cancel, dispute refunds and payout requests, holds, releases and rejections through the services.
"""

import datetime as dt
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.bookings.models import Booking
from apps.core.exceptions import DomainError
from apps.disputes import services as disputes
from apps.payments import payouts
from apps.payments import services as payments
from apps.payments.models import ZERO, Earning, ExtensionCharge, LocalCheckoutSession, Payment, Payout
from apps.payments.pages import _complete

from .conftest import paid_completed_booking, pay_locally

pytestmark = pytest.mark.django_db


def assert_paid_out_within_what_is_kept(host) -> None:
    for payment in Payment.objects.filter(host=host):
        kept = payment.captured_amount + payment.extended_amount - payment.refunded_amount
        paid_out = Earning.objects.filter(payment=payment, payout__status="released").aggregate(total=Sum("amount"))
        assert (paid_out["total"] or ZERO) <= kept, payment
    released = Payout.objects.filter(host=host, status="released")
    for payout in released:
        assert payout.amount == (payout.earnings.aggregate(total=Sum("amount"))["total"] or ZERO)
    paid = released.aggregate(total=Sum("amount"))["total"] or ZERO
    kept = sum(
        (p.captured_amount + p.extended_amount - p.refunded_amount for p in Payment.objects.filter(host=host)), ZERO
    )
    assert paid <= kept


def test_a_full_refund_of_an_earning_in_a_waiting_payout_rejects_it_and_nothing_is_released(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    booking = paid_completed_booking(api, clients, users, django_capture_on_commit_callbacks)
    payment = Payment.objects.get(booking=booking)
    earning = Earning.objects.get(payment=payment)
    payout = payouts.payout_request(user=users["host"])
    assert payout.amount == earning.amount > 0

    dispute = disputes.dispute_raise(user=users["renter"], booking_id=booking.pk, reason="The room was locked.")
    with django_capture_on_commit_callbacks(execute=True):
        disputes.dispute_approve(
            dispute_id=dispute.pk, actor=users["admin"], refund_amount=payments.refundable(payment)
        )
    payout.refresh_from_db()
    earning.refresh_from_db()
    assert payout.status == "failed" and payout.note == payouts.REFUNDED_BEFORE_RELEASE
    assert earning.amount == ZERO and earning.payout_id is None

    response = clients["admin"].patch(f"/api/payout/update-status/{payout.pk}", {"status": "released"}, format="json")
    assert response.status_code == 409
    assert payouts.host_balance(host_id=users["host"].pk)["paid"] == ZERO
    assert_paid_out_within_what_is_kept(users["host"])


def test_a_partial_refund_lowers_the_waiting_payout_and_the_release_pays_what_is_left(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    booking = paid_completed_booking(api, clients, users, django_capture_on_commit_callbacks)
    payment = Payment.objects.get(booking=booking)
    earning = Earning.objects.get(payment=payment)
    payout = payouts.payout_request(user=users["host"])
    dispute = disputes.dispute_raise(user=users["renter"], booking_id=booking.pk, reason="No coffee.")
    with django_capture_on_commit_callbacks(execute=True):
        disputes.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount="25.00")
    payout.refresh_from_db()
    assert payout.status == "onhold" and payout.amount == earning.amount - Decimal("25.00")

    response = clients["admin"].patch(f"/api/payout/update-status/{payout.pk}", {"status": "released"}, format="json")
    assert response.status_code == 200, response.content
    payout.refresh_from_db()
    assert payout.amount == earning.amount - Decimal("25.00")
    assert_paid_out_within_what_is_kept(users["host"])


def test_after_the_host_is_paid_only_what_the_platform_holds_can_be_refunded(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    booking = paid_completed_booking(api, clients, users, django_capture_on_commit_callbacks)
    payment = Payment.objects.get(booking=booking)
    payout = payouts.payout_request(user=users["host"])
    payouts.payout_update_status(payout_id=payout.pk, by=users["admin"], status="released")
    payout.refresh_from_db()
    limit = payments.refundable(payment) - payout.amount  # what the platform holds: the commission
    dispute = disputes.dispute_raise(user=users["renter"], booking_id=booking.pk, reason="The room was locked.")
    response = clients["admin"].patch(
        f"/api/dispute/update-status/{dispute.pk}",
        {"status": "approved", "refundAmount": str(payments.refundable(payment))},
        format="json",
    )
    assert response.status_code == 400 and f"${limit:,.2f}" in response.json()["message"]
    payment.refresh_from_db()
    assert payment.refunded_amount == ZERO
    with django_capture_on_commit_callbacks(execute=True):
        disputes.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount=limit)
    assert_paid_out_within_what_is_kept(users["host"])


# --- One charge per extension -----------------------------------------------------------------------


def _approved_extension(api, clients, users, capture):
    listing = PricedEventListingFactory(host=users["host"])
    booking = booking_make(renter=users["renter"], listing=listing)
    pay_locally(api, clients["renter"], booking)
    with capture(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    asked = clients["renter"].post(f"/api/booking/extend/{booking.pk}", {"additionalHours": 2}, format="json")
    assert asked.status_code == 201, asked.content
    extension_id = asked.json()["data"]["_id"]
    answer = clients["host"].put(
        f"/api/booking/update-extend-status/{booking.pk}",
        {"status": "approved", "requestId": extension_id},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    return booking, extension_id


def test_a_second_checkout_of_an_extension_reuses_the_first_and_an_old_second_session_cannot_pay_twice(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    booking, extension_id = _approved_extension(api, clients, users, django_capture_on_commit_callbacks)
    body = {"bookingId": str(booking.pk), "extensionId": extension_id}
    first = clients["renter"].post("/api/payment/checkout", body, format="json")
    second = clients["renter"].post("/api/payment/checkout", body, format="json")
    assert first.status_code == second.status_code == 200
    assert first.json()["data"]["url"] == second.json()["data"]["url"]
    assert ExtensionCharge.objects.count() == 1

    # A checkout started before this rule (a second session of the same extension) is still open.
    charge = ExtensionCharge.objects.get()
    old = LocalCheckoutSession.objects.get(id=charge.session_id)
    old.pk = "cs_local_older"
    old.save(force_insert=True)
    ExtensionCharge.objects.create(
        payment=charge.payment, extension=charge.extension, amount=charge.amount, status="cancelled", session_id=old.pk
    )
    path = urlsplit(first.json()["data"]["url"]).path
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(path + "/pay").status_code == 302
    payment = Payment.objects.get(booking=booking)
    paid = payment.extended_amount
    assert paid == charge.amount

    twice = api.post(f"/checkout/{old.pk}/pay")
    assert twice.status_code == 409 and b"already paid" in twice.content
    payment.refresh_from_db()
    assert payment.extended_amount == paid
    assert ExtensionCharge.objects.filter(status="completed").count() == 1
    assert LocalCheckoutSession.objects.get(pk=old.pk).status == "open"  # nothing was taken
    again = clients["renter"].post("/api/payment/checkout", body, format="json")
    assert again.status_code == 409 and again.json()["message"] == "This extension is already paid."


def test_an_abandoned_extension_checkout_is_replaced_not_doubled(
    api, clients, users, local_gateway, django_capture_on_commit_callbacks
):
    booking, extension_id = _approved_extension(api, clients, users, django_capture_on_commit_callbacks)
    body = {"bookingId": str(booking.pk), "extensionId": extension_id}
    first = clients["renter"].post("/api/payment/checkout", body, format="json").json()["data"]["url"]
    LocalCheckoutSession.objects.filter(pk=urlsplit(first).path.rsplit("/", 1)[-1]).update(status="cancelled")
    second = clients["renter"].post("/api/payment/checkout", body, format="json").json()["data"]["url"]
    assert second != first
    assert list(ExtensionCharge.objects.order_by("created_at").values_list("status", flat=True)) == [
        "cancelled",
        "pending",
    ]


# --- The property: paid out <= captured - refunded, per booking and per host ---------------------------

OPERATIONS = ("pay", "approve", "extend", "complete", "cancel", "refund", "request", "hold", "release", "reject")
SHARES = ("1.00", "0.5", "0.01", "2")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 1), st.sampled_from(SHARES)), min_size=4, max_size=10
    )
)
# The paths the probe found, always tried: a refund while the payout waits, then its release; a
# refund after the release; an extension paid, then refunded in part, then paid out.
@example(steps=[("complete", 0, "1"), ("request", 0, "1"), ("refund", 0, "1.00"), ("release", 0, "1")])
@example(steps=[("complete", 0, "1"), ("request", 0, "1"), ("release", 0, "1"), ("refund", 0, "1.00")])
@example(
    steps=[("extend", 1, "1"), ("complete", 1, "1"), ("refund", 1, "0.5"), ("request", 1, "1"), ("release", 1, "1")]
)
def test_paid_out_never_exceeds_captured_less_refunded(steps, users, local_gateway, django_capture_on_commit_callbacks):
    host, renter, admin = users["host"], users["renter"], users["admin"]
    with transaction.atomic():
        listing = PricedEventListingFactory(host=host)
        booked = [booking_make(renter=renter, listing=listing, day=weekday(10 + 7 * n)) for n in range(2)]
        for booking in booked:  # both start paid and approved (a step may pay or approve again: refused)
            url = payments.payment_checkout_start(user=renter, booking_id=booking.pk)
            with django_capture_on_commit_callbacks(execute=True):
                _complete(urlsplit(url).path.rsplit("/", 1)[-1])
            with django_capture_on_commit_callbacks(execute=True):
                bookings.booking_update_status(booking_id=booking.pk, actor=host, status="approved")

        def run(name: str, index: int, share: str) -> None:
            booking = Booking.objects.get(pk=booked[index].pk)
            payment = Payment.objects.filter(booking=booking).first()
            if name == "pay":
                url = payments.payment_checkout_start(user=renter, booking_id=booking.pk)
                _complete(urlsplit(url).path.rsplit("/", 1)[-1])
            elif name == "approve":
                bookings.booking_update_status(booking_id=booking.pk, actor=host, status="approved")
            elif name == "extend":
                extension = bookings.extension_request(booking_id=booking.pk, renter=renter, hours=1)
                bookings.extension_update_status(
                    booking_id=booking.pk, extension_id=extension.pk, actor=host, status="approved"
                )
                url = payments.payment_checkout_start(user=renter, booking_id=booking.pk, extension_id=extension.pk)
                _complete(urlsplit(url).path.rsplit("/", 1)[-1])
            elif name == "complete":
                bookings.bookings_complete_due(now=booking.check_out + dt.timedelta(minutes=1))
            elif name == "cancel":
                bookings.booking_cancel_by_renter(booking_id=booking.pk, renter=renter, reason="Plans changed")
            elif name == "refund" and payment is not None:
                dispute = disputes.dispute_raise(user=renter, booking_id=booking.pk, reason="Not as described.")
                amount = (payments.refundable(payment) * Decimal(share)).quantize(Decimal("0.01"))
                disputes.dispute_approve(dispute_id=dispute.pk, actor=admin, refund_amount=amount)
            elif name == "request":
                payouts.payout_request(user=host)
            elif name in ("hold", "release", "reject"):
                payout = Payout.objects.filter(host=host, status="onhold").first()
                if payout is not None:
                    status = {"hold": "onhold", "release": "released", "reject": "failed"}[name]
                    payouts.payout_update_status(payout_id=payout.pk, by=admin, status=status)

        for name, index, share in steps:
            try:
                with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
                    run(name, index, share)
            except DomainError:
                pass  # refused (not allowed now): the state is unchanged
            assert_paid_out_within_what_is_kept(host)
            for earning in Earning.objects.filter(host=host):
                assert ZERO <= earning.amount <= earning.gross_amount - earning.commission
        transaction.set_rollback(True)
