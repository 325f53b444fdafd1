"""The public listing page's reviews, drawn by the bookings app that owns them (the listings app's
template loads this tag; no Python import goes from listings up to bookings)."""

from django import template

from apps.bookings.models import Review

register = template.Library()

REVIEWS_ON_PAGE = 10


@register.inclusion_tag("bookings/_listing_reviews.html")
def listing_reviews(listing) -> dict:
    """The newest published reviews of ``listing`` with their ratings, and how many there are."""
    reviews = list(
        Review.objects.filter(listing=listing, is_published=True)
        .select_related("renter")
        .order_by("-created_at")[:REVIEWS_ON_PAGE]
    )
    return {"listing": listing, "reviews": reviews}
