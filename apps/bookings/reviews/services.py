"""Review writes: a review of either side, the host's reply, the reveal when the period ends, and the
staff's publish or hide (a listing's rating counts published reviews only, so it is recomputed after
each change)."""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from apps.core.exceptions import Forbidden, InvalidInput, NotFound
from apps.listings import search_cache
from apps.listings.models import Listing

from ..models import Booking, RenterReview, Review
from ..policies import REVIEW_PERIOD, review_refusal, review_reply_refusal
from .policies import review_may_moderate
from .selectors import listing_rating_stats, review_side


def _invalid(field_name: str, message: str) -> InvalidInput:
    return InvalidInput(message, errors={field_name: [message]})


def _auto_publish() -> bool:
    from apps.cms.selectors import review_settings_get

    return review_settings_get().auto_publish


def listing_rating_refresh(listing_id) -> None:
    """Store the listing's rating (``listing_rating_stats``) on the listing, where search sorts and cards
    read it; the pages and searches kept for visitors (``search_cache``) are retired, so the review and
    the rating show at once."""
    stats = listing_rating_stats(listing_id)
    Listing.objects.filter(pk=listing_id).update(rating_average=stats["average"], rating_count=stats["count"])
    search_cache.search_changed()


def _reveal(booking_id, *, now: dt.datetime) -> bool:
    """Reveal both reviews of a booking (idempotent); True when something was revealed."""
    revealed = Review.objects.filter(booking_id=booking_id, revealed_at__isnull=True).update(revealed_at=now)
    revealed += RenterReview.objects.filter(booking_id=booking_id, revealed_at__isnull=True).update(revealed_at=now)
    return bool(revealed)


@transaction.atomic
def review_add(
    *, user, listing_id, booking_id, review: str = "", rating: int | None = None, remarks: str = ""
) -> Review | RenterReview:
    """The renter reviews the space, or the host (or subHost) reviews the renter."""
    booking = Booking.objects.select_for_update(of=("self",)).select_related("listing").filter(pk=booking_id).first()
    if booking is None:
        raise NotFound("Booking not found.")
    side = review_side(user, booking)
    if side is not None and str(booking.listing_id) != str(listing_id):
        raise _invalid("listingId", "This booking is not for that listing.")
    reviewed = (Review if side == "renter" else RenterReview).objects.filter(booking=booking).exists()
    now = timezone.now()
    refusal = review_refusal(user, booking, reviewed=reviewed, now=now)
    if refusal is not None:
        raise refusal
    if rating is not None and rating <= 0:
        rating = None
    values = {"review": (review or "").strip(), "rating": rating, "remarks": (remarks or "").strip()}
    if side == "renter":
        created = Review.objects.create(
            listing_id=booking.listing_id,
            booking=booking,
            renter=user,
            is_published=_auto_publish(),
            **values,
        )
        other_done = RenterReview.objects.filter(booking=booking).exists()
    else:
        created = RenterReview.objects.create(booking=booking, renter_id=booking.renter_id, author=user, **values)
        other_done = Review.objects.filter(booking=booking).exists()
    if other_done:
        _reveal(booking.pk, now=now)
        created.revealed_at = now
        listing_rating_refresh(booking.listing_id)
    return created


@transaction.atomic
def review_reply(*, user, review_id, reply: str) -> Review:
    """The host answers a revealed review of its space, once."""
    reply = (reply or "").strip()
    review = Review.objects.select_for_update(of=("self",)).select_related("booking").filter(pk=review_id).first()
    if review is None:
        raise NotFound("Review not found.")
    refusal = review_reply_refusal(user, review.booking, review)
    if isinstance(refusal, NotFound):
        raise refusal
    if not reply:
        raise _invalid("reply", "Please write a reply.")
    if refusal is not None:
        raise refusal
    review.reply, review.replied_at = reply, timezone.now()
    review.save(update_fields=["reply", "replied_at"])
    search_cache.search_changed()  # the reply shows under the review on the listing page
    return review


def reviews_reveal_due(*, now: dt.datetime | None = None) -> int:
    """Reveal the reviews whose review period has ended (Celery beat; safe to run twice)."""
    now = now or timezone.now()
    cutoff = now - REVIEW_PERIOD
    booking_ids = set(
        Review.objects.filter(revealed_at__isnull=True, booking__check_out__lte=cutoff).values_list(
            "booking_id", flat=True
        )[:1000]
    ) | set(
        RenterReview.objects.filter(revealed_at__isnull=True, booking__check_out__lte=cutoff).values_list(
            "booking_id", flat=True
        )[:1000]
    )
    listings = set()
    for booking_id in booking_ids:
        with transaction.atomic():
            if _reveal(booking_id, now=now):
                listings.update(Review.objects.filter(booking_id=booking_id).values_list("listing_id", flat=True))
    for listing_id in listings:
        listing_rating_refresh(listing_id)
    return len(booking_ids)


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
