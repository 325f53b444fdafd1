"""Dispute services: raising, the two decisions, refunds through the payments code, counters."""

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from apps.bookings import services as bookings
from apps.bookings.factories import booking_make
from apps.bookings.models import Booking
from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotFound
from apps.core.statemachine import history
from apps.disputes import services
from apps.disputes.models import Dispute
from apps.disputes.selectors import pending_disputes_count
from apps.notifications.counters import pending_counters
from apps.notifications.models import Notification
from apps.payments.models import Earning, Invoice, Payment, Refund

from .conftest import pdf_file, png_file

pytestmark = pytest.mark.django_db


def raise_dispute(users, booking, capture, actor="renter", **extra):
    with capture(execute=True):
        return services.dispute_raise(
            user=users[actor], booking_id=booking.pk, reason=extra.pop("reason", "The projector was broken."), **extra
        )


def payment_of(booking) -> Payment:
    return Payment.objects.get(booking=booking)


# --- Raising ---------------------------------------------------------------------------------------


def test_renter_raises_a_dispute_and_the_booking_becomes_disputed(
    users, paid_booking, django_capture_on_commit_callbacks
):
    dispute = raise_dispute(
        users, paid_booking, django_capture_on_commit_callbacks, files=[png_file(), pdf_file("bill.pdf")]
    )
    assert dispute.status == "pending" and dispute.raised_by == users["renter"]
    assert dispute.renter == users["renter"] and dispute.host == users["host"]
    assert dispute.listing_id == paid_booking.listing_id and dispute.payment == payment_of(paid_booking)
    paid_booking.refresh_from_db()
    assert paid_booking.status == "disputed"
    assert any(c.to_status == "disputed" and c.actor == users["renter"] for c in history(paid_booking))
    assert [(c.to_status, c.actor) for c in history(dispute)] == [("pending", users["renter"])]
    assert sorted(dispute.evidence.values_list("content_type", flat=True)) == ["application/pdf", "image/jpeg"]
    # The other party and the staff are told; the renter who raised it is not.
    notified = set(Notification.objects.filter(kind="disputeRaised").values_list("user__email", flat=True))
    assert notified == {"host@test.example", "admin@test.example", "moderator@test.example"}
    host_note = Notification.objects.get(kind="disputeRaised", user=users["host"])
    assert host_note.type == "dispute" and host_note.link == f"/dispute-payments?disputeId={dispute.pk}"


def test_host_raises_a_dispute_and_the_renter_is_told(users, paid_booking, django_capture_on_commit_callbacks):
    dispute = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks, actor="host")
    assert dispute.raised_by == users["host"]
    assert Notification.objects.filter(kind="disputeRaised", user=users["renter"]).exists()
    assert not Notification.objects.filter(kind="disputeRaised", user=users["host"]).exists()


@pytest.mark.parametrize(
    ("actor", "error"),
    [
        ("sub_host", Forbidden),
        ("moderator", Forbidden),
        ("admin", Forbidden),
        ("other_renter", NotFound),
        ("other_host", NotFound),
    ],
)
def test_only_the_renter_or_the_host_raise(users, paid_booking, actor, error):
    with pytest.raises(error):
        services.dispute_raise(user=users[actor], booking_id=paid_booking.pk, reason="Not mine")
    paid_booking.refresh_from_db()
    assert paid_booking.status == "completed" and not Dispute.objects.exists()


def test_one_open_dispute_per_booking(users, paid_booking, django_capture_on_commit_callbacks):
    raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    with pytest.raises(Conflict, match="already open"):
        services.dispute_raise(user=users["host"], booking_id=paid_booking.pk, reason="Again")
    assert Dispute.objects.count() == 1
    dispute = Dispute.objects.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Dispute.objects.create(
            booking=paid_booking,
            listing=dispute.listing,
            renter=dispute.renter,
            host=dispute.host,
            raised_by=dispute.host,
            reason="A second open one",
        )


def test_a_pending_or_rejected_booking_cannot_be_disputed(users, listing):
    booking = booking_make(renter=users["renter"], listing=listing)
    with pytest.raises(Conflict, match="only approved, ongoing or completed"):
        services.dispute_raise(user=users["renter"], booking_id=booking.pk, reason="Too slow")
    bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="rejected", reason="Full")
    with pytest.raises(Conflict):
        services.dispute_raise(user=users["renter"], booking_id=booking.pk, reason="Unfair")
    assert not Dispute.objects.exists()


