"""A renter's saved listings."""

from django.db import transaction

from apps.accounts.models import Role, User
from apps.core.exceptions import Forbidden, NotFound

from ..models import Favourite, Listing
from ..policies import is_public


@transaction.atomic
def favourite_add(*, user: User, listing: Listing) -> tuple[Favourite, bool]:
    """A renter saves an approved, active listing. Saving twice is harmless (returns created False)."""
    if user.role != Role.RENTER:
        raise Forbidden("Only renters keep favourites.")
    if not is_public(listing):
        raise NotFound("Listing not found.")
    favourite, created = Favourite.objects.get_or_create(user=user, listing=listing)
    return favourite, created


@transaction.atomic
def favourite_remove(*, user: User, listing_id) -> bool:
    deleted, _ = Favourite.objects.filter(user=user, listing_id=listing_id).delete()
    return bool(deleted)
