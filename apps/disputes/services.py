"""Writes of the disputes app: raising a dispute, and the staff's two decisions.

Every status change goes through ``_decide`` (lock, check the transition, save). The booking's
status is changed only through the bookings services, and money moves only through the payments
refund service.
"""

import logging
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.accounts.models import STAFF_ROLES, User
from apps.bookings import services as bookings
from apps.bookings.models import Booking, BookingStatus
from apps.bookings.policies import dispute_refusal, dispute_role_refusal
from apps.core.exceptions import Conflict, InvalidInput, NotFound
from apps.core.statemachine import record
from apps.notifications.services import counters_changed, notify
from apps.payments import services as payments
from apps.payments.models import Payment, Refund

from .models import DISPUTE_MACHINE, REASON_MAX, REJECT_REASON_MAX, Dispute, DisputeEvidence, DisputeStatus
from .policies import decide_refusal
from .uploads import clean_all

logger = logging.getLogger(__name__)

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def _invalid(field_name: str, message: str) -> InvalidInput:
    return InvalidInput(message, errors={field_name: [message]})


def party_link(dispute: Dispute) -> str:
    """The page that opens a dispute's detail for a party (spec 2.7: from /dispute-payments)."""
    return f"/dispute-payments?disputeId={dispute.pk}"


def staff_link(dispute: Dispute) -> str:
    return f"/dispute-requests?disputeId={dispute.pk}"


# --- Side effects (after commit) ---------------------------------------------------------------------


def _notify(user, kind: str, content: str, link: str) -> None:
    notify(user=user, kind=kind, content=content, link=link)


def _counters_changed(dispute: Dispute) -> None:
    counters_changed(users=[dispute.host_id], staff=True)


def _money(value: Decimal) -> str:
    return f"${value:,.2f}"


# --- Raising ---------------------------------------------------------------------------------------


def _locked_booking(booking_id) -> Booking:
    booking = (
        Booking.objects.select_for_update(of=("self",))
        .select_related("listing", "renter", "host")
        .filter(pk=booking_id)
        .first()
    )
    if booking is None:
        raise NotFound("Booking not found.")
    return booking


@transaction.atomic
def dispute_raise(*, user: User, booking_id, reason: str, files=()) -> Dispute:
    """The renter or the host of a booking asks the staff to decide on it; the booking becomes disputed.

    A subHost cannot raise one (the spec hides Disputes from subHosts); the host does. At most one
    open dispute per booking (a database constraint backs the check). A booking that is already
    disputed without an open dispute gets the dispute attached without another status change.
    """
    refusal = dispute_role_refusal(user)
    if refusal is not None:
        raise refusal
    reason = (reason or "").strip()
    if not reason:
        raise _invalid("reason", "Please describe what went wrong.")
    if len(reason) > REASON_MAX:
        raise _invalid("reason", f"The reason can be at most {REASON_MAX} characters.")
    cleaned = clean_all(list(files))

    booking = _locked_booking(booking_id)
    refusal = dispute_refusal(user, booking)
    if isinstance(refusal, NotFound):
        raise refusal
    if Dispute.objects.filter(booking=booking, status=DisputeStatus.PENDING).exists():
        raise Conflict("A dispute is already open on this booking.")
    already_disputed = booking.status == BookingStatus.DISPUTED
    if not already_disputed and refusal is not None:
        raise refusal

    try:
        with transaction.atomic():
            dispute = Dispute.objects.create(
                booking=booking,
                listing_id=booking.listing_id,
                renter_id=booking.renter_id,
                host_id=booking.host_id,
                raised_by=user,
                payment=Payment.objects.filter(booking=booking).first(),
                reason=reason,
            )
    except IntegrityError:
        raise Conflict("A dispute is already open on this booking.") from None
    record(
        dispute,
        machine=DISPUTE_MACHINE.name,
        from_status="",
        to_status=DisputeStatus.PENDING,
        actor=user,
        reason=reason,
    )
    for content, name, content_type in cleaned:
        evidence = DisputeEvidence(dispute=dispute, name=name, content_type=content_type, size=content.size)
        evidence.file.save(content.name, content, save=False)
        evidence.save()
    if not already_disputed:
        bookings.booking_mark_disputed(booking_id=booking.pk, actor=user, reason=reason[:1000])

    title = booking.listing.title
    other = booking.host if user.pk == booking.renter_id else booking.renter
    who = "The renter" if user.pk == booking.renter_id else "The host"
    _notify(
        other, "disputeRaised", f"{who} raised a dispute about the booking at {title}: {reason}", party_link(dispute)
    )
    for staff in User.objects.filter(role__in=STAFF_ROLES, is_deleted=False, is_active=True):
        _notify(
            staff,
            "disputeRaised",
            f"A dispute about a booking at {title} is waiting for a decision.",
            staff_link(dispute),
        )
    _counters_changed(dispute)
    return dispute


# --- Deciding --------------------------------------------------------------------------------------


def _locked_dispute(dispute_id) -> Dispute:
    dispute = (
        Dispute.objects.select_for_update(of=("self",))
        .select_related("booking", "listing", "renter", "host")
        .filter(pk=dispute_id)
        .first()
    )
    if dispute is None:
        raise NotFound("Dispute not found.")
    return dispute


