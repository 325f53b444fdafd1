# Over 450 lines: the booking's money flow, checkout to invoice, read top to bottom.
"""Booking payments: checkout, authorisation, capture, release, extensions, refunds, invoices.

The bookings app announces each booking status change (``booking_status_changed``, inside its
transaction); ``subscribers.py`` answers by queueing, in that same transaction, a capture on
approval, a release on rejection or expiry and a refund on cancellation (the amount its
cancellation policy computed), and books the host's earning on completion. Every call to the
gateway that moves money is an outbox effect (``effects.py``): carried out by the worker with
an idempotency key, retried with backoff, shown to staff when it keeps failing.
"""

import logging
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from apps.accounts.models import Role, User
from apps.bookings.models import Booking, BookingStatus, ExtendBooking
from apps.bookings.policies import extension_pay_refusal, pay_refusal
from apps.bookings.services import booking_expire_unpaid, booking_request_paid, extension_mark_paid
from apps.bookings.services.payment import booking_payment_record
from apps.core.django_internals import loaded_relation
from apps.core.effects import effect_enqueue
from apps.core.exceptions import Conflict, Forbidden, NotFound
from apps.core.filters import is_uuid
from apps.core.statemachine import StateMachine, record
from apps.notifications.services import notify

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
    Payout,
    PayoutStatus,
    Refund,
)
from .payouts import payout_recompute
from .policies import BOOKING_PAYMENT, RELEASE_BOOKING_STATUSES, captures
from .subscriptions import checked_redirect_url, with_query

logger = logging.getLogger(__name__)

# A card hold lapses after about 7 days (fewer for some cards): a request whose check-in is further
# than this also saves the card, to be charged without the renter if the hold is gone at capture.
SAVE_CARD_AFTER = timedelta(days=6)
# How long a renter has to confirm a charge their bank refused to make without them.
PAY_AFTER_ACTION_REQUIRED = timedelta(hours=24)

PAYMENT_MACHINE = StateMachine(
    "payment",
    {
        PaymentStatus.PENDING: {PaymentStatus.AUTHORIZED, PaymentStatus.FAILED, PaymentStatus.RELEASED},
        PaymentStatus.AUTHORIZED: {
            PaymentStatus.COMPLETED,
            PaymentStatus.RELEASED,
            PaymentStatus.FAILED,
            PaymentStatus.ACTION_REQUIRED,
        },
        PaymentStatus.ACTION_REQUIRED: {PaymentStatus.PENDING, PaymentStatus.AUTHORIZED, PaymentStatus.RELEASED},
        PaymentStatus.COMPLETED: {PaymentStatus.REFUNDED},
        PaymentStatus.FAILED: {PaymentStatus.AUTHORIZED, PaymentStatus.RELEASED, PaymentStatus.PENDING},
        PaymentStatus.RELEASED: set(),
        PaymentStatus.REFUNDED: set(),
    },
)
TRANSITIONS = PAYMENT_MACHINE.table
# A refund is recorded at once (pending) and completed when the gateway made it.
REFUND_MACHINE = StateMachine(
    "refund", {Refund.Status.PENDING: {Refund.Status.COMPLETED}, Refund.Status.COMPLETED: set()}, label="refund"
)
# An extension's charge: completed when its checkout is paid, cancelled when the checkout is gone or
# abandoned. A cancelled checkout the renter still pays (its page was left open) is applied, once.
EXTENSION_CHARGE_MACHINE = StateMachine(
    "extensionCharge",
    {
        ExtensionCharge.Status.PENDING: {ExtensionCharge.Status.COMPLETED, ExtensionCharge.Status.CANCELLED},
        ExtensionCharge.Status.COMPLETED: set(),
        ExtensionCharge.Status.CANCELLED: {ExtensionCharge.Status.COMPLETED},
    },
    label="extension payment",
)


def payment_set_status(payment: Payment, status: str, *, fields=(), actor=None, reason: str = "") -> None:
    """Every payment status change: checked against the table, saved with its history row."""
    if payment.status == status:
        if fields:
            payment.save(update_fields=[*dict.fromkeys([*fields, "updated_at"])])
        return
    PAYMENT_MACHINE.transition(
        payment,
        status,
        actor=actor,
        reason=reason,
        message=f"A {payment.status} payment cannot become {status}.",
        **{name: getattr(payment, name) for name in fields},
    )
    booking_payment_record(booking_id=payment.booking_id, state=BOOKING_PAYMENT[status])
    if (booking := loaded_relation(payment, "booking")) is not None:
        booking.payment_state = BOOKING_PAYMENT[status]


