"""Booking payments: checkout, authorisation, capture, release, extensions, refunds, invoices.

The bookings app calls ``booking_payment_status_changed`` after each booking status change
commits; we capture on approval, release on rejection or expiry, refund on cancellation
(the amount its cancellation policy computed) and book the host's earning on completion.
"""

import logging
from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.accounts.models import Role, User
from apps.bookings.policies import pay_refusal
from apps.bookings.services import booking_request_paid
from apps.core.exceptions import Conflict, Forbidden, NotFound

from .gateway import SESSION_PLACEHOLDER, gateway_named, get_gateway
from .models import (
    ZERO,
    CheckoutPurpose,
    Earning,
    ExtensionCharge,
    Invoice,
    InvoiceCounter,
    InvoiceKind,
    Payment,
    PaymentStatus,
    Refund,
)
from .policies import RELEASE_BOOKING_STATUSES, captures
from .subscriptions import checked_redirect_url, is_uuid, with_query

logger = logging.getLogger(__name__)

TRANSITIONS: dict[str, frozenset[str]] = {
    PaymentStatus.PENDING: frozenset({PaymentStatus.AUTHORIZED, PaymentStatus.FAILED, PaymentStatus.RELEASED}),
    PaymentStatus.AUTHORIZED: frozenset({PaymentStatus.COMPLETED, PaymentStatus.RELEASED, PaymentStatus.FAILED}),
    PaymentStatus.COMPLETED: frozenset({PaymentStatus.REFUNDED}),
    PaymentStatus.FAILED: frozenset({PaymentStatus.AUTHORIZED}),
    PaymentStatus.RELEASED: frozenset(),
    PaymentStatus.REFUNDED: frozenset(),
}


def _set_status(payment: Payment, status: str, *, fields: list[str] = ()) -> None:
    if payment.status != status and status not in TRANSITIONS[payment.status]:
        raise Conflict(f"A {payment.status} payment cannot become {status}.")
    payment.status = status
    payment.save(update_fields=[*dict.fromkeys(["status", *fields, "updated_at"])])


def _notify(user, kind: str, content: str, link: str) -> None:
    try:
        from apps.notifications.services import notify
    except ImportError:  # pragma: no cover
        return
    transaction.on_commit(lambda: notify(user=user, kind=kind, content=content, link=link), robust=True)


def _locked(payment_id) -> Payment:
    return Payment.objects.select_for_update(of=("self",)).select_related("booking", "listing").get(pk=payment_id)


# --- Checkout ------------------------------------------------------------------------------------


@transaction.atomic
def payment_checkout_start(*, user: User, booking_id, redirect_url: str = "", extension_id=None) -> str:
    """The renter pays for its booking request (held until the host answers) or for an approved
    extension (charged at once). The amount always comes from the booking."""
    from apps.bookings.models import Booking, ExtendBooking, ExtensionStatus

    if user.role != Role.RENTER:
        raise Forbidden("Only the renter of a booking can pay for it.")
    booking = None
    if is_uuid(booking_id):
        booking = (
            Booking.objects.select_for_update(of=("self",))
            .select_related("listing")
            .filter(pk=booking_id, renter=user)
            .first()
        )
    if booking is None:
        raise NotFound("Booking not found.")
    back = checked_redirect_url(redirect_url or f"/booking-detail/{booking.pk}")
    gateway = get_gateway()
    if extension_id:
        extension = (
            ExtendBooking.objects.filter(pk=extension_id, booking=booking).first() if is_uuid(extension_id) else None
        )
        if extension is None:
            raise NotFound("Extension request not found.")
        if extension.status != ExtensionStatus.APPROVED or extension.paid:
            raise Conflict("Only an approved, unpaid extension can be paid.")
        payment = Payment.objects.select_for_update().filter(booking=booking).first()
        if payment is None or payment.status != PaymentStatus.COMPLETED:
            raise Conflict("The booking itself must be paid before an extension.")
        charge = ExtensionCharge.objects.create(
            payment=payment, extension=extension, amount=extension.additional_amount
        )
        session = gateway.create_checkout(
            purpose=CheckoutPurpose.EXTENSION,
            reference=str(charge.pk),
            amount=charge.amount,
            description=f"Extension of your booking at {booking.listing.title}",
            user=user,
            success_url=with_query(back, type="extension", success="true") + "&sessionId=" + SESSION_PLACEHOLDER,
            cancel_url=with_query(back, type="extension", success="false"),
            metadata={"bookingId": str(booking.pk)},
        )
        charge.session_id = session.id
        charge.save(update_fields=["session_id"])
        return session.url

    payment = Payment.objects.select_for_update().filter(booking=booking).first()
    refusal = pay_refusal(user, booking, payment_status=payment.status if payment is not None else None)
    if refusal is not None:
        raise refusal
    if payment is None:
        payment = Payment(booking=booking, listing=booking.listing, renter=user, host_id=booking.host_id)
    payment.gateway = gateway.name
    payment.total_amount = booking.total_amount
    payment.status = PaymentStatus.PENDING
    payment.save()
    session = gateway.create_checkout(
        purpose=CheckoutPurpose.BOOKING,
        reference=str(payment.pk),
        amount=payment.total_amount,
        description=f"Booking at {booking.listing.title}",
        user=user,
        success_url=with_query(back, type="booking", success="true") + "&sessionId=" + SESSION_PLACEHOLDER,
        cancel_url=with_query(back, type="booking", success="false"),
        capture_later=True,
        metadata={"bookingId": str(booking.pk)},
    )
    payment.session_id = session.id
    payment.save(update_fields=["session_id", "updated_at"])
    return session.url


