"""Buying premium: the plan, the checkout at the gateway and its confirmation."""

import logging
from decimal import Decimal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.core.exceptions import Conflict, InvalidInput, NotFound
from apps.core.filters import is_uuid
from apps.core.mail import queue_templated_mail
from apps.core.safe_urls import checked_return_url
from apps.core.statemachine import record as record_status
from apps.premium.models import Plan, Subscription, SubscriptionSource, SubscriptionStatus, SubscriptionType

from ..gateway import SESSION_PLACEHOLDER, gateway_named, get_gateway
from ..models import CheckoutPurpose, SubscriptionPayment, SubscriptionPaymentStatus
from ..premium import PREMIUM_TERMS, add_year
from .common import (
    SUBSCRIPTION_PAYMENT_MACHINE,
    acting_host,
    display_date,
    host_notify,
    subscription_get_or_create,
    subscription_set_status,
)

logger = logging.getLogger(__name__)

# --- Redirect URLs -------------------------------------------------------------------------------


def checked_redirect_url(raw: str) -> str:
    """An absolute URL on this site built from ``raw`` (a path or a URL of this site's origin):
    the one URL-safety check, ``apps.core.safe_urls``."""
    return checked_return_url(raw)


def with_query(url: str, **params: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in params]
    query += list(params.items())
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), parts.fragment))


# --- Buying --------------------------------------------------------------------------------------


def plan_get(*, plan_id: str) -> Plan:
    plan = Plan.objects.filter(plan_id=str(plan_id)[:60], is_active=True).first()
    if plan is None and is_uuid(plan_id):
        plan = Plan.objects.filter(pk=plan_id, is_active=True).first()
    if plan is None:
        raise NotFound("This plan does not exist.")
    return plan


@transaction.atomic
def subscription_checkout_start(
    *, user: User, plan_id: str, total_amount: Decimal, redirect_url: str
) -> tuple[str, SubscriptionPayment]:
    """Start paying for a plan; returns the checkout URL the browser goes to.

    The price comes from the plan; a ``total_amount`` that differs is refused (a stale page or
    a tampered request), so the client can never choose what it pays.
    """
    host = acting_host(user)
    plan = plan_get(plan_id=plan_id)
    if Decimal(total_amount) != plan.total_amount:
        message = f"The amount does not match the price of {plan.plan_name} (${plan.total_amount:.2f})."
        raise InvalidInput(message, errors={"totalAmount": [message]})
    success_base = checked_redirect_url(redirect_url)
    subscription = subscription_get_or_create(host=host, lock=True)
    if subscription.is_premium_now and subscription.subscription_source != SubscriptionSource.ADMIN:
        raise Conflict(
            f"Your premium membership is already active until {display_date(subscription.next_billing_date)}."
        )
    gateway = get_gateway()
    record = SubscriptionPayment.objects.create(
        host=host,
        subscription=subscription,
        plan=plan,
        paid_by=user,
        total_amount=plan.total_amount,
        gateway=gateway.name,
    )
    record_status(
        record, machine=SUBSCRIPTION_PAYMENT_MACHINE.name, from_status="", to_status=record.status, actor=user
    )
    success_url = (
        with_query(success_base, type="subscription", success="true", paymentId=str(record.id))
        + "&sessionId="
        + SESSION_PLACEHOLDER
    )
    cancel_url = with_query(success_base, type="subscription", success="false")
    session = gateway.create_checkout(
        purpose=CheckoutPurpose.SUBSCRIPTION,
        reference=str(record.id),
        amount=plan.total_amount,
        description=f"{plan.plan_name} (annual)",
        user=user,
        success_url=success_url,
        cancel_url=cancel_url,
        recurring_interval=plan.interval,
        terms=PREMIUM_TERMS,
        metadata={"hostId": str(host.pk)},
    )
    record.session_id = session.id
    record.save(update_fields=["session_id"])
    return session.url, record


@transaction.atomic
def subscription_checkout_confirm(
    *, session_id: str, payment_id: str | None = None, user: User | None = None
) -> SubscriptionPayment:
    """The checkout finished: make the host premium. Safe to call any number of times (the
    success page, the webhook and the local Pay button all end here)."""
    record = SubscriptionPayment.objects.select_for_update().filter(session_id=str(session_id)[:120]).first()
    if record is None or (user is not None and record.host_id != acting_host(user).pk):
        raise NotFound("This payment was not found.")
    if payment_id is not None and str(record.id) != str(payment_id):
        raise InvalidInput("The payment does not belong to this checkout.", errors={"paymentId": ["Does not match."]})
    if record.status == SubscriptionPaymentStatus.COMPLETED:
        return record
    if record.status != SubscriptionPaymentStatus.PENDING:
        raise Conflict("This payment can no longer be completed.")
    result = gateway_named(record.gateway).get_checkout(record.session_id)
    if not result.complete:
        raise Conflict("The payment has not been completed yet.")
    if result.amount_total != record.total_amount:
        logger.error(
            "Subscription checkout %s paid %s, expected %s", session_id, result.amount_total, record.total_amount
        )
        raise Conflict("The amount paid does not match the plan price; the payment was not applied.")

    now = timezone.now()
    subscription = Subscription.objects.select_for_update().get(pk=record.subscription_id)
    subscription.type = SubscriptionType.PREMIUM
    subscription.subscription_source = (
        SubscriptionSource.STRIPE if record.gateway == "stripe" else SubscriptionSource.LOCAL
    )
    subscription.plan = record.plan
    subscription.start_date = now
    subscription.next_billing_date = add_year(now)
    subscription.cancelled_at = None
    subscription.expired_at = None
    subscription.deletion_warning_sent_at = None
    subscription.gateway_subscription_id = result.subscription_id
    subscription.gateway_customer_id = result.customer_id
    subscription_set_status(
        subscription,
        SubscriptionStatus.ACTIVE,
        fields=[
            "type",
            "subscription_source",
            "plan",
            "start_date",
            "next_billing_date",
            "cancelled_at",
            "expired_at",
            "deletion_warning_sent_at",
            "gateway_subscription_id",
            "gateway_customer_id",
        ],
    )
    SUBSCRIPTION_PAYMENT_MACHINE.transition(
        record,
        SubscriptionPaymentStatus.COMPLETED,
        actor=user,
        reason="Checkout paid",
        completed_at=now,
        period_start=subscription.start_date,
        period_end=subscription.next_billing_date,
        gateway_payment_id=result.invoice_id or result.payment_intent_id or "",
    )
    _mail_confirmation(subscription, record)
    host_notify(
        subscription.host,
        "subscriptionPaid",
        f"Your premium membership is active until {display_date(subscription.next_billing_date)}.",
    )
    return record


def _mail_confirmation(subscription: Subscription, record: SubscriptionPayment) -> None:
    host = subscription.host
    queue_templated_mail(
        to=host.email,
        template="premium_confirmed",
        context={
            "name": host.first_name,
            "plan_name": record.plan.plan_name,
            "amount": f"${record.total_amount:,.2f}",
            "start_date": display_date(subscription.start_date),
            "next_billing_date": display_date(subscription.next_billing_date),
            "terms": PREMIUM_TERMS,
            "site_url": settings.SITE_URL,
        },
    )


@transaction.atomic
def subscription_checkout_abandon(*, session_id: str) -> None:
    pending = SubscriptionPayment.objects.select_for_update().filter(
        session_id=session_id, status=SubscriptionPaymentStatus.PENDING
    )
    for payment in pending:
        SUBSCRIPTION_PAYMENT_MACHINE.transition(
            payment, SubscriptionPaymentStatus.CANCELLED, reason="Checkout abandoned"
        )