def test_an_approved_booking_not_yet_started_can_be_disputed(users, listing):
    booking = booking_make(renter=users["renter"], listing=listing)
    bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    dispute = services.dispute_raise(user=users["renter"], booking_id=booking.pk, reason="The host changed the room")
    assert dispute.payment is None
    assert Booking.objects.get(pk=booking.pk).status == "disputed"


def test_raise_needs_a_reason_and_readable_evidence(users, paid_booking):
    with pytest.raises(InvalidInput, match="describe"):
        services.dispute_raise(user=users["renter"], booking_id=paid_booking.pk, reason="   ")
    with pytest.raises(InvalidInput, match="image"):
        from django.core.files.uploadedfile import SimpleUploadedFile

        services.dispute_raise(
            user=users["renter"],
            booking_id=paid_booking.pk,
            reason="See file",
            files=[SimpleUploadedFile("evil.html", b"<script>alert(1)</script>", content_type="text/html")],
        )
    with pytest.raises(InvalidInput, match="at most 5"):
        services.dispute_raise(
            user=users["renter"], booking_id=paid_booking.pk, reason="See files", files=[png_file()] * 6
        )
    paid_booking.refresh_from_db()
    assert paid_booking.status == "completed" and not Dispute.objects.exists()


def test_a_booking_already_disputed_gets_its_dispute_attached(users, paid_booking):
    bookings.booking_mark_disputed(booking_id=paid_booking.pk, actor=users["renter"], reason="Raised by phone")
    dispute = services.dispute_raise(user=users["renter"], booking_id=paid_booking.pk, reason="Raised by phone")
    assert dispute.status == "pending"
    assert [c.to_status for c in history(paid_booking)].count("disputed") == 1


# --- Approving: refunds through the payments code ------------------------------------------------------


def test_partial_approval_refunds_that_amount_and_completes_the_booking(
    users, paid_booking, django_capture_on_commit_callbacks
):
    dispute = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    payment = payment_of(paid_booking)
    paid = payment.captured_amount
    with django_capture_on_commit_callbacks(execute=True):
        decided = services.dispute_approve(dispute_id=dispute.pk, actor=users["moderator"], refund_amount="25.005")
    payment.refresh_from_db()
    assert decided.status == "approved" and decided.refund_amount == Decimal("25.01")  # half-up to cents
    assert decided.decided_by == users["moderator"] and decided.decided_at is not None
    assert payment.refunded_amount == Decimal("25.01") and payment.status == "completed"
    refund = Refund.objects.get()
    assert refund.source == "dispute" and refund.amount == Decimal("25.01") and decided.refund == refund
    assert Invoice.objects.get(kind="creditNote").amount == Decimal("25.01")
    paid_booking.refresh_from_db()
    assert paid_booking.status == "completed"
    earning = Earning.objects.get(payment=payment)
    assert earning.refunded_amount == Decimal("25.01") and earning.gross_amount == paid
    kinds = set(Notification.objects.filter(kind="disputeApproved").values_list("user__email", flat=True))
    assert kinds == {"renter@test.example", "host@test.example"}
    assert Notification.objects.filter(kind="paymentRefunded", user=users["renter"]).exists()


def test_a_second_approval_changes_nothing(users, paid_booking, django_capture_on_commit_callbacks):
    dispute = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount=Decimal("10"))
    with pytest.raises(Conflict, match="already approved"), django_capture_on_commit_callbacks(execute=True):
        services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount=Decimal("10"))
    with pytest.raises(Conflict):
        services.dispute_reject(dispute_id=dispute.pk, actor=users["admin"], reason="Changed my mind")
    assert payment_of(paid_booking).refunded_amount == Decimal("10.00")
    assert Refund.objects.count() == 1
    assert Dispute.objects.get().status == "approved"


def test_full_approval_refunds_everything_and_cancels_the_booking(
    users, paid_booking, django_capture_on_commit_callbacks
):
    dispute = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    payment = payment_of(paid_booking)
    with django_capture_on_commit_callbacks(execute=True):
        services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount=payment.captured_amount)
    payment.refresh_from_db()
    assert payment.refunded_amount == payment.captured_amount and payment.status == "refunded"
    assert Refund.objects.count() == 1  # the booking's cancellation refunds nothing more
    paid_booking.refresh_from_db()
    assert paid_booking.status == "cancelled"