@transaction.atomic
def payment_checkout_confirm(*, session_id: str) -> Payment:
    """A booking or extension checkout finished. Idempotent (webhook, success page, local Pay)."""
    charge = ExtensionCharge.objects.select_for_update().filter(session_id=session_id).first()
    if charge is not None:
        return _extension_charge_complete(charge)
    payment = Payment.objects.filter(session_id=session_id).first()
    if payment is None:
        raise NotFound("This payment was not found.")
    payment = _locked(payment.pk)
    if payment.status not in (PaymentStatus.PENDING, PaymentStatus.FAILED):
        return payment
    result = gateway_named(payment.gateway).get_checkout(session_id)
    if not result.complete:
        raise Conflict("The payment has not been completed yet.")
    if result.amount_total != payment.total_amount:
        raise Conflict("The amount paid does not match the booking; the payment was not applied.")
    payment.payment_id = result.payment_intent_id
    payment.authorized_at = timezone.now()
    _set_status(payment, PaymentStatus.AUTHORIZED, fields=["payment_id", "authorized_at"])
    # The host may have answered while the renter was paying.
    booking_status = payment.booking.status
    if captures(booking_status):
        payment_capture(payment=payment)
    elif booking_status in RELEASE_BOOKING_STATUSES:
        payment_release(payment=payment)
    else:
        booking_request_paid(booking_id=payment.booking_id)
    return payment


def _extension_charge_complete(charge: ExtensionCharge) -> Payment:
    from apps.bookings.services import extension_mark_paid

    payment = _locked(charge.payment_id)
    if charge.status == ExtensionCharge.Status.COMPLETED:
        return payment
    result = gateway_named(payment.gateway).get_checkout(charge.session_id)
    if not result.complete:
        raise Conflict("The payment has not been completed yet.")
    if result.amount_total != charge.amount:
        raise Conflict("The amount paid does not match the extension; the payment was not applied.")
    charge.status = ExtensionCharge.Status.COMPLETED
    charge.completed_at = timezone.now()
    charge.intent_id = result.payment_intent_id
    charge.save(update_fields=["status", "completed_at", "intent_id"])
    Payment.objects.filter(pk=payment.pk).update(extended_amount=F("extended_amount") + charge.amount)
    payment.refresh_from_db()
    invoice_issue(payment=payment, amount=charge.amount, extension_charge=charge)
    extension_mark_paid(extension_id=charge.extension_id)
    return payment


@transaction.atomic
def payment_checkout_abandon(*, session_id: str) -> None:
    ExtensionCharge.objects.filter(session_id=session_id, status="pending").update(status="cancelled")


# --- Capture, release, refund --------------------------------------------------------------------


