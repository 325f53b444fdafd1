"""A membership's life after buying: cancelling, granting, expiring, and the premium listings'
grace days after a cancellation.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Role, User
from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotFound
from apps.core.filters import is_uuid
from apps.core.mail import queue_templated_mail
from apps.listings.services.lifecycle import listings_premium_soft_delete
from apps.premium.models import Plan, Subscription, SubscriptionSource, SubscriptionStatus, SubscriptionType
from apps.premium.policies import (
    DELETION_WARNING_DAYS_BEFORE,
    PREMIUM_GRACE_DAYS,
    cancelled_before_deletion,
    deletion_at,
)

from ..gateway import gateway_named
from ..premium import PREMIUM_TERMS, STRIPE_RENEWAL_GRACE, add_year
from .common import acting_host, display_date, host_notify, subscription_get_or_create, subscription_set_status

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
    subscription_set_status(
        subscription, SubscriptionStatus.CANCELLED, fields=["cancelled_at"], actor=by, reason="Cancelled"
    )
    deletion_date = display_date(deletion_at(subscription.cancelled_at))
    mail_deletion_warning(subscription, days_left=PREMIUM_GRACE_DAYS, deletion_date=deletion_date)
    host_notify(
        subscription.host,
        "subscriptionCancelled",
        f"Your premium membership was cancelled. Your premium listings will be deleted on {deletion_date}.",
    )
    return subscription


def cancel_message(subscription: Subscription) -> str:
    deletion_date = display_date(deletion_at(subscription.cancelled_at))
    return (
        "Your premium membership has been cancelled. The amount paid is non refundable, "
        f"and your premium listings will be deleted on {deletion_date} ({PREMIUM_GRACE_DAYS} days after cancellation)."
    )


def mail_deletion_warning(subscription: Subscription, *, days_left: int, deletion_date: str) -> None:
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
    subscription_set_status(
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
    subscription_set_status(subscription, SubscriptionStatus.EXPIRED, fields=["expired_at"])
    host_notify(
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
    deletes_at = deletion_at(subscription.cancelled_at)
    if deletes_at - timedelta(days=DELETION_WARNING_DAYS_BEFORE) > now:
        return False
    subscription.deletion_warning_sent_at = now
    subscription.save(update_fields=["deletion_warning_sent_at", "updated_at"])
    days_left = max(1, (deletes_at - now).days + (1 if (deletes_at - now).seconds else 0))
    mail_deletion_warning(subscription, days_left=days_left, deletion_date=display_date(deletes_at))
    host_notify(
        subscription.host,
        "subscriptionExpiring",
        f"Your premium listings will be deleted on {display_date(deletes_at)}. Renew your membership to keep them.",
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
        or deletion_at(subscription.cancelled_at) > now
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
    warn_before = cancelled_before_deletion(now + timedelta(days=DELETION_WARNING_DAYS_BEFORE))
    warned = sum(
        premium_listings_warn(subscription_id=pk, now=now)
        for pk in list(
            cancelled.filter(cancelled_at__lte=warn_before, deletion_warning_sent_at__isnull=True).values_list(
                "pk", flat=True
            )
        )
    )
    purge_before = cancelled_before_deletion(now)
    purged = sum(
        premium_listings_purge(subscription_id=pk, now=now) is not None
        for pk in list(cancelled.filter(cancelled_at__lte=purge_before).values_list("pk", flat=True))
    )
    return warned, purged
