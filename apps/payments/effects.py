"""The payment effects the worker carries out (queued by ``services`` and ``payouts`` in the
transaction of the change that causes them; see ``apps/core/effects.py``).

Each handler runs with the effect locked, in the transaction that marks it done: it locks the
record, does nothing if the work is already done, calls the gateway with the effect's key as
idempotency key (a call repeated after a crash is answered with the first call's result, so the
money moves once) and records the outcome.
"""

from apps.core.effects import effect_handler

from .gateway import AuthenticationRequired, GatewayError, gateway_named
from .models import PaymentStatus, Payout, PayoutStatus, Refund
from .services import payment_action_required, payment_captured, payment_locked, payment_set_status, refund_completed


@effect_handler("payments.capture")
def capture(*, payment_id: str, key: str) -> str:
    """Capture the hold; if it was already captured (a crash after the call), record that; if it
    lapsed, charge the card saved at checkout without the renter, and when the bank wants the
    renter to confirm, ask the renter to pay (``payment_action_required``)."""
    payment = payment_locked(payment_id)
    if payment.status != PaymentStatus.AUTHORIZED:
        return f"already {payment.status}"
    gateway = gateway_named(payment.gateway)
    state = gateway.intent_state(payment.payment_id)
    if state.status == "succeeded":
        amount = state.amount_received
    elif state.status == "requires_capture":
        amount = gateway.capture(payment.payment_id, idempotency_key=key)
    elif payment.payment_method_id and payment.customer_id:
        try:
            intent_id, amount = gateway.charge_saved_card(
                amount=payment.total_amount,
                customer_id=payment.customer_id,
                payment_method_id=payment.payment_method_id,
                description=f"Booking at {payment.listing.title}",
                metadata={"bookingId": str(payment.booking_id), "reference": str(payment.pk)},
                idempotency_key=f"{key}:saved-card",
            )
        except AuthenticationRequired:
            payment_action_required(payment)
            return "the renter must confirm the payment"
        payment.payment_id = intent_id
        payment.save(update_fields=["payment_id", "updated_at"])
    else:
        raise GatewayError(f"The card hold is {state.status or 'gone'} and no card was saved to charge.")
    payment_captured(payment, amount=amount)
    return "captured"


@effect_handler("payments.release")
def release(*, payment_id: str, key: str) -> str:
    payment = payment_locked(payment_id)
    if payment.status != PaymentStatus.AUTHORIZED:
        return f"already {payment.status}"
    gateway_named(payment.gateway).release(payment.payment_id, idempotency_key=key)
    payment_set_status(payment, PaymentStatus.RELEASED, reason="The hold was released.")
    return "released"


@effect_handler("payments.refund")
def refund(*, refund_id: str, key: str) -> str:
    record = Refund.objects.select_for_update().select_related("payment").get(pk=refund_id)
    if record.status == Refund.Status.COMPLETED:
        return "already refunded"
    payment = payment_locked(record.payment_id)  # a refund webhook for this payment waits until this commits
    gateway_id = gateway_named(payment.gateway).refund(
        payment.payment_id, record.amount, record.reason, idempotency_key=key
    )
    refund_completed(record, gateway_refund_id=gateway_id)
    return "refunded"


@effect_handler("payments.transfer")
def transfer(*, payout_id: str, destination: str, key: str) -> str:
    """Send a released payout to the host's connected account (once)."""
    payout = Payout.objects.select_for_update().get(pk=payout_id)
    if payout.transfer_id or payout.status != PayoutStatus.RELEASED:
        return "nothing to send"
    payout.transfer_id = gateway_named("stripe").transfer(
        amount=payout.amount,
        destination=destination,
        description=f"Payout {payout.pk}",
        metadata={"payoutId": str(payout.pk)},
        idempotency_key=key,
    )
    payout.save(update_fields=["transfer_id"])
    return "sent"