def payment_capture(*, payment: Payment) -> Payment:
    """Take the held amount (host approved). Only an authorised payment is captured; once."""
    if payment.status != PaymentStatus.AUTHORIZED:
        return payment
    captured = gateway_named(payment.gateway).capture(payment.payment_id)
    payment.captured_amount = captured or payment.total_amount
    payment.captured_at = timezone.now()
    _set_status(payment, PaymentStatus.COMPLETED, fields=["captured_amount", "captured_at"])
    invoice_issue(payment=payment, amount=payment.captured_amount)
    link = f"/booking-detail/{payment.booking_id}"
    amount = f"${payment.captured_amount:,.2f}"
    _notify(
        payment.renter, "paymentCaptured", f"{amount} was charged for your booking at {payment.listing.title}.", link
    )
    _notify(payment.host, "paymentCaptured", f"{amount} was paid for a booking at {payment.listing.title}.", link)
    return payment


def payment_release(*, payment: Payment) -> Payment:
    """Let the hold go (rejected, expired or cancelled before approval)."""
    if payment.status == PaymentStatus.AUTHORIZED:
        gateway_named(payment.gateway).release(payment.payment_id)
        _set_status(payment, PaymentStatus.RELEASED)
    elif payment.status in (PaymentStatus.PENDING, PaymentStatus.FAILED):
        _set_status(payment, PaymentStatus.RELEASED)
    return payment


def refundable(payment: Payment) -> Decimal:
    return payment.captured_amount + payment.extended_amount - payment.refunded_amount


def payment_refund(*, payment: Payment, amount: Decimal, source: str, reason: str = "") -> Refund | None:
    """Refund part or all of what was paid (never more than is left); issues a credit note."""
    payment = _locked(payment.pk)
    amount = min(Decimal(amount).quantize(Decimal("0.01")), refundable(payment))
    if payment.status != PaymentStatus.COMPLETED or amount <= ZERO:
        return None
    refund_id = gateway_named(payment.gateway).refund(payment.payment_id, amount, reason)
    return _record_refund(payment, amount=amount, gateway_refund_id=refund_id, source=source, reason=reason)


def _record_refund(payment: Payment, *, amount: Decimal, gateway_refund_id: str, source: str, reason: str) -> Refund:
    refund = Refund.objects.create(
        payment=payment, amount=amount, gateway_refund_id=gateway_refund_id, source=source, reason=reason[:500]
    )
    payment.refunded_amount += amount
    fields = ["refunded_amount"]
    if payment.refunded_amount >= payment.captured_amount + payment.extended_amount:
        _set_status(payment, PaymentStatus.REFUNDED, fields=fields)
    else:
        payment.save(update_fields=[*fields, "updated_at"])
    invoice_issue(payment=payment, amount=amount, refund=refund)
    earning = Earning.objects.select_for_update().filter(payment=payment, payout__isnull=True).first()
    if earning is not None:
        earning.refunded_amount = min(earning.gross_amount - earning.commission, earning.refunded_amount + amount)
        earning.amount = earning.gross_amount - earning.commission - earning.refunded_amount
        earning.save(update_fields=["refunded_amount", "amount"])
    _notify(
        payment.renter,
        "paymentRefunded",
        f"${amount:,.2f} was refunded for your booking at {payment.listing.title}.",
        f"/booking-detail/{payment.booking_id}",
    )
    return refund


# --- Following the booking -----------------------------------------------------------------------


@transaction.atomic
def booking_payment_status_changed(*, booking_id, from_status: str, to_status: str, refund_amount=None) -> None:
    """Called by the bookings app after a status change commits."""
    payment = Payment.objects.filter(booking_id=booking_id).first()
    if payment is None:
        return
    payment = _locked(payment.pk)
    if captures(to_status) and payment.status == PaymentStatus.AUTHORIZED:
        payment_capture(payment=payment)
    if to_status in ("rejected", "expired"):
        payment_release(payment=payment)
    elif to_status == "cancelled":
        if payment.status != PaymentStatus.COMPLETED:
            payment_release(payment=payment)
        else:
            source = Refund.Source.DISPUTE if from_status == "disputed" else Refund.Source.CANCELLATION
            amount = refundable(payment) if refund_amount is None else Decimal(refund_amount)
            payment_refund(payment=payment, amount=amount, source=source, reason=f"Booking {to_status}")
    elif to_status == "completed" and payment.status == PaymentStatus.COMPLETED:
        earning_record(payment=payment)


