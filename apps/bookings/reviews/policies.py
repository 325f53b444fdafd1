"""Who may moderate reviews (the other review rules, the period and who may write or reply, are in
``apps.bookings.policies``)."""

from apps.accounts.models import STAFF_ROLES


def review_may_moderate(actor) -> bool:
    return getattr(actor, "role", None) in STAFF_ROLES
