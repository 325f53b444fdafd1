"""What the premium membership gives, and what its cancellation costs, in one place.

- A premium host may keep any number of listings active (a free host: ``FREE_ACTIVE_LISTING_LIMIT``).
- A premium host may mark listings as premium (``Listing.is_premium``): a *premium listing* is
  shown first in public search ("featured") with a Premium badge, as long as its host's
  membership is premium now (``selectors.premium_now``).
- Cancelling ends the membership at once (the annual amount is non refundable) and the host's
  premium listings are soft-deleted ``PREMIUM_GRACE_DAYS`` after the cancellation (spec 1 and 9,
  ``deletion_at``) unless the host buys the membership again before then. Every text that names
  the delay is worded from ``DELETION_CLAUSE``.
"""

from datetime import datetime, timedelta

FREE_ACTIVE_LISTING_LIMIT = 3
PREMIUM_GRACE_DAYS = 15
DELETION_WARNING_DAYS_BEFORE = 3

DELETION_CLAUSE = f"deleted {PREMIUM_GRACE_DAYS} days after the membership is cancelled"


def deletion_at(cancelled_at: datetime) -> datetime:
    """When the premium listings of a membership cancelled at ``cancelled_at`` are soft-deleted."""
    return cancelled_at + timedelta(days=PREMIUM_GRACE_DAYS)


def cancelled_before_deletion(moment: datetime) -> datetime:
    """Memberships cancelled before this instant have their premium listings due for deletion at ``moment``."""
    return moment - timedelta(days=PREMIUM_GRACE_DAYS)


def grace_text() -> str:
    return f"Premium listings are {DELETION_CLAUSE}."


def premium_terms() -> str:
    return f"The premium membership is billed annually and the amount is non refundable. {grace_text()}"


def subscription_benefits(subscription) -> dict:
    """What a membership gives now (the subscription screen): premium lifts the active-listing limit,
    features the listings and shows the badge."""
    premium = subscription.is_premium_now
    return {
        "isPremium": premium,
        "activeListingLimit": None if premium else FREE_ACTIVE_LISTING_LIMIT,
        "featuredListings": premium,
        "premiumBadge": premium,
    }