def earning_record(*, payment: Payment) -> Earning:
    """The host's share of a completed booking becomes available for a payout (once)."""
    gross = payment.captured_amount + payment.extended_amount
    commission = min(payment.booking.commission, gross)
    refunded = min(payment.refunded_amount, gross - commission)
    earning, _ = Earning.objects.get_or_create(
        payment=payment,
        defaults={
            "host_id": payment.host_id,
            "gross_amount": gross,
            "commission": commission,
            "refunded_amount": refunded,
            "amount": gross - commission - refunded,
        },
    )
    return earning


# --- Gateway events for booking payments ---------------------------------------------------------


@transaction.atomic
def payment_intent_captured(*, intent_id: str, amount: Decimal) -> str:
    payment = Payment.objects.filter(payment_id=intent_id).first()
    if payment is None:
        return "no booking payment for this intent"
    payment = _locked(payment.pk)
    if payment.status != PaymentStatus.AUTHORIZED:
        return f"already {payment.status}"
    payment.captured_amount = amount
    payment.captured_at = timezone.now()
    _set_status(payment, PaymentStatus.COMPLETED, fields=["captured_amount", "captured_at"])
    invoice_issue(payment=payment, amount=amount)
    return "captured"


@transaction.atomic
def payment_intent_failed(*, intent_id: str) -> str:
    payment = Payment.objects.filter(payment_id=intent_id).first()
    if payment is None:
        return "no booking payment for this intent"
    payment = _locked(payment.pk)
    if payment.status not in (PaymentStatus.PENDING, PaymentStatus.AUTHORIZED):
        return f"already {payment.status}"
    _set_status(payment, PaymentStatus.FAILED)
    return "failed"


@transaction.atomic
def payment_intent_released(*, intent_id: str) -> str:
    payment = Payment.objects.filter(payment_id=intent_id).first()
    if payment is None:
        return "no booking payment for this intent"
    payment = _locked(payment.pk)
    if payment.status != PaymentStatus.AUTHORIZED:
        return f"already {payment.status}"
    _set_status(payment, PaymentStatus.RELEASED)
    return "released"


@transaction.atomic
def payment_refunds_sync(*, intent_id: str, refunds: list[tuple[str, Decimal]], amount_refunded: Decimal) -> str:
    """Refunds seen at the provider (ours come back here too): each is recorded once, by its id."""
    payment = Payment.objects.filter(payment_id=intent_id).first()
    if payment is None:
        return "no booking payment for this intent"
    payment = _locked(payment.pk)
    added = 0
    for refund_id, amount in refunds:
        if Refund.objects.filter(gateway_refund_id=refund_id).exists():
            continue
        amount = min(amount, refundable(payment))
        if amount <= ZERO or payment.status != PaymentStatus.COMPLETED:
            continue
        _record_refund(payment, amount=amount, gateway_refund_id=refund_id, source=Refund.Source.GATEWAY, reason="")
        added += 1
    return f"{added} refund(s) recorded"


# --- Invoices ------------------------------------------------------------------------------------


PREFIX = {InvoiceKind.INVOICE: "INV", InvoiceKind.CREDIT_NOTE: "CN"}


def invoice_issue(
    *,
    payment: Payment,
    amount: Decimal,
    refund: Refund | None = None,
    extension_charge: ExtensionCharge | None = None,
    issued_at: datetime | None = None,
) -> Invoice:
    """Number the next invoice (or credit note) of the year: the counter row is locked, so two
    captures at once get consecutive numbers and a rolled-back one leaves no gap."""
    kind = InvoiceKind.CREDIT_NOTE if refund is not None else InvoiceKind.INVOICE
    issued_at = issued_at or timezone.now()
    year = issued_at.year
    InvoiceCounter.objects.get_or_create(kind=kind, year=year)
    counter = InvoiceCounter.objects.select_for_update().get(kind=kind, year=year)
    counter.last_number += 1
    counter.save(update_fields=["last_number"])
    return Invoice.objects.create(
        kind=kind,
        year=year,
        sequence=counter.last_number,
        number=f"{PREFIX[kind]}-{year}-{counter.last_number:06d}",
        payment=payment,
        refund=refund,
        extension_charge=extension_charge,
        amount=amount,
        issued_at=issued_at,
    )