def _notify(user, kind: str, content: str, link: str) -> None:
    notify(user=user, kind=kind, content=content, link=link)


def payment_locked(payment_id) -> Payment:
    return Payment.objects.select_for_update(of=("self",)).select_related("booking", "listing").get(pk=payment_id)


# --- Checkout ------------------------------------------------------------------------------------


@transaction.atomic
def payment_checkout_start(*, user: User, booking_id, redirect_url: str = "", extension_id=None) -> str:
    """The renter pays for its booking request (held until the host answers) or for an approved
    extension (charged at once). The amount always comes from the booking."""
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
            ExtendBooking.objects.select_for_update().filter(pk=extension_id, booking=booking).first()
            if is_uuid(extension_id)
            else None
        )
        if extension is None:
            raise NotFound("Extension request not found.")
        payment = Payment.objects.select_for_update().filter(booking=booking).first()
        refusal = extension_pay_refusal(user, booking, extension)
        if refusal is not None:
            raise refusal
        # One charge per extension: a checkout still open is offered again, never a second one.
        if (url := _open_extension_checkout(extension, gateway)) is not None:
            return url
        try:
            with transaction.atomic():
                charge = ExtensionCharge.objects.create(
                    payment=payment, extension=extension, amount=extension.additional_amount
                )
        except IntegrityError:
            raise Conflict("A payment for this extension is already under way.") from None
        record(charge, machine=EXTENSION_CHARGE_MACHINE.name, from_status="", to_status=charge.status, actor=user)
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
    # An approved booking whose saved card needs the renter's confirmation is paid (charged) now.
    pay_now = payment is not None and payment.status == PaymentStatus.ACTION_REQUIRED
    refusal = pay_refusal(user, booking)
    if refusal is not None:
        raise refusal
    new = payment is None
    if payment is None:
        payment = Payment(booking=booking, listing=booking.listing, renter=user, host_id=booking.host_id)
    payment.gateway = gateway.name
    payment.total_amount = booking.total_amount
    if not new and payment.status != PaymentStatus.PENDING:
        payment_set_status(payment, PaymentStatus.PENDING, actor=user, reason="The renter is paying again.")
    payment.status = PaymentStatus.PENDING
    payment.save()
    if new:
        record(payment, machine=PAYMENT_MACHINE.name, from_status="", to_status=PaymentStatus.PENDING, actor=user)
        booking_payment_record(booking_id=booking.pk, state=BOOKING_PAYMENT[PaymentStatus.PENDING])
    session = gateway.create_checkout(
        purpose=CheckoutPurpose.BOOKING,
        reference=str(payment.pk),
        amount=payment.total_amount,
        description=f"Booking at {booking.listing.title}",
        user=user,
        success_url=with_query(back, type="booking", success="true") + "&sessionId=" + SESSION_PLACEHOLDER,
        cancel_url=with_query(back, type="booking", success="false"),
        capture_later=not pay_now,
        # A hold lapses after about 7 days: a request further ahead also saves the card, so the
        # booking can still be charged at approval (docs/decisions/payments/payments-that-outlive-a-card-hold-the-card-is-saved-not-re.md).
        save_card=not pay_now and booking.check_in - timezone.now() > SAVE_CARD_AFTER,
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
    payment = payment_locked(payment.pk)
    if payment.status not in (PaymentStatus.PENDING, PaymentStatus.FAILED, PaymentStatus.ACTION_REQUIRED):
        return payment
    result = gateway_named(payment.gateway).get_checkout(session_id)
    if not result.complete:
        raise Conflict("The payment has not been completed yet.")
    if result.amount_total != payment.total_amount:
        raise Conflict("The amount paid does not match the booking; the payment was not applied.")
    payment.payment_id = result.payment_intent_id
    payment.authorized_at = timezone.now()
    payment.customer_id = result.customer_id or payment.customer_id
    payment.payment_method_id = result.payment_method_id or payment.payment_method_id
    payment.pay_by = None
    payment_set_status(
        payment,
        PaymentStatus.AUTHORIZED,
        fields=["payment_id", "authorized_at", "customer_id", "payment_method_id", "pay_by"],
    )
    # The host may have answered while the renter was paying.
    booking_status = payment.booking.status
    if captures(booking_status):
        payment_capture(payment=payment)
    elif booking_status in RELEASE_BOOKING_STATUSES:
        payment_release(payment=payment)
    else:
        booking_request_paid(booking_id=payment.booking_id)
    return payment


def _open_extension_checkout(extension: ExtendBooking, gateway) -> str | None:
    """The address of the extension's checkout that can still be paid, if there is one (locked by
    the caller). A pending charge whose checkout is gone (expired or abandoned) is cancelled; one
    that was paid but not yet confirmed refuses a new checkout."""
    for charge in ExtensionCharge.objects.select_for_update().filter(
        extension=extension, status=ExtensionCharge.Status.PENDING
    ):
        url = gateway.open_checkout_url(charge.session_id) if charge.session_id else None
        if url is not None:
            return url
        if charge.session_id and gateway.get_checkout(charge.session_id).complete:
            raise Conflict("This extension is paid; the payment is being confirmed.")
        EXTENSION_CHARGE_MACHINE.transition(
            charge, ExtensionCharge.Status.CANCELLED, reason="Its checkout expired or was abandoned."
        )
    return None


def _extension_charge_complete(charge: ExtensionCharge) -> Payment:
    payment = payment_locked(charge.payment_id)
    if charge.status == ExtensionCharge.Status.COMPLETED:
        return payment
    # The payment is locked: two checkouts of the same extension complete one after the other.
    if ExtensionCharge.objects.filter(
        extension_id=charge.extension_id, status=ExtensionCharge.Status.COMPLETED
    ).exists():
        raise Conflict("This extension is already paid.")
    result = gateway_named(payment.gateway).get_checkout(charge.session_id)
    if not result.complete:
        raise Conflict("The payment has not been completed yet.")
    if result.amount_total != charge.amount:
        raise Conflict("The amount paid does not match the extension; the payment was not applied.")
    try:
        with transaction.atomic():
            EXTENSION_CHARGE_MACHINE.transition(
                charge,
                ExtensionCharge.Status.COMPLETED,
                reason="Checkout paid",
                completed_at=timezone.now(),
                intent_id=result.payment_intent_id,
            )
    except IntegrityError:  # extension_charged_once: another checkout of it completed meanwhile
        raise Conflict("This extension is already paid.") from None
    Payment.objects.filter(pk=payment.pk).update(extended_amount=F("extended_amount") + charge.amount)
    payment.refresh_from_db()
    invoice_issue(payment=payment, amount=charge.amount, extension_charge=charge)
    extension_mark_paid(extension_id=charge.extension_id)
    return payment


@transaction.atomic
def payment_checkout_abandon(*, session_id: str) -> None:
    pending = ExtensionCharge.objects.select_for_update().filter(
        session_id=session_id, status=ExtensionCharge.Status.PENDING
    )
    for charge in pending:
        EXTENSION_CHARGE_MACHINE.transition(charge, ExtensionCharge.Status.CANCELLED, reason="Checkout abandoned")


# --- Capture, release, refund (queued here, carried out by the worker in effects.py) -------------


def payment_capture(*, payment: Payment) -> Payment:
    """Queue the capture of the held amount (host approved). The worker captures an authorised
    payment once (``effects.capture``); queueing it twice keeps one effect."""
    if payment.status == PaymentStatus.AUTHORIZED:
        effect_enqueue("payments.capture", {"payment_id": str(payment.pk)}, key=f"capture:{payment.payment_id}")
    return payment


def payment_release(*, payment: Payment, reason: str = "") -> Payment:
    """Let the hold go (rejected, expired or cancelled before approval). An authorisation is
    cancelled at the gateway by the worker; an unpaid payment is simply released."""
    if payment.status == PaymentStatus.AUTHORIZED:
        effect_enqueue("payments.release", {"payment_id": str(payment.pk)}, key=f"release:{payment.payment_id}")
    elif payment.status in (PaymentStatus.PENDING, PaymentStatus.FAILED, PaymentStatus.ACTION_REQUIRED):
        payment_set_status(payment, PaymentStatus.RELEASED, reason=reason)
    return payment


def payment_action_required(payment: Payment, *, now=None) -> Payment:
    """The hold lapsed and the bank wants the renter to confirm the charge of the saved card: the
    renter is asked to pay from the booking; unpaid by ``pay_by`` the booking expires."""
    now = now or timezone.now()
    payment.pay_by = min(now + PAY_AFTER_ACTION_REQUIRED, payment.booking.check_in)
    payment_set_status(
        payment,
        PaymentStatus.ACTION_REQUIRED,
        fields=["pay_by"],
        reason="The bank asked the renter to confirm the payment.",
    )
    _notify(
        payment.renter,
        "paymentActionRequired",
        f"Your bank asks you to confirm the payment of ${payment.total_amount:,.2f} for your booking at "
        f"{payment.listing.title}. Pay from the booking by {_display(payment.pay_by)}, or the booking is released.",
        f"/booking-detail/{payment.booking_id}",
    )
    return payment


def payments_expire_unpaid(*, now=None) -> int:
    """Approved bookings whose renter did not confirm the payment in time expire (the time is freed)."""
    now = now or timezone.now()
    done = 0
    due = Payment.objects.filter(status=PaymentStatus.ACTION_REQUIRED, pay_by__lte=now)
    for booking_id in due.values_list("booking_id", flat=True)[:500]:
        try:
            with transaction.atomic():
                booking_expire_unpaid(booking_id=booking_id)
                done += 1
        except Conflict:
            continue
    return done


def _display(moment) -> str:
    local = moment.astimezone(ZoneInfo(settings.DISPLAY_TIME_ZONE))
    return local.strftime("%d-%m-%Y %I:%M %p")


def refundable(payment: Payment) -> Decimal:
    """What the renter paid for the booking and has not had back."""
    return payment.captured_amount + payment.extended_amount - payment.refunded_amount


def paid_out(payment: Payment) -> Decimal:
    """What the host was already paid for this booking (its earning, in a released payout)."""
    amount = (
        Earning.objects.filter(payment=payment, payout__status=PayoutStatus.RELEASED)
        .values_list("amount", flat=True)
        .first()
    )
    return amount or ZERO


def refund_limit(payment: Payment, *, paid_out_amount: Decimal | None = None) -> Decimal:
    """The refundable amount: what can still go back to the renter from the money the platform
    holds. Nothing until the payment is captured; then what was paid and not refunded, less what
    the host was already paid out (``paid_out_amount`` when the caller read it already). So a
    payout is never more than what was captured less what was refunded
    (docs/decisions/security/an-earning-follows-its-payment-s-refunds-wherever-it-sits.md)."""
    if payment.status != PaymentStatus.COMPLETED:
        return ZERO
    held_back = paid_out(payment) if paid_out_amount is None else paid_out_amount
    return max(ZERO, refundable(payment) - held_back)


def refund_limits(booking_ids) -> dict:
    """``refund_limit`` of many bookings' payments in two queries: booking id -> amount."""
    released = dict(
        Earning.objects.filter(payment__booking_id__in=booking_ids, payout__status=PayoutStatus.RELEASED).values_list(
            "payment_id", "amount"
        )
    )
    return {
        payment.booking_id: refund_limit(payment, paid_out_amount=released.get(payment.pk, ZERO))
        for payment in Payment.objects.filter(booking_id__in=booking_ids)
    }


def payment_refund(
    *, payment: Payment, amount: Decimal, source: str, reason: str = "", actor=None, exact: bool = False
) -> Refund | None:
    """The one way money goes back to a renter (cancellation policy or approved dispute).

    Part or all of what was paid, never more than is left: the refund is recorded at once (so a
    second refund cannot exceed the rest) and sent to the gateway by the worker, which issues the
    credit note and tells the renter. The limit is read under the locks of the money it depends on
    (``money_locked``), so a payout released meanwhile is either seen or waits. A policy refund is
    kept to what is left; an ``exact`` one (an amount staff chose) is refused when it no longer
    fits. Returns None when nothing is left to refund.
    """
    payment, payout, earning = money_locked(payment.pk)
    amount = Decimal(amount).quantize(Decimal("0.01"))
    limit = refund_limit(payment)
    if exact and amount > limit:
        raise Conflict(
            f"Only ${limit:,.2f} can still be refunded for this booking: the host was paid out meanwhile. "
            "Please refresh and try again."
        )
    amount = min(amount, limit)
    if amount <= ZERO:
        return None
    refund = _refund_open(payment, amount=amount, source=source, reason=reason, actor=actor)
    _count_refund(payment, payout, earning, amount, actor=actor, reason=reason)
    effect_enqueue("payments.refund", {"refund_id": str(refund.pk)}, key=f"refund:{refund.pk}")
    return refund


def money_locked(payment_id) -> tuple[Payment, Payout | None, Earning | None]:
    """A booking's payment, the payout its earning sits in and the earning, locked in the one order
    every path that moves a booking's money takes: payment, then payout, then earning (a release
    locks payout, then earnings; a payout request claims earnings by a conditional update), as
    ``docs/security.md`` records. While they are held, no payout containing this earning can be
    released or rejected and the earning cannot join one."""
    payment = payment_locked(payment_id)
    return payment, *_earning_locked(payment)


def _earning_locked(payment: Payment) -> tuple[Payout | None, Earning | None]:
    """The payout and earning of a payment the caller has locked, locked in that order."""
    for _attempt in range(3):
        payout_id = Earning.objects.filter(payment=payment).values_list("payout_id", flat=True).first()
        payout = Payout.objects.select_for_update().get(pk=payout_id) if payout_id is not None else None
        earning = Earning.objects.select_for_update().filter(payment=payment).first()
        if earning is None or earning.payout_id == payout_id:
            return payout, earning
        # The earning joined or left a payout between the two reads: the locks taken so far are
        # not the ones it needs; read again (held locks are kept until the transaction ends).
    raise Conflict("This booking's earning changed meanwhile. Please try again.")


def _refund_open(payment: Payment, *, amount: Decimal, source: str, reason: str, actor=None) -> Refund:
    refund = Refund.objects.create(
        payment=payment, amount=amount, source=source, reason=reason[:500], status=Refund.Status.PENDING
    )
    record(refund, machine=REFUND_MACHINE.name, from_status="", to_status=refund.status, actor=actor, reason=reason)
    return refund


def _count_refund(
    payment: Payment, payout: Payout | None, earning: Earning | None, amount: Decimal, *, actor=None, reason: str = ""
) -> None:
    """A refund lowers what is left on the payment and the host's earning wherever it sits: an
    unpaid one, or one in a payout waiting for the admin, which is recomputed (and rejected when
    nothing is left to pay). An earning already paid out is not touched: ``refund_limit`` kept the
    refund to what the platform still holds. The three are locked by the caller (``money_locked``)."""
    payment.refunded_amount += amount
    if payment.refunded_amount >= payment.captured_amount + payment.extended_amount:
        payment_set_status(payment, PaymentStatus.REFUNDED, fields=["refunded_amount"], actor=actor, reason=reason)
    else:
        payment.save(update_fields=["refunded_amount", "updated_at"])
    if earning is None or (payout is not None and payout.status == PayoutStatus.RELEASED):
        return  # not completed yet (no earning to lower), or already paid
    earning.refunded_amount = min(earning.gross_amount - earning.commission, earning.refunded_amount + amount)
    earning.amount = earning.gross_amount - earning.commission - earning.refunded_amount
    earning.save(update_fields=["refunded_amount", "amount"])
    if payout is not None and payout.status == PayoutStatus.ONHOLD:
        payout_recompute(payout=payout, actor=actor)


def refund_completed(refund: Refund, *, gateway_refund_id: str) -> Refund:
    """The gateway made the refund: remember its id, issue the credit note, tell the renter."""
    REFUND_MACHINE.transition(
        refund, Refund.Status.COMPLETED, reason="Refunded by the payment provider", gateway_refund_id=gateway_refund_id
    )
    payment = refund.payment
    invoice_issue(payment=payment, amount=refund.amount, refund=refund)
    _notify(
        payment.renter,
        "paymentRefunded",
        f"${refund.amount:,.2f} was refunded for your booking at {payment.listing.title}.",
        f"/booking-detail/{payment.booking_id}",
    )
    return refund


def _record_refund(payment: Payment, *, amount: Decimal, gateway_refund_id: str, source: str, reason: str) -> Refund:
    """A refund made at the gateway itself (its dashboard): recorded as done."""
    payout, earning = _earning_locked(payment)
    refund = _refund_open(payment, amount=amount, source=source, reason=reason)
    _count_refund(payment, payout, earning, amount, reason="Refunded at the payment provider")
    return refund_completed(refund, gateway_refund_id=gateway_refund_id)


def payment_captured(payment: Payment, *, amount: Decimal) -> Payment:
    """The gateway captured the held amount: the payment is completed, invoiced, both sides told."""
    payment.captured_amount = amount or payment.total_amount
    payment.captured_at = timezone.now()
    payment_set_status(payment, PaymentStatus.COMPLETED, fields=["captured_amount", "captured_at"])
    invoice_issue(payment=payment, amount=payment.captured_amount)
    link = f"/booking-detail/{payment.booking_id}"
    money = f"${payment.captured_amount:,.2f}"
    _notify(
        payment.renter, "paymentCaptured", f"{money} was charged for your booking at {payment.listing.title}.", link
    )
    _notify(payment.host, "paymentCaptured", f"{money} was paid for a booking at {payment.listing.title}.", link)
    if payment.booking.status == BookingStatus.COMPLETED:  # the booking ended before the capture was made
        earning_record(payment=payment)
    return payment


# --- Following the booking (subscribers.py calls this inside the booking's transaction) ---------


def booking_payment_follow(*, booking: Booking, from_status: str, to_status: str, actor=None) -> None:
    try:  # one payment per booking: get() builds no ORDER BY
        payment = Payment.objects.select_for_update(of=("self",)).get(booking_id=booking.pk)
    except Payment.DoesNotExist:
        return
    if captures(to_status):
        payment_capture(payment=payment)
    if to_status in (BookingStatus.REJECTED, BookingStatus.EXPIRED):
        payment_release(payment=payment, reason=f"Booking {to_status}")
    elif to_status == BookingStatus.CANCELLED:
        if payment.status != PaymentStatus.COMPLETED:
            payment_release(payment=payment, reason="Booking cancelled")
        elif from_status != BookingStatus.DISPUTED:
            # A disputed booking is cancelled after its dispute's refund (disputes.services): not twice.
            amount = refundable(payment) if booking.refund_amount is None else booking.refund_amount
            payment_refund(
                payment=payment,
                amount=amount,
                source=Refund.Source.CANCELLATION,
                reason="Booking cancelled",
                actor=actor,
            )
    elif to_status == BookingStatus.COMPLETED and payment.status == PaymentStatus.COMPLETED:
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
    payment = payment_locked(payment.pk)
    if payment.status != PaymentStatus.AUTHORIZED:
        return f"already {payment.status}"
    payment_captured(payment, amount=amount)
    return "captured"


@transaction.atomic
def payment_intent_failed(*, intent_id: str) -> str:
    payment = Payment.objects.filter(payment_id=intent_id).first()
    if payment is None:
        return "no booking payment for this intent"
    payment = payment_locked(payment.pk)
    if payment.status not in (PaymentStatus.PENDING, PaymentStatus.AUTHORIZED):
        return f"already {payment.status}"
    payment_set_status(payment, PaymentStatus.FAILED)
    return "failed"


@transaction.atomic
def payment_intent_released(*, intent_id: str) -> str:
    payment = Payment.objects.filter(payment_id=intent_id).first()
    if payment is None:
        return "no booking payment for this intent"
    payment = payment_locked(payment.pk)
    if payment.status != PaymentStatus.AUTHORIZED:
        return f"already {payment.status}"
    payment_set_status(payment, PaymentStatus.RELEASED)
    return "released"


@transaction.atomic
def payment_refunds_sync(*, intent_id: str, refunds: list[tuple[str, Decimal]], amount_refunded: Decimal) -> str:
    """Refunds seen at the provider (ours come back here too): each is recorded once, by its id."""
    payment = Payment.objects.filter(payment_id=intent_id).first()
    if payment is None:
        return "no booking payment for this intent"
    payment = payment_locked(payment.pk)
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
