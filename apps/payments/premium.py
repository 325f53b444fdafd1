"""What the premium membership gives, in one place, for other apps to ask.

- A premium host may keep any number of listings active (a free host: ``FREE_ACTIVE_LISTING_LIMIT``).
- A premium host may mark listings as premium (``Listing.is_premium``): a *premium listing* is
  shown first in public search ("featured") with a Premium badge, as long as its host's
  membership is premium now.
- The host's profile and listings carry a premium badge.

Cancelling ends the membership at once (the annual amount is non refundable) and the host's
premium listings are soft-deleted ``PREMIUM_LISTING_GRACE_DAYS`` after the cancellation unless the
host buys the membership again before then.
"""

from datetime import datetime, timedelta

from django.utils import timezone

from .policies import PREMIUM_GRACE_DAYS, premium_terms

FREE_ACTIVE_LISTING_LIMIT = 3
PREMIUM_LISTING_GRACE_DAYS = PREMIUM_GRACE_DAYS
STRIPE_RENEWAL_GRACE = timedelta(days=2)

PREMIUM_TERMS = premium_terms()


def add_year(moment: datetime) -> datetime:
    """The same instant one year later (29 February becomes 28 February)."""
    try:
        return moment.replace(year=moment.year + 1)
    except ValueError:
        return moment.replace(year=moment.year + 1, day=28)


def host_is_premium(host_id) -> bool:
    """True when the host (a host's id, not a subHost's) has an active premium membership now."""
    from .models import Subscription, SubscriptionStatus, SubscriptionType

    return Subscription.objects.filter(
        host_id=host_id,
        type=SubscriptionType.PREMIUM,
        status=SubscriptionStatus.ACTIVE,
        next_billing_date__gt=timezone.now(),
    ).exists()


def premium_now(host_ref: str = "host_id"):
    """An ``Exists`` expression, true when the host named by ``host_ref`` (an ``OuterRef`` path on
    the outer query) is premium now: the same rule as ``host_is_premium``, inside one SQL query."""
    from django.db.models import Exists, OuterRef
    from django.db.models.functions import Now

    from .models import Subscription, SubscriptionStatus, SubscriptionType

    return Exists(
        Subscription.objects.filter(
            host_id=OuterRef(host_ref),
            type=SubscriptionType.PREMIUM,
            status=SubscriptionStatus.ACTIVE,
            next_billing_date__gt=Now(),
        )
    )


def active_listing_limit(host_id) -> int | None:
    """How many listings the host may keep active: None means no limit."""
    return None if host_is_premium(host_id) else FREE_ACTIVE_LISTING_LIMIT
