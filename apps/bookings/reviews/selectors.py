"""Review reads: a listing's public reviews and rating, what a booking's detail shows of both sides,
what hosts said about a renter, and the staff's moderation list."""

from django.db.models import Avg, Count, Q, QuerySet

from apps.accounts.models import Role
from apps.core.filters import filter_choice

from .. import pricing
from ..models import Booking, RenterReview, Review
from ..policies import renter_reviews_visible, review_period_ends, review_refusal, review_reply_refusal


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
