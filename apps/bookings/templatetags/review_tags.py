"""The public listing page's reviews, drawn by the bookings app that owns them (the listings app's
template loads these tags; no Python import goes from listings up to bookings).

Every figure here is computed from the public reviews it summarises (``Review.objects.public()``):
a renter's review waiting for the host's (double-blind) or for a moderator is not shown or counted.
"""

from django import template

from apps.bookings.islands import IslandPropsListingReviews
from apps.bookings.reviews.selectors import listing_rating_stats, listing_reviews_public
from apps.core.islands import island_props

register = template.Library()

REVIEWS_ON_PAGE = 10


@register.simple_tag
def listing_review_stats(listing) -> dict:
    """``{"average", "count", "reviews"}`` of the listing's public reviews (``listing_rating_stats``)."""
    return listing_rating_stats(listing.pk)


@register.inclusion_tag("bookings/_listing_reviews.html")
def listing_reviews(listing, stats: dict | None = None) -> dict:
    """The one reviews section: how many public reviews, their rating, the newest ten with the host's
    replies (complete HTML for visitors and search engines), and older pages through the island."""
    stats = stats or listing_rating_stats(listing.pk)
    reviews = list(listing_reviews_public(listing_id=listing.pk)[:REVIEWS_ON_PAGE])
    return {
        "listing": listing,
        "stats": stats,
        "reviews": reviews,
        "more": stats["reviews"] > REVIEWS_ON_PAGE,
        "more_props": island_props(IslandPropsListingReviews, {"listingId": str(listing.pk), "startPage": 2}),
    }
