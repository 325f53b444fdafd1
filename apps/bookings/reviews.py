"""Reviews after a completed booking, both ways, double-blind.

The renter reviews the space (``Review``) and the host reviews the renter (``RenterReview``).
Neither side sees the other's review before writing its own: both are revealed together when the
second one is written, or when the review period (``REVIEW_PERIOD`` after check-out) ends, whatever
was written by then. After the period nobody can add a review. A renter's review also waits for a
moderator when the review settings say so (``is_published``). The listing's rating counts only
reviews that are both published and revealed.
"""

import datetime as dt

from django.db import transaction
from django.db.models import Avg, Count, QuerySet
from django.utils import timezone

from apps.accounts.models import Role
from apps.core.exceptions import InvalidInput, NotFound
from apps.listings import search_cache
from apps.listings.models import Listing

from . import pricing
from .models import Booking, RenterReview, Review
from .policies import REVIEW_PERIOD, renter_reviews_visible, review_period_ends, review_refusal, review_reply_refusal


def _invalid(field_name: str, message: str) -> InvalidInput:
    return InvalidInput(message, errors={field_name: [message]})


def _auto_publish() -> bool:
    from apps.cms.selectors import review_settings_get

    return review_settings_get().auto_publish


def review_side(user, booking: Booking) -> str | None:
    """``renter`` or ``host`` when ``user`` may review this booking's other party, else None."""
    if user.pk == booking.renter_id:
        return "renter"
    if user.role in (Role.HOST, Role.SUB_HOST) and user.acting_host_id == booking.host_id:
        return "host"
    return None


def listing_rating_stats(listing_id) -> dict:
    """A listing's rating computed from its public reviews (``Review.objects.public()``): the average
    of the rated ones (``average``, Decimal to 2 places), how many were rated (``count``) and how many
    public reviews there are, rated or not (``reviews``)."""
    stats = (
        Review.objects.public()
        .filter(listing_id=listing_id)
        .aggregate(average=Avg("rating"), count=Count("rating"), reviews=Count("id"))
    )
    return {"average": pricing.money(stats["average"] or 0), "count": stats["count"], "reviews": stats["reviews"]}


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


# --- Reads ------------------------------------------------------------------------------------------


def listing_reviews_public(*, listing_id) -> QuerySet[Review]:
    """A listing's reviews anyone may read: published and revealed, newest first."""
    return (
        Review.objects.public()
        .filter(listing_id=listing_id)
        .select_related("renter")
        .order_by("-revealed_at", "-created_at")
    )


def booking_reviews_for(*, user, booking: Booking) -> dict:
    """What the booking detail shows about reviews to ``user`` (a party of the booking or staff).

    A party sees its own review at once and the other side's only once revealed.
    """
    side = review_side(user, booking)
    staff = user.role in (Role.ADMIN, Role.MODERATOR)
    renter_review = Review.objects.filter(booking=booking).first()
    host_review = RenterReview.objects.filter(booking=booking).first()

    def shown(item, own: bool) -> dict | None:
        if item is None:
            return None
        if not (own or staff or item.revealed_at is not None):
            return {"written": True, "revealed": False}
        return {
            "_id": str(item.pk),
            "written": True,
            "revealed": item.revealed_at is not None,
            "review": item.review,
            "rating": item.rating,
            "remarks": item.remarks if (own or staff) else "",
            "createdAt": item.created_at.isoformat(),
        }

    renter_side = shown(renter_review, side == "renter")
    if renter_side is not None and "_id" in renter_side:
        renter_side["reply"] = renter_review.reply
        renter_side["repliedAt"] = renter_review.replied_at.isoformat() if renter_review.replied_at else None
        renter_side["can"] = {"reply": review_reply_refusal(user, booking, renter_review) is None}
    mine = renter_review if side == "renter" else host_review if side == "host" else None
    return {
        "renterReview": renter_side,
        "hostReview": shown(host_review, side == "host"),
        "reviewPeriodEnds": review_period_ends(booking).isoformat(),
        "canReview": side is not None and review_refusal(user, booking, reviewed=mine is not None) is None,
        "renterReviews": renter_reviews_for(user=user, booking=booking),
    }


RENTER_REVIEWS_SHOWN = 5


def renter_reviews_for(*, user, booking: Booking) -> dict | None:
    """What hosts said about the booking's renter (revealed reviews from all their bookings), for the
    host side deciding or hosting the booking and for staff; None for anyone else (the renter reads
    reviews about them on their own bookings)."""
    if not renter_reviews_visible(user, booking):
        return None
    revealed = RenterReview.objects.filter(renter_id=booking.renter_id, revealed_at__isnull=False)
    stats = revealed.filter(rating__isnull=False).aggregate(average=Avg("rating"), count=Count("id"))
    latest = revealed.select_related("booking__listing").order_by("-revealed_at")[:RENTER_REVIEWS_SHOWN]
    return {
        "rating": f"{pricing.money(stats['average'] or 0):.2f}",
        "ratingCount": stats["count"],
        "total": revealed.count(),
        "reviews": [
            {
                "_id": str(item.pk),
                "rating": item.rating,
                "review": item.review,
                "listingTitle": item.booking.listing.title,
                "createdAt": item.revealed_at.isoformat(),
            }
            for item in latest
        ],
    }
