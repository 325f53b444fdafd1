# Over 450 lines: one interface beside its two implementations (Stripe and local), so they stay in step.
"""The payment gateway: one interface, two implementations.

- ``StripeGateway`` talks to Stripe through the official SDK (Checkout for card payments and the
  annual premium plan, manual capture for bookings, refunds, Connect transfers for payouts).
- ``LocalGateway`` needs no keys: its checkout is a page on this site with Pay and Cancel buttons
  (``apps/payments/pages.py``) that returns through the same success and cancel paths.

``get_gateway()`` picks Stripe when ``STRIPE_SECRET_KEY`` is set, the local one when
``PAYMENT_GATEWAY`` is ``local`` (never by default in production), and refuses otherwise. A record
remembers which gateway it was made with, and ``gateway_named(name)`` gives that one back.
Success URLs may contain ``{CHECKOUT_SESSION_ID}``; both gateways replace it with the session id.
"""

import logging
import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from apps.core.exceptions import DomainError

logger = logging.getLogger(__name__)

SESSION_PLACEHOLDER = "{CHECKOUT_SESSION_ID}"
CURRENCY = "usd"


class GatewayError(DomainError):
    """The payment provider refused or could not be reached; nothing was changed on our side."""

    status_code = 502
    default_message = "The payment provider could not complete this request. Please try again in a moment."


class AuthenticationRequired(GatewayError):
    """The bank wants the cardholder to confirm an off-session charge (3-D Secure): the renter must pay."""

    status_code = 402
    default_message = "Your bank asks you to confirm this payment."


@dataclass(frozen=True)
class IntentState:
    """Where a payment intent stands: requires_capture (held), succeeded (charged), canceled (a
    hold that lapsed or was released), or another of the provider's states."""

    status: str
    amount_received: Decimal = Decimal("0.00")


@dataclass(frozen=True)
class CheckoutSession:
    id: str
    url: str


@dataclass(frozen=True)
class CheckoutResult:
    """What a finished (or unfinished) checkout session says."""

    id: str
    complete: bool
    amount_total: Decimal
    payment_intent_id: str = ""
    payment_method_id: str = ""
    subscription_id: str = ""
    customer_id: str = ""
    invoice_id: str = ""
    metadata: dict = field(default_factory=dict)


