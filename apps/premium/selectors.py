"""Who is premium now: one rule, as a Python answer and as a query expression."""

from django.db.models import Exists, OuterRef, QuerySet
from django.db.models.functions import Now
from django.utils import timezone

from .models import Subscription, SubscriptionStatus, SubscriptionType
from .policies import FREE_ACTIVE_LISTING_LIMIT


def premium_subscriptions(at=None) -> QuerySet[Subscription]:
    """The premium memberships active at ``at`` (the database's now when None): the one rule of
    "premium now"."""
    return Subscription.objects.filter(
        type=SubscriptionType.PREMIUM, status=SubscriptionStatus.ACTIVE, next_billing_date__gt=at or Now()
    )


def host_is_premium(host_id) -> bool:
    """True when the host (a host's id, not a subHost's) has an active premium membership now."""
    return premium_subscriptions(timezone.now()).filter(host_id=host_id).exists()


def premium_now(host_ref: str = "host_id") -> Exists:
    """An ``Exists`` expression, true when the host named by ``host_ref`` (an ``OuterRef`` path on
    the outer query) is premium now: the same rule as ``host_is_premium``, inside one SQL query."""
    return Exists(premium_subscriptions().filter(host_id=OuterRef(host_ref)))


def active_listing_limit(host_id) -> int | None:
    """How many listings the host may keep active: None means no limit."""
    return None if host_is_premium(host_id) else FREE_ACTIVE_LISTING_LIMIT
