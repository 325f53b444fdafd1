"""The listing form kept as the host left it, for a new listing or changes to one."""

import json

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.core.exceptions import InvalidInput, NotFound

from ..models import Listing, ListingDraft
from .common import host_acting_for

MAX_DRAFT_BYTES = 200_000


def _draft_scope(*, actor: User, listing_id) -> tuple[User, Listing | None]:
    host = host_acting_for(actor)
    if listing_id is None:
        return host, None
    listing = Listing.objects.filter(pk=listing_id, host=host, is_deleted=False).first()
    if listing is None:
        raise NotFound("Listing not found.")
    return host, listing


@transaction.atomic
def listing_draft_save(*, actor: User, listing_id=None, step: int, data: dict) -> ListingDraft:
    """Keep the listing form as the host left it (a new listing, or changes to ``listing_id``).
    Saving again replaces the draft; nothing of the live listing changes."""
    if len(json.dumps(data, default=str)) > MAX_DRAFT_BYTES:
        message = "This draft is too large to keep. Remove some text and try again."
        raise InvalidInput(message, errors={"data": [message]})
    host, listing = _draft_scope(actor=actor, listing_id=listing_id)
    updated = ListingDraft.objects.filter(host=host, listing=listing).update(
        step=step, data=data, updated_by=actor, updated_at=timezone.now()
    )
    if not updated:
        try:
            with transaction.atomic():
                ListingDraft.objects.create(host=host, listing=listing, step=step, data=data, updated_by=actor)
        except IntegrityError:  # saved at the same moment from another tab: the later write wins
            ListingDraft.objects.filter(host=host, listing=listing).update(step=step, data=data, updated_by=actor)
    return ListingDraft.objects.get(host=host, listing=listing)


def listing_draft_get(*, actor: User, listing_id=None) -> ListingDraft | None:
    host, listing = _draft_scope(actor=actor, listing_id=listing_id)
    return ListingDraft.objects.filter(host=host, listing=listing).first()


@transaction.atomic
def listing_draft_discard(*, actor: User, listing_id=None) -> bool:
    host, listing = _draft_scope(actor=actor, listing_id=listing_id)
    deleted, _ = ListingDraft.objects.filter(host=host, listing=listing).delete()
    return bool(deleted)
