"""Premium membership services: buying, confirming, renewing, cancelling, granting, expiring.

Every change of a membership's status goes through ``_set_status`` which checks the transition.
"""

import logging
import uuid
from datetime import datetime, timedelta
from decimal import Decimal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Role, User
from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotFound
from apps.core.mail import queue_templated_mail
from apps.core.statemachine import StateMachine
from apps.listings.services import listings_premium_soft_delete
from apps.notifications.services import notify

from .gateway import SESSION_PLACEHOLDER, gateway_named, get_gateway
from .models import (
    CheckoutPurpose,
    Plan,
    Subscription,
    SubscriptionPayment,
    SubscriptionPaymentStatus,
    SubscriptionSource,
    SubscriptionStatus,
    SubscriptionType,
)
from .policies import DELETION_WARNING_DAYS_BEFORE
from .premium import PREMIUM_LISTING_GRACE_DAYS, PREMIUM_TERMS, add_year

logger = logging.getLogger(__name__)

SUBSCRIPTION_MACHINE = StateMachine(
    "subscription",
    {
        SubscriptionStatus.ACTIVE: {SubscriptionStatus.CANCELLED, SubscriptionStatus.EXPIRED},
        SubscriptionStatus.CANCELLED: {SubscriptionStatus.ACTIVE},
        SubscriptionStatus.EXPIRED: {SubscriptionStatus.ACTIVE, SubscriptionStatus.CANCELLED},
    },
    label="membership",
)
TRANSITIONS = SUBSCRIPTION_MACHINE.table


def is_uuid(value) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def acting_host(user: User) -> User:
    """The host whose membership ``user`` manages (itself, or a subHost's host)."""
    if user.role == Role.HOST:
        return user
    if user.role == Role.SUB_HOST and user.host_id:
        return user.host
    raise Forbidden("Only hosts and their sub-hosts have a premium membership.")


def _notify(user, kind: str, content: str, link: str = "/dashboard") -> None:
    notify(user=user, kind=kind, content=content, link=link)


def _display_date(moment: datetime | None) -> str:
    if moment is None:
        return ""
    from zoneinfo import ZoneInfo

    return moment.astimezone(ZoneInfo(settings.DISPLAY_TIME_ZONE)).strftime("%d-%m-%Y")


def subscription_get_or_create(*, host: User, lock: bool = False) -> Subscription:
    subscription, _ = Subscription.objects.get_or_create(host=host)
    if lock:
        subscription = Subscription.objects.select_for_update().get(pk=subscription.pk)
    return subscription


def _set_status(subscription: Subscription, status: str, *, fields: list[str], actor=None, reason: str = "") -> None:
    """Every membership status change: checked against the table, saved with its history row (a
    membership that stays active, e.g. free to premium, only saves its fields)."""
    if subscription.status == status:
        subscription.save(update_fields=[*dict.fromkeys([*fields, "updated_at"])])
        return
    SUBSCRIPTION_MACHINE.transition(
        subscription,
        status,
        actor=actor,
        reason=reason,
        message=f"A {subscription.status} membership cannot become {status}.",
        **{name: getattr(subscription, name) for name in fields},
    )


# --- Redirect URLs -------------------------------------------------------------------------------


def _allowed_hosts() -> set[str]:
    hosts = {urlsplit(settings.SITE_URL).netloc}
    hosts.update(h for h in settings.ALLOWED_HOSTS if h and h != "*")
    hosts.update(urlsplit(origin).netloc for origin in settings.CSRF_TRUSTED_ORIGINS)
    return {h.lower() for h in hosts}


def checked_redirect_url(raw: str) -> str:
    """An absolute URL on this site built from ``raw`` (a path or a URL on one of our hosts)."""
    raw = (raw or "").strip()
    if not raw:
        return settings.SITE_URL + "/dashboard"
    parts = urlsplit(raw)
    if not parts.scheme and not parts.netloc and raw.startswith("/") and not raw.startswith("//"):
        return settings.SITE_URL + raw
    host = parts.netloc.rsplit("@", 1)[-1].lower()
    if parts.scheme in ("http", "https") and (host in _allowed_hosts() or host.split(":")[0] in _allowed_hosts()):
        return raw
    raise InvalidInput(
        "The return address must be a page of this site.",
        errors={"redirectUrl": ["The return address must be a page of this site."]},
    )


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
            f"Your premium membership is already active until {_display_date(subscription.next_billing_date)}."
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
    _set_status(
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
    record.status = SubscriptionPaymentStatus.COMPLETED
    record.completed_at = now
    record.period_start = subscription.start_date
    record.period_end = subscription.next_billing_date
    record.gateway_payment_id = result.invoice_id or result.payment_intent_id or ""
    record.save(update_fields=["status", "completed_at", "period_start", "period_end", "gateway_payment_id"])
    _mail_confirmation(subscription, record)
    _notify(
        subscription.host,
        "subscriptionPaid",
        f"Your premium membership is active until {_display_date(subscription.next_billing_date)}.",
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
            "start_date": _display_date(subscription.start_date),
            "next_billing_date": _display_date(subscription.next_billing_date),
            "terms": PREMIUM_TERMS,
            "site_url": settings.SITE_URL,
        },
    )