def test_refund_never_above_what_was_paid_less_refunds(users, paid_booking, django_capture_on_commit_callbacks):
    from apps.payments import services as payments

    payment = payment_of(paid_booking)
    payments.payment_refund(payment=payment, amount=Decimal("40.00"), source="cancellation")
    dispute = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    left = payment.captured_amount - Decimal("40.00")
    with pytest.raises(InvalidInput, match=f"At most \\${left:,.2f}"):
        services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount=left + Decimal("0.01"))
    for bad in ("0", "-3", "abc", "NaN", "Infinity", None, ""):
        with pytest.raises(InvalidInput):
            services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount=bad)
    payment.refresh_from_db()
    assert payment.refunded_amount == Decimal("40.00")
    assert Dispute.objects.get().status == "pending"
    services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount=left)
    payment.refresh_from_db()
    assert payment.refunded_amount == payment.captured_amount


def test_nothing_paid_online_cannot_be_approved(users, listing):
    booking = booking_make(renter=users["renter"], listing=listing)
    bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    dispute = services.dispute_raise(user=users["renter"], booking_id=booking.pk, reason="No show")
    with pytest.raises(Conflict, match="reject the dispute instead"):
        services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount="5")
    assert Dispute.objects.get().status == "pending"


@pytest.mark.parametrize("actor", ["renter", "host", "sub_host", "other_host"])
def test_only_staff_decide(users, paid_booking, django_capture_on_commit_callbacks, actor):
    dispute = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    with pytest.raises(Forbidden):
        services.dispute_approve(dispute_id=dispute.pk, actor=users[actor], refund_amount="5")
    with pytest.raises(Forbidden):
        services.dispute_reject(dispute_id=dispute.pk, actor=users[actor], reason="No")
    assert payment_of(paid_booking).refunded_amount == 0


# --- Rejecting -------------------------------------------------------------------------------------


def test_reject_needs_a_reason_and_completes_the_booking(users, paid_booking, django_capture_on_commit_callbacks):
    dispute = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    with pytest.raises(InvalidInput, match="reason"):
        services.dispute_reject(dispute_id=dispute.pk, actor=users["moderator"], reason="  ")
    with django_capture_on_commit_callbacks(execute=True):
        decided = services.dispute_reject(
            dispute_id=dispute.pk, actor=users["moderator"], reason="The photos show a working projector."
        )
    assert decided.status == "rejected" and decided.reject_reason == "The photos show a working projector."
    paid_booking.refresh_from_db()
    assert paid_booking.status == "completed"
    assert payment_of(paid_booking).refunded_amount == 0 and not Refund.objects.exists()
    notes = Notification.objects.filter(kind="disputeRejected")
    assert {n.user.email for n in notes} == {"renter@test.example", "host@test.example"}
    assert all("working projector" in n.content for n in notes)
    with pytest.raises(Conflict):
        services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount="5")


def test_after_a_rejection_a_new_dispute_can_be_raised(users, paid_booking, django_capture_on_commit_callbacks):
    dispute = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    services.dispute_reject(dispute_id=dispute.pk, actor=users["admin"], reason="No evidence")
    second = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks, reason="Here is the evidence")
    assert second.status == "pending" and Dispute.objects.count() == 2


def test_unknown_status_is_refused(users, paid_booking, django_capture_on_commit_callbacks):
    dispute = raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    with pytest.raises(InvalidInput):
        services.dispute_update_status(dispute_id=dispute.pk, actor=users["admin"], status="pending")


# --- Counter ---------------------------------------------------------------------------------------


def test_pending_disputes_counter_per_role(users, paid_booking, django_capture_on_commit_callbacks):
    raise_dispute(users, paid_booking, django_capture_on_commit_callbacks)
    expected = {
        "renter": 0,
        "other_renter": 0,
        "host": 1,
        "sub_host": 1,
        "other_host": 0,
        "moderator": 1,
        "admin": 1,
    }
    for actor, count in expected.items():
        assert pending_counters(users[actor])["pendingDisputes"] == count, actor
        assert pending_disputes_count(users[actor]) == count, actor
    dispute = Dispute.objects.get()
    services.dispute_reject(dispute_id=dispute.pk, actor=users["admin"], reason="No")
    assert pending_counters(users["admin"])["pendingDisputes"] == 0
    assert pending_counters(users["host"])["pendingDisputes"] == 0