def _decide(dispute_id, to_status: str, *, actor: User) -> Dispute:
    """Lock the dispute and check that ``actor`` may decide it (``policies.decide_refusal``)."""
    if (refusal := decide_refusal(actor)) is not None:
        raise refusal
    dispute = _locked_dispute(dispute_id)
    if (refusal := decide_refusal(actor, dispute)) is not None:
        raise refusal
    return dispute


def _booking_payment(dispute: Dispute, *, lock: bool = False) -> Payment | None:
    queryset = Payment.objects.filter(booking_id=dispute.booking_id)
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    return queryset.first()


def _amount(value) -> Decimal:
    try:
        amount = Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError, TypeError):
        raise _invalid("refundAmount", "The refund amount must be a number.") from None
    if not amount.is_finite():
        raise _invalid("refundAmount", "The refund amount must be a number.")
    return amount


def _resolve_booking(dispute: Dispute, *, actor: User, refunded: bool, reason: str, settled: bool = False) -> None:
    """Move the booking on from disputed: cancelled when everything was refunded, else back to the
    status the dispute interrupted; ``settled`` (a refund was made) means it is not disputed again."""
    if Booking.objects.filter(pk=dispute.booking_id, status=BookingStatus.DISPUTED).exists():
        bookings.booking_resolve_dispute(
            booking_id=dispute.booking_id, actor=actor, refunded=refunded, reason=reason, settled=settled
        )


@transaction.atomic
def dispute_approve(*, dispute_id, actor: User, refund_amount) -> Dispute:
    """Approve with a refund (full or partial) made through the payments refund service."""
    dispute = _decide(dispute_id, DisputeStatus.APPROVED, actor=actor)
    if refund_amount is None or refund_amount == "":
        raise _invalid("refundAmount", "Enter the amount to refund.")
    amount = _amount(refund_amount)
    payment = _booking_payment(dispute, lock=True)
    left = payments.refund_limit(payment) if payment is not None else ZERO
    if left <= ZERO:
        raise Conflict("Nothing paid for this booking is left to refund; reject the dispute instead.")
    if amount <= ZERO:
        raise _invalid("refundAmount", "The refund amount must be more than $0.00.")
    if amount > left:
        raise _invalid("refundAmount", f"At most {_money(left)} can be refunded for this booking.")

    refund = payments.payment_refund(
        payment=payment,
        amount=amount,
        source=Refund.Source.DISPUTE,
        reason=f"Dispute {dispute.pk} approved",
        actor=actor,
        exact=True,
    )
    if refund is None:
        raise Conflict("The refund could not be made. Please refresh and try again.")
    DISPUTE_MACHINE.transition(
        dispute,
        DisputeStatus.APPROVED,
        actor=actor,
        reason=f"{_money(refund.amount)} refunded",
        refund_amount=refund.amount,
        refund=refund,
        payment=payment,
        decided_by=actor,
        decided_at=timezone.now(),
    )
    payment.refresh_from_db(fields=["refunded_amount", "captured_amount", "extended_amount", "status"])
    fully = payments.refundable(payment) <= ZERO
    _resolve_booking(
        dispute, actor=actor, refunded=fully, settled=True, reason=f"Dispute approved: {_money(refund.amount)} refunded"
    )

    title = dispute.listing.title
    link = party_link(dispute)
    _notify(
        dispute.renter,
        "disputeApproved",
        f"The dispute about your booking at {title} was approved: {_money(refund.amount)} will be refunded to you.",
        link,
    )
    _notify(
        dispute.host,
        "disputeApproved",
        f"The dispute about the booking at {title} was approved: {_money(refund.amount)} was refunded to the renter.",
        link,
    )
    _counters_changed(dispute)
    return dispute


@transaction.atomic
def dispute_reject(*, dispute_id, actor: User, reason: str) -> Dispute:
    """Reject with a reason the parties see; the booking goes back to completed."""
    dispute = _decide(dispute_id, DisputeStatus.REJECTED, actor=actor)
    reason = (reason or "").strip()
    if not reason:
        raise _invalid("reason", "Please give a reason for rejecting.")
    if len(reason) > REJECT_REASON_MAX:
        raise _invalid("reason", f"The reason can be at most {REJECT_REASON_MAX} characters.")
    DISPUTE_MACHINE.transition(
        dispute,
        DisputeStatus.REJECTED,
        actor=actor,
        reason=reason,
        reject_reason=reason,
        decided_by=actor,
        decided_at=timezone.now(),
    )
    _resolve_booking(dispute, actor=actor, refunded=False, reason=f"Dispute rejected: {reason}"[:1000])

    title = dispute.listing.title
    link = party_link(dispute)
    for user in (dispute.renter, dispute.host):
        _notify(user, "disputeRejected", f"The dispute about the booking at {title} was rejected: {reason}", link)
    _counters_changed(dispute)
    return dispute


@transaction.atomic
def dispute_update_status(*, dispute_id, actor: User, status: str, refund_amount=None, reason: str = "") -> Dispute:
    """The API's one entry point (``PATCH dispute/update-status/{id}``)."""
    if status == DisputeStatus.APPROVED:
        return dispute_approve(dispute_id=dispute_id, actor=actor, refund_amount=refund_amount)
    if status == DisputeStatus.REJECTED:
        return dispute_reject(dispute_id=dispute_id, actor=actor, reason=reason)
    raise _invalid("status", "Status must be approved or rejected.")
