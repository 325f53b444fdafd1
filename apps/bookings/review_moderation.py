"""Staff moderation of renters' reviews (the /review-setting screen's list): read them, publish a
held review or hide a published one. A listing's rating counts published reviews only, so it is
recomputed after each change.
"""

from django.db import transaction
from django.db.models import Q, QuerySet

from apps.accounts.models import STAFF_ROLES
from apps.core.exceptions import Forbidden, NotFound
from apps.core.filters import filter_choice

from .models import Review
from .services import listing_rating_refresh

REVIEW_STATUSES = ("pending", "published", "all")


def review_list_for_staff(*, filters: dict) -> QuerySet[Review]:
    """Reviews newest first; ``status`` pending (held, not published), published or all (default)."""
    queryset = Review.objects.select_related("listing", "renter")
    message = "filters[status] must be pending, published or all."
    status = filter_choice(filters, "status", REVIEW_STATUSES, message=message, every="all")
    if status:
        queryset = queryset.filter(is_published=status == "published")
    search = (filters.get("search") or "")[:100]
    if search:
        queryset = queryset.filter(
            Q(review__icontains=search) | Q(listing__title__icontains=search) | Q(renter__email__icontains=search)
        )
    return queryset.order_by("-created_at", "-id")


def review_may_moderate(actor) -> bool:
    return getattr(actor, "role", None) in STAFF_ROLES


@transaction.atomic
def review_publish_set(*, actor, review_id, published: bool) -> Review:
    """Publish or hide a review (admin and moderator)."""
    if not review_may_moderate(actor):
        raise Forbidden("Only the admin or a moderator can moderate reviews.")
    review = Review.objects.select_for_update().select_related("listing", "renter").filter(pk=review_id).first()
    if review is None:
        raise NotFound("Review not found.")
    if review.is_published != published:
        review.is_published = published
        review.save(update_fields=["is_published"])
        listing_rating_refresh(review.listing_id)
    return review
