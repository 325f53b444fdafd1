"""Reviews written through the bookings services (the rules live in ``apps.bookings.reviews``)."""

from .. import reviews
from ..models import Review


def listing_rating_refresh(listing_id) -> None:
    reviews.listing_rating_refresh(listing_id)


def review_add(
    *, renter, listing_id, booking_id, review: str = "", rating: int | None = None, remarks: str = ""
) -> Review:
    """The renter's review of the space; see ``reviews.review_add`` (both sides, double-blind)."""
    return reviews.review_add(
        user=renter, listing_id=listing_id, booking_id=booking_id, review=review, rating=rating, remarks=remarks
    )
