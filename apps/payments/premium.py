"""The premium membership's billing: the annual period and the gateway's renewal grace.

What the membership gives (the plan, the listing limit, who is premium now, when a cancelled
host's premium listings are deleted) is the premium app's (``apps.premium``).
"""

from datetime import datetime, timedelta

from apps.premium.policies import premium_terms

STRIPE_RENEWAL_GRACE = timedelta(days=2)

PREMIUM_TERMS = premium_terms()


def add_year(moment: datetime) -> datetime:
    """The same instant one year later (29 February becomes 28 February)."""
    try:
        return moment.replace(year=moment.year + 1)
    except ValueError:
        return moment.replace(year=moment.year + 1, day=28)
