"""Stripe webhooks: verify the signature, store each event by id, apply it once.

Handlers only move records forward (authorised to captured, never back; refunds by their own
ids; subscriptions by the newest event time), so a duplicate or late delivery changes nothing.
"""

import logging
from collections.abc import Callable
from datetime import UTC, datetime

import stripe
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.core.exceptions import DomainError, InvalidInput

from . import subscriptions
from .gateway import from_cents
from .models import WebhookEvent

logger = logging.getLogger(__name__)

Handler = Callable[[dict, datetime], str]
HANDLERS: dict[str, Handler] = {}


def handles(*types: str):
    def register(fn: Handler) -> Handler:
        for name in types:
            HANDLERS[name] = fn
        return fn

    return register


def _ts(value) -> datetime | None:
    return datetime.fromtimestamp(int(value), tz=UTC) if value else None


def webhook_receive(*, payload: bytes, signature: str | None) -> tuple[WebhookEvent, bool]:
    """Verify and apply one delivery. Returns the stored event and whether this delivery applied it."""
    secret = settings.STRIPE_WEBHOOK_SECRET
    if not secret:
        raise InvalidInput("Payment webhooks are not configured on this site.")
    try:
        event = stripe.Webhook.construct_event(payload, signature or "", secret)
    except ValueError:
        raise InvalidInput("The webhook body is not valid JSON.") from None
    except stripe.SignatureVerificationError:
        raise InvalidInput("The webhook signature is not valid.") from None
    data = event.to_dict()
    return webhook_apply(event_id=data["id"], type=data["type"], created=_ts(data["created"]), payload=data)


@transaction.atomic
def webhook_apply(*, event_id: str, type: str, created: datetime, payload: dict) -> tuple[WebhookEvent, bool]:
    WebhookEvent.objects.get_or_create(id=event_id, defaults={"type": type, "created": created, "payload": payload})
    stored = WebhookEvent.objects.select_for_update().get(id=event_id)
    if stored.processed_at is not None:
        return stored, False
    handler = HANDLERS.get(type)
    obj = (payload.get("data") or {}).get("object") or {}
    if handler is None:
        outcome = "ignored: not a handled event type"
    else:
        try:
            with transaction.atomic():
                outcome = handler(obj, created)
        except DomainError as exc:
            outcome = f"refused: {exc.message}"
            logger.warning("Webhook %s (%s) refused: %s", event_id, type, exc.message)
    stored.processed_at = timezone.now()
    stored.outcome = outcome[:300]
    stored.save(update_fields=["processed_at", "outcome"])
    return stored, True


# --- Checkout ------------------------------------------------------------------------------------


@handles("checkout.session.completed", "checkout.session.async_payment_succeeded")
def _checkout_completed(obj: dict, created: datetime) -> str:
    purpose = (obj.get("metadata") or {}).get("purpose")
    if purpose == "subscription":
        subscriptions.subscription_checkout_confirm(session_id=obj["id"])
        return "membership activated"
    if purpose in ("booking", "extension"):
        from .services import payment_checkout_confirm

        payment_checkout_confirm(session_id=obj["id"])
        return f"{purpose} payment confirmed"
    return "ignored: unknown checkout purpose"


@handles("checkout.session.expired")
def _checkout_expired(obj: dict, created: datetime) -> str:
    purpose = (obj.get("metadata") or {}).get("purpose")
    if purpose == "subscription":
        subscriptions.subscription_checkout_abandon(session_id=obj["id"])
        return "membership checkout abandoned"
    if purpose in ("booking", "extension"):
        from .services import payment_checkout_abandon

        payment_checkout_abandon(session_id=obj["id"])
        return f"{purpose} checkout abandoned"
    return "ignored"


# --- Booking payments ----------------------------------------------------------------------------


@handles("payment_intent.succeeded")
def _intent_succeeded(obj: dict, created: datetime) -> str:
    from .services import payment_intent_captured

    return payment_intent_captured(intent_id=obj["id"], amount=from_cents(obj.get("amount_received")))


@handles("payment_intent.payment_failed")
def _intent_failed(obj: dict, created: datetime) -> str:
    from .services import payment_intent_failed

    return payment_intent_failed(intent_id=obj["id"])


@handles("payment_intent.canceled")
def _intent_canceled(obj: dict, created: datetime) -> str:
    from .services import payment_intent_released

    return payment_intent_released(intent_id=obj["id"])


@handles("charge.refunded")
def _charge_refunded(obj: dict, created: datetime) -> str:
    from .services import payment_refunds_sync

    intent_id = obj.get("payment_intent") or ""
    refunds = [
        (refund["id"], from_cents(refund.get("amount")))
        for refund in ((obj.get("refunds") or {}).get("data") or [])
        if refund.get("status") in (None, "succeeded", "pending")
    ]
    return payment_refunds_sync(
        intent_id=intent_id if isinstance(intent_id, str) else intent_id.get("id", ""),
        refunds=refunds,
        amount_refunded=from_cents(obj.get("amount_refunded")),
    )


# --- Premium membership --------------------------------------------------------------------------


def _subscription_period_end(obj: dict) -> datetime | None:
    end = obj.get("current_period_end")
    if not end:
        items = (obj.get("items") or {}).get("data") or []
        end = max((item.get("current_period_end") or 0 for item in items), default=0)
    return _ts(end)


@handles("customer.subscription.updated", "customer.subscription.created")
def _subscription_updated(obj: dict, created: datetime) -> str:
    return subscriptions.subscription_sync_from_gateway(
        gateway_subscription_id=obj["id"],
        event_created=created,
        gateway_status=obj.get("status"),
        period_end=_subscription_period_end(obj),
    )


@handles("customer.subscription.deleted")
def _subscription_deleted(obj: dict, created: datetime) -> str:
    return subscriptions.subscription_sync_from_gateway(
        gateway_subscription_id=obj["id"], event_created=created, gateway_status="canceled"
    )


def _invoice_subscription_id(obj: dict) -> str:
    sub = obj.get("subscription")
    if not sub:
        parent = obj.get("parent") or {}
        sub = (parent.get("subscription_details") or {}).get("subscription")
    if isinstance(sub, dict):
        sub = sub.get("id")
    return sub or ""


@handles("invoice.paid")
def _invoice_paid(obj: dict, created: datetime) -> str:
    subscription_id = _invoice_subscription_id(obj)
    if not subscription_id:
        return "ignored: not a subscription invoice"
    if obj.get("billing_reason") == "subscription_create":
        return "first invoice: applied by the checkout"
    lines = (obj.get("lines") or {}).get("data") or []
    period_end = _ts(max(((line.get("period") or {}).get("end") or 0 for line in lines), default=0))
    if period_end is None:
        period_end = _ts(obj.get("period_end"))
    return subscriptions.subscription_sync_from_gateway(
        gateway_subscription_id=subscription_id,
        event_created=created,
        period_end=period_end,
        invoice_id=obj["id"],
        invoice_amount=from_cents(obj.get("amount_paid")),
    )