def to_cents(amount: Decimal) -> int:
    return int((Decimal(amount) * 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def from_cents(cents: int | None) -> Decimal:
    return (Decimal(cents or 0) / 100).quantize(Decimal("0.01"))


class PaymentGateway(ABC):
    name: str

    @abstractmethod
    def create_checkout(
        self,
        *,
        purpose: str,
        reference: str,
        amount: Decimal,
        description: str,
        user,
        success_url: str,
        cancel_url: str,
        capture_later: bool = False,
        save_card: bool = False,
        recurring_interval: str | None = None,
        terms: str = "",
        metadata: dict | None = None,
    ) -> CheckoutSession:
        """Start a checkout. ``capture_later`` only authorises the card (captured on approval);
        ``save_card`` also keeps the card for a charge without the customer (off-session) should
        the hold lapse first; ``recurring_interval`` makes it a subscription billed every interval."""

    def open_checkout_url(self, session_id: str) -> str | None:
        """The address of a checkout that can still be paid, or None once it is paid, expired or
        cancelled (so a second checkout for the same thing reuses the first)."""
        return None

    @abstractmethod
    def intent_state(self, intent_id: str) -> IntentState: ...

    @abstractmethod
    def charge_saved_card(
        self,
        *,
        amount: Decimal,
        customer_id: str,
        payment_method_id: str,
        description: str,
        metadata: dict,
        idempotency_key: str | None = None,
    ) -> tuple[str, Decimal]:
        """Charge a saved card without the customer; returns (intent id, amount). Raises
        ``AuthenticationRequired`` when the bank wants the customer to confirm."""

    @abstractmethod
    def get_checkout(self, session_id: str) -> CheckoutResult: ...

    # Calls that move money take ``idempotency_key``: the same key repeated (a retry after a crash)
    # is answered with the first call's result instead of moving the money again.

    @abstractmethod
    def capture(self, intent_id: str, amount: Decimal | None = None, *, idempotency_key: str | None = None) -> Decimal:
        """Capture an authorised payment (all of it, or ``amount``); returns the amount captured."""

    @abstractmethod
    def release(self, intent_id: str, *, idempotency_key: str | None = None) -> None:
        """Release an authorisation that will not be captured."""

    @abstractmethod
    def refund(self, intent_id: str, amount: Decimal, reason: str = "", *, idempotency_key: str | None = None) -> str:
        """Refund part or all of a captured payment; returns the refund id."""

    @abstractmethod
    def cancel_subscription(self, subscription_id: str) -> None: ...

    @abstractmethod
    def transfer(
        self, *, amount: Decimal, destination: str, description: str, metadata: dict, idempotency_key: str | None = None
    ) -> str:
        """Send money to a host's connected account; returns the transfer id."""


# --- Stripe --------------------------------------------------------------------------------------


class StripeGateway(PaymentGateway):
    name = "stripe"

    def __init__(self, api_key: str | None = None, api_base: str | None = None) -> None:
        import stripe

        self._stripe = stripe
        base = api_base if api_base is not None else settings.STRIPE_API_BASE
        self.client = stripe.StripeClient(
            api_key or settings.STRIPE_SECRET_KEY,
            base_addresses={"api": base} if base else None,
            max_network_retries=1,
        )

    def _call(self, fn, *args, **kwargs):
        try:
            result = fn(*args, **kwargs)
            return result.to_dict() if hasattr(result, "to_dict") else result
        except self._stripe.CardError as exc:
            raise GatewayError(exc.user_message or "The card was declined.", status_code=402) from exc
        except self._stripe.StripeError as exc:
            logger.warning("Stripe refused %s: %s", getattr(fn, "__qualname__", fn), exc)
            raise GatewayError() from exc

    def create_checkout(
        self,
        *,
        purpose,
        reference,
        amount,
        description,
        user,
        success_url,
        cancel_url,
        capture_later=False,
        save_card=False,
        recurring_interval=None,
        terms="",
        metadata=None,
    ) -> CheckoutSession:
        meta = {"purpose": purpose, "reference": reference, **(metadata or {})}
        price_data: dict = {
            "currency": CURRENCY,
            "unit_amount": to_cents(amount),
            "product_data": {"name": description[:250]},
        }
        params: dict = {
            "success_url": success_url,
            "cancel_url": cancel_url,
            "client_reference_id": reference,
            "customer_email": user.email,
            "metadata": meta,
            "line_items": [{"quantity": 1, "price_data": price_data}],
        }
        if terms:
            params["custom_text"] = {"submit": {"message": terms[:1200]}}
        if recurring_interval:
            price_data["recurring"] = {"interval": recurring_interval}
            params["mode"] = "subscription"
            params["subscription_data"] = {"metadata": meta}
        else:
            params["mode"] = "payment"
            params["payment_intent_data"] = {
                "capture_method": "manual" if capture_later else "automatic",
                "metadata": meta,
            }
            if save_card:
                params["payment_intent_data"]["setup_future_usage"] = "off_session"
                params["customer_creation"] = "always"
        session = self._call(self.client.v1.checkout.sessions.create, params=params)
        return CheckoutSession(id=session["id"], url=session["url"])

    def open_checkout_url(self, session_id: str) -> str | None:
        session = self._call(self.client.v1.checkout.sessions.retrieve, session_id)
        return session.get("url") if session.get("status") == "open" else None

    def get_checkout(self, session_id: str) -> CheckoutResult:
        session = self._call(self.client.v1.checkout.sessions.retrieve, session_id)
        intent_id = _id_of(session.get("payment_intent"))
        complete = session.get("status") == "complete"
        payment_method_id = ""
        if complete and session.get("mode") == "payment" and session.get("payment_status") != "paid":
            # A manual-capture session completes with the card authorised, not paid.
            intent = self._call(self.client.v1.payment_intents.retrieve, intent_id) if intent_id else None
            complete = bool(intent and intent.get("status") in ("requires_capture", "succeeded"))
            payment_method_id = _id_of(intent.get("payment_method")) if intent else ""
        elif complete and session.get("mode") == "subscription":
            complete = session.get("payment_status") in ("paid", "no_payment_required")
        return CheckoutResult(
            id=session["id"],
            complete=complete,
            amount_total=from_cents(session.get("amount_total")),
            payment_intent_id=intent_id,
            payment_method_id=payment_method_id,
            subscription_id=_id_of(session.get("subscription")),
            customer_id=_id_of(session.get("customer")),
            invoice_id=_id_of(session.get("invoice")),
            metadata=dict(session.get("metadata") or {}),
        )

    def capture(self, intent_id: str, amount: Decimal | None = None, *, idempotency_key: str | None = None) -> Decimal:
        params = {"amount_to_capture": to_cents(amount)} if amount is not None else {}
        intent = self._call(
            self.client.v1.payment_intents.capture, intent_id, params=params, options=_options(idempotency_key)
        )
        return from_cents(intent.get("amount_received"))

    def intent_state(self, intent_id: str) -> IntentState:
        intent = self._call(self.client.v1.payment_intents.retrieve, intent_id)
        return IntentState(status=intent.get("status", ""), amount_received=from_cents(intent.get("amount_received")))

    def charge_saved_card(
        self, *, amount, customer_id, payment_method_id, description, metadata, idempotency_key=None
    ) -> tuple[str, Decimal]:
        params = {
            "amount": to_cents(amount),
            "currency": CURRENCY,
            "customer": customer_id,
            "payment_method": payment_method_id,
            "off_session": True,
            "confirm": True,
            "description": description[:300],
            "metadata": metadata,
        }
        try:
            intent = self.client.v1.payment_intents.create(params=params, options=_options(idempotency_key)).to_dict()
        except self._stripe.CardError as exc:
            if exc.code == "authentication_required":
                raise AuthenticationRequired() from exc
            raise GatewayError(exc.user_message or "The card was declined.", status_code=402) from exc
        except self._stripe.StripeError as exc:
            logger.warning("Stripe refused an off-session charge: %s", exc)
            raise GatewayError() from exc
        return intent["id"], from_cents(intent.get("amount_received"))

    def release(self, intent_id: str, *, idempotency_key: str | None = None) -> None:
        intent = self._call(self.client.v1.payment_intents.retrieve, intent_id)
        if intent.get("status") in ("canceled", "succeeded"):
            return
        self._call(self.client.v1.payment_intents.cancel, intent_id, options=_options(idempotency_key))

    def refund(self, intent_id: str, amount: Decimal, reason: str = "", *, idempotency_key: str | None = None) -> str:
        params = {"payment_intent": intent_id, "amount": to_cents(amount), "metadata": {"reason": reason[:400]}}
        refund = self._call(self.client.v1.refunds.create, params=params, options=_options(idempotency_key))
        return refund["id"]

    def cancel_subscription(self, subscription_id: str) -> None:
        subscription = self._call(self.client.v1.subscriptions.retrieve, subscription_id)
        if subscription.get("status") == "canceled":
            return
        self._call(self.client.v1.subscriptions.cancel, subscription_id)

    def transfer(
        self, *, amount: Decimal, destination: str, description: str, metadata: dict, idempotency_key: str | None = None
    ) -> str:
        params = {
            "amount": to_cents(amount),
            "currency": CURRENCY,
            "destination": destination,
            "description": description[:300],
            "metadata": metadata,
        }
        transfer = self._call(self.client.v1.transfers.create, params=params, options=_options(idempotency_key))
        return transfer["id"]


def _options(idempotency_key: str | None) -> dict:
    return {"idempotency_key": idempotency_key[:255]} if idempotency_key else {}


def _id_of(value) -> str:
    if not value:
        return ""
    if isinstance(value, str):
        return value
    return value.get("id", "")


# --- Local ---------------------------------------------------------------------------------------


def _local_id(prefix: str) -> str:
    return f"{prefix}_local_{secrets.token_hex(12)}"


class LocalGateway(PaymentGateway):
    """Records everything on our side; the checkout page is ``/checkout/<session id>``."""

    name = "local"

    def create_checkout(
        self,
        *,
        purpose,
        reference,
        amount,
        description,
        user,
        success_url,
        cancel_url,
        capture_later=False,
        save_card=False,
        recurring_interval=None,
        terms="",
        metadata=None,
    ) -> CheckoutSession:
        from .models import LocalCheckoutSession

        session_id = _local_id("cs")
        LocalCheckoutSession.objects.create(
            id=session_id,
            purpose=purpose,
            reference=reference,
            amount=amount,
            description=description[:300],
            terms=terms,
            customer_email=user.email,
            user=user,
            capture_later=capture_later,
            success_url=success_url.replace(SESSION_PLACEHOLDER, session_id),
            cancel_url=cancel_url.replace(SESSION_PLACEHOLDER, session_id),
        )
        return CheckoutSession(id=session_id, url=settings.SITE_URL + reverse("local-checkout", args=[session_id]))

    def open_checkout_url(self, session_id: str) -> str | None:
        from .models import LocalCheckoutSession

        if LocalCheckoutSession.objects.filter(id=session_id, status=LocalCheckoutSession.Status.OPEN).exists():
            return settings.SITE_URL + reverse("local-checkout", args=[session_id])
        return None

    def get_checkout(self, session_id: str) -> CheckoutResult:
        from .models import LocalCheckoutSession

        session = LocalCheckoutSession.objects.filter(id=session_id).first()
        if session is None:
            raise GatewayError("This checkout session does not exist.", status_code=404)
        return CheckoutResult(
            id=session.id,
            complete=session.status == LocalCheckoutSession.Status.COMPLETE,
            amount_total=session.amount,
            payment_intent_id=session.payment_intent_id,
            subscription_id=session.subscription_id,
            metadata={"purpose": session.purpose, "reference": session.reference},
        )

    def pay(self, session_id: str):
        """The Pay button: completes the session once (a second press changes nothing)."""
        from .models import LocalCheckoutSession

        session = LocalCheckoutSession.objects.select_for_update().get(id=session_id)
        if session.status == LocalCheckoutSession.Status.OPEN:
            session.status = LocalCheckoutSession.Status.COMPLETE
            session.completed_at = timezone.now()
            session.payment_intent_id = _local_id("pi")
            if session.purpose == "subscription":
                session.subscription_id = _local_id("sub")
            session.save(update_fields=["status", "completed_at", "payment_intent_id", "subscription_id"])
        return session

    def capture(self, intent_id: str, amount: Decimal | None = None, *, idempotency_key: str | None = None) -> Decimal:
        from .models import LocalCheckoutSession

        if amount is not None:
            return amount
        session = LocalCheckoutSession.objects.filter(payment_intent_id=intent_id).first()
        return session.amount if session else Decimal("0.00")

    def intent_state(self, intent_id: str) -> IntentState:
        return IntentState(status="requires_capture")  # a local hold never lapses

    def charge_saved_card(
        self, *, amount, customer_id, payment_method_id, description, metadata, idempotency_key=None
    ) -> tuple[str, Decimal]:
        return _local_id("pi"), amount

    def release(self, intent_id: str, *, idempotency_key: str | None = None) -> None:
        return None

    def refund(self, intent_id: str, amount: Decimal, reason: str = "", *, idempotency_key: str | None = None) -> str:
        return _local_id("re")

    def cancel_subscription(self, subscription_id: str) -> None:
        return None

    def transfer(
        self, *, amount: Decimal, destination: str, description: str, metadata: dict, idempotency_key: str | None = None
    ) -> str:
        return _local_id("tr")


def local_checkout_enabled() -> bool:
    """The local checkout takes payments only where ``PAYMENT_GATEWAY`` names it (development,
    tests, a demo) and no Stripe key is set; in production it must be asked for explicitly."""
    return LocalGateway.name == settings.PAYMENT_GATEWAY and not settings.STRIPE_SECRET_KEY


def get_gateway() -> PaymentGateway:
    """The gateway new payments use: Stripe with a secret key, the local checkout where enabled.

    Without either, no checkout starts (never a free one)."""
    if settings.STRIPE_SECRET_KEY:
        return StripeGateway()
    if local_checkout_enabled():
        return LocalGateway()
    raise GatewayError("Payments are not available right now. Please try again later.", status_code=503)


def gateway_named(name: str) -> PaymentGateway:
    """The gateway an existing record was made with."""
    if name == StripeGateway.name:
        return StripeGateway()
    return LocalGateway()
