"""A listing's status: one table of allowed moves, and the one way to make a move (a conditional
UPDATE, so two reviewers cannot both win)."""

import logging

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.core.exceptions import Conflict, NotFound
from apps.core.statemachine import StateMachine

from ..models import Listing, ListingStatus
from ..search_cache import search_changed

logger = logging.getLogger("apps.listings.services")

# Allowed listing status moves. An approved listing stays approved while an edit is reviewed.
LISTING_MACHINE = StateMachine(
    "listing",
    {
        ListingStatus.PENDING: {ListingStatus.APPROVED, ListingStatus.REJECTED},
        ListingStatus.REJECTED: {ListingStatus.PENDING},
        ListingStatus.APPROVED: set(),
    },
)


@transaction.atomic
def listing_status_change(*, listing: Listing, to: str, by: User | None, reason: str = "") -> Listing:
    """Move ``listing`` to status ``to`` if the table allows it from its current status."""
    source = Listing.objects.filter(pk=listing.pk).values_list("status", flat=True).first()
    if source is None:
        raise NotFound("Listing not found.")
    if not LISTING_MACHINE.can(source, to):
        raise Conflict(f"A {source} listing cannot become {to}.")
    now = timezone.now()
    values: dict = {"updated_at": now}
    if to == ListingStatus.APPROVED:
        values.update(approved_at=now, reject_reason="")
    elif to == ListingStatus.REJECTED:
        values.update(reject_reason=reason)
    else:
        values.update(reject_reason="")
    listing.status = source
    LISTING_MACHINE.transition(
        listing,
        to,
        actor=by,
        reason=reason,
        message="This listing changed meanwhile. Please refresh and try again.",
        **values,
    )
    search_changed()
    logger.info("listing %s: %s -> %s by %s", listing.pk, source, to, getattr(by, "pk", None))
    return listing