@transaction.atomic
def subscription_checkout_abandon(*, session_id: str) -> None:
    SubscriptionPayment.objects.filter(session_id=session_id, status=SubscriptionPaymentStatus.PENDING).update(
        status=SubscriptionPaymentStatus.CANCELLED
    )


# --- Cancelling, granting, expiring --------------------------------------------------------------


def subscription_get_for(*, user: User, id) -> Subscription:
    """A membership the caller may act on: its own host's, or any for an admin."""
    query = Subscription.objects.select_related("host", "plan")
    if user.role != Role.ADMIN:
        query = query.filter(host=acting_host(user))
    subscription = query.filter(pk=id).first() if is_uuid(id) else None
    if subscription is None:
        raise NotFound("This membership was not found.")
    return subscription


@transaction.atomic
def subscription_cancel(*, subscription: Subscription, by: User) -> Subscription:
    """End a premium membership now (non refundable) and start the premium listings' grace days."""
    subscription = Subscription.objects.select_for_update().select_related("host").get(pk=subscription.pk)
    if subscription.type != SubscriptionType.PREMIUM or subscription.status == SubscriptionStatus.CANCELLED:
        raise Conflict("There is no premium membership to cancel.")
    if subscription.subscription_source == SubscriptionSource.STRIPE and subscription.gateway_subscription_id:
        gateway_named("stripe").cancel_subscription(subscription.gateway_subscription_id)
    subscription.cancelled_at = timezone.now()
    _set_status(subscription, SubscriptionStatus.CANCELLED, fields=["cancelled_at"], actor=by, reason="Cancelled")
    deletion_date = _display_date(subscription.cancelled_at + timedelta(days=PREMIUM_LISTING_GRACE_DAYS))
    _mail_deletion_warning(subscription, days_left=PREMIUM_LISTING_GRACE_DAYS, deletion_date=deletion_date)
    _notify(
        subscription.host,
        "subscriptionCancelled",
        f"Your premium membership was cancelled. Your premium listings will be deleted on {deletion_date}.",
    )
    return subscription


def cancel_message(subscription: Subscription) -> str:
    deletion_date = _display_date(subscription.cancelled_at + timedelta(days=PREMIUM_LISTING_GRACE_DAYS))
    return (
        "Your premium membership has been cancelled. The amount paid is non refundable, "
        f"and your premium listings will be deleted on {deletion_date} ({PREMIUM_LISTING_GRACE_DAYS} days after cancellation)."
    )


def _mail_deletion_warning(subscription: Subscription, *, days_left: int, deletion_date: str) -> None:
    host = subscription.host
    queue_templated_mail(
        to=host.email,
        template="premium_listings_deletion",
        context={
            "name": host.first_name,
            "days_left": days_left,
            "deletion_date": deletion_date,
            "terms": PREMIUM_TERMS,
            "site_url": settings.SITE_URL,
        },
    )


@transaction.atomic
def subscription_grant(*, host: User, by: User, until: datetime | None = None) -> Subscription:
    """An admin gives a host premium (``subscriptionSource`` admin) until ``until`` (default a year)."""
    if by.role != Role.ADMIN:
        raise Forbidden("Only an admin can give a premium membership.")
    if host.role != Role.HOST or host.is_deleted:
        raise InvalidInput("Premium can only be given to a host.", errors={"hostId": ["Not a host."]})
    now = timezone.now()
    until = until or add_year(now)
    if until <= now:
        raise InvalidInput("The end date must be in the future.", errors={"nextBillingDate": ["Must be later."]})
    subscription = subscription_get_or_create(host=host, lock=True)
    if subscription.is_premium_now and subscription.subscription_source != SubscriptionSource.ADMIN:
        raise Conflict("This host already pays for a premium membership.")
    subscription.type = SubscriptionType.PREMIUM
    subscription.subscription_source = SubscriptionSource.ADMIN
    subscription.start_date = now
    subscription.next_billing_date = until
    subscription.cancelled_at = None
    subscription.expired_at = None
    subscription.deletion_warning_sent_at = None
    subscription.plan = Plan.objects.filter(is_active=True).first()
    _set_status(
        subscription,
        SubscriptionStatus.ACTIVE,
        fields=[
            "type",
            "subscription_source",
            "start_date",
            "next_billing_date",
            "cancelled_at",
            "expired_at",
            "deletion_warning_sent_at",
            "plan",
        ],
    )
    return subscription


@transaction.atomic
def subscription_expire(*, subscription_id, now: datetime | None = None) -> bool:
    """Expire one membership whose paid period ended without a renewal. Idempotent."""
    from .premium import STRIPE_RENEWAL_GRACE

    now = now or timezone.now()
    subscription = Subscription.objects.select_for_update().filter(pk=subscription_id).first()
    if subscription is None or subscription.type != SubscriptionType.PREMIUM:
        return False
    if subscription.status != SubscriptionStatus.ACTIVE:
        return False
    grace = STRIPE_RENEWAL_GRACE if subscription.subscription_source == SubscriptionSource.STRIPE else timedelta(0)
    if subscription.next_billing_date + grace > now:
        return False
    subscription.expired_at = now
    _set_status(subscription, SubscriptionStatus.EXPIRED, fields=["expired_at"])
    _notify(
        subscription.host,
        "subscriptionExpiring",
        "Your premium membership has expired. Renew it to keep your premium benefits.",
    )
    return True


def subscriptions_expire_due(*, now: datetime | None = None) -> int:
    now = now or timezone.now()
    due = Subscription.objects.filter(
        type=SubscriptionType.PREMIUM, status=SubscriptionStatus.ACTIVE, next_billing_date__lte=now
    ).values_list("pk", flat=True)
    return sum(subscription_expire(subscription_id=pk, now=now) for pk in list(due))


@transaction.atomic
def premium_listings_warn(*, subscription_id, now: datetime | None = None) -> bool:
    """The warning e-mail three days before a cancelled host's premium listings are deleted. Once."""
    now = now or timezone.now()
    subscription = Subscription.objects.select_for_update().select_related("host").filter(pk=subscription_id).first()
    if (
        subscription is None
        or subscription.status != SubscriptionStatus.CANCELLED
        or subscription.deletion_warning_sent_at is not None
        or subscription.premium_listings_deleted_at is not None
    ):
        return False
    deletion_at = subscription.cancelled_at + timedelta(days=PREMIUM_LISTING_GRACE_DAYS)
    if deletion_at - timedelta(days=DELETION_WARNING_DAYS_BEFORE) > now:
        return False
    subscription.deletion_warning_sent_at = now
    subscription.save(update_fields=["deletion_warning_sent_at", "updated_at"])
    days_left = max(1, (deletion_at - now).days + (1 if (deletion_at - now).seconds else 0))
    _mail_deletion_warning(subscription, days_left=days_left, deletion_date=_display_date(deletion_at))
    _notify(
        subscription.host,
        "subscriptionExpiring",
        f"Your premium listings will be deleted on {_display_date(deletion_at)}. Renew your membership to keep them.",
    )
    return True


def premium_listings_soft_delete(*, host_id, now: datetime | None = None) -> int:
    """Soft-delete a host's premium listings, through the listings app's service."""
    return listings_premium_soft_delete(host_id=host_id, now=now)


@transaction.atomic
def premium_listings_purge(*, subscription_id, now: datetime | None = None) -> int | None:
    """``PREMIUM_GRACE_DAYS`` after a cancellation, soft-delete the host's premium listings. Once."""
    now = now or timezone.now()
    subscription = Subscription.objects.select_for_update().filter(pk=subscription_id).first()
    if (
        subscription is None
        or subscription.status != SubscriptionStatus.CANCELLED
        or subscription.premium_listings_deleted_at is not None
        or subscription.cancelled_at + timedelta(days=PREMIUM_LISTING_GRACE_DAYS) > now
    ):
        return None
    count = premium_listings_soft_delete(host_id=subscription.host_id, now=now)
    subscription.premium_listings_deleted_at = now
    subscription.save(update_fields=["premium_listings_deleted_at", "updated_at"])
    return count


def premium_listings_due(*, now: datetime | None = None) -> tuple[int, int]:
    """Send due warnings and delete due listings; returns (warnings sent, memberships purged)."""
    now = now or timezone.now()
    cancelled = Subscription.objects.filter(
        status=SubscriptionStatus.CANCELLED, premium_listings_deleted_at__isnull=True
    )
    warn_before = now - timedelta(days=PREMIUM_LISTING_GRACE_DAYS - DELETION_WARNING_DAYS_BEFORE)
    warned = sum(
        premium_listings_warn(subscription_id=pk, now=now)
        for pk in list(
            cancelled.filter(cancelled_at__lte=warn_before, deletion_warning_sent_at__isnull=True).values_list(
                "pk", flat=True
            )
        )
    )
    purge_before = now - timedelta(days=PREMIUM_LISTING_GRACE_DAYS)
    purged = sum(
        premium_listings_purge(subscription_id=pk, now=now) is not None
        for pk in list(cancelled.filter(cancelled_at__lte=purge_before).values_list("pk", flat=True))
    )
    return warned, purged


# --- Gateway events ------------------------------------------------------------------------------


@transaction.atomic
def subscription_sync_from_gateway(
    *,
    gateway_subscription_id: str,
    event_created: datetime,
    gateway_status: str | None = None,
    period_end: datetime | None = None,
    invoice_id: str = "",
    invoice_amount: Decimal | None = None,
) -> str:
    """Apply a Stripe subscription or invoice event. Events older than the newest one applied
    are ignored, so out-of-order deliveries never undo a later state."""
    subscription = (
        Subscription.objects.select_for_update(of=("self",))
        .select_related("host", "plan")
        .filter(gateway_subscription_id=gateway_subscription_id)
        .first()
    )
    if subscription is None:
        return "unknown subscription"
    outcome = []
    if invoice_id and invoice_amount is not None and period_end is not None:
        # A renewal invoice: record the payment (once) and extend the membership.
        _record, created = SubscriptionPayment.objects.get_or_create(
            gateway_payment_id=invoice_id,
            defaults={
                "host": subscription.host,
                "subscription": subscription,
                "plan": subscription.plan or Plan.objects.filter(is_active=True).first(),
                "total_amount": invoice_amount,
                "status": SubscriptionPaymentStatus.COMPLETED,
                "gateway": "stripe",
                "period_start": subscription.next_billing_date,
                "period_end": period_end,
                "completed_at": timezone.now(),
            },
        )
        outcome.append("renewal recorded" if created else "renewal already recorded")
        if subscription.status != SubscriptionStatus.CANCELLED and (
            subscription.next_billing_date is None or period_end > subscription.next_billing_date
        ):
            subscription.next_billing_date = period_end
            subscription.expired_at = None
            _set_status(subscription, SubscriptionStatus.ACTIVE, fields=["next_billing_date", "expired_at"])
            if created:
                _notify(
                    subscription.host,
                    "subscriptionPaid",
                    f"Your premium membership was renewed until {_display_date(period_end)}.",
                )
        return ", ".join(outcome)

    if subscription.gateway_synced_at and event_created < subscription.gateway_synced_at:
        return "stale event ignored"
    subscription.gateway_synced_at = event_created
    subscription.save(update_fields=["gateway_synced_at", "updated_at"])
    if gateway_status == "canceled":
        if subscription.status != SubscriptionStatus.CANCELLED:
            subscription.cancelled_at = event_created
            _set_status(subscription, SubscriptionStatus.CANCELLED, fields=["cancelled_at"])
            deletion_date = _display_date(event_created + timedelta(days=PREMIUM_LISTING_GRACE_DAYS))
            _mail_deletion_warning(subscription, days_left=PREMIUM_LISTING_GRACE_DAYS, deletion_date=deletion_date)
            return "cancelled"
        return "already cancelled"
    extends = period_end is not None and (
        subscription.next_billing_date is None or period_end > subscription.next_billing_date
    )
    if gateway_status in ("active", "trialing") and extends and subscription.status != SubscriptionStatus.CANCELLED:
        subscription.next_billing_date = period_end
        subscription.expired_at = None
        _set_status(subscription, SubscriptionStatus.ACTIVE, fields=["next_billing_date", "expired_at"])
        return "period extended"
    return "no change"
