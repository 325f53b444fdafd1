"""The booking flow's pages (spec section 2.1): the details step (request-booking-details for office
spaces, event-booking-details for event spaces), /services-and-add-ons and /review-and-pay.

Each is a server-rendered page with one island (``BookingFlow``) that works on the draft the renter
builds in the browser. The listing comes from ``?listing=<slug>``; the page shows it and hands the
island what it needs (offerings, add-ons, opening hours, cancellation policy).
"""

from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from apps.core.filters import is_uuid
from apps.core.islands import island_props
from apps.listings.models import Listing, ListingImage, PropertyType
from apps.listings.pages import booking_widget_props
from apps.listings.policies import CANCELLATION_TEXT, public_listings
from apps.listings.search import image_url

from .islands import IslandPropsBookingFlow
from .models import Booking
from .policies import book_refusal

DETAILS_STEPS = {
    PropertyType.OFFICE_SPACE: "request-booking-details",
    PropertyType.EVENT_SPACE: "event-booking-details",
}
STEP_TITLES = {
    "request-booking-details": "Booking details",
    "event-booking-details": "Event booking details",
    "services-and-add-ons": "Services and add-ons",
    "review-and-pay": "Review and pay",
}


def _listing(slug: str) -> Listing | None:
    if not slug or len(slug) > 300:
        return None
    return (
        public_listings()
        .filter(slug=slug)
        .select_related("host")
        .prefetch_related(
            Prefetch("images", queryset=ListingImage.objects.order_by("position")), "space_offerings", "add_ons"
        )
        .first()
    )


def listing_props(listing: Listing, request: HttpRequest) -> dict:
    """What the island knows of the listing (the listing page's booking widget gets the same fields)."""
    user = request.user
    return {
        **booking_widget_props(listing, listing.space_offerings.all()),
        "cancellationText": CANCELLATION_TEXT.get(listing.cancellation_policy, ""),
        "isLoggedIn": user.is_authenticated,
        # Whether the signed-in user may send the request (renters only); the page says why not.
        "mayBook": user.is_authenticated and book_refusal(user) is None,
    }


def _listing_of_booking(request: HttpRequest) -> Listing | None:
    """The listing of the renter's own booking named by ``?bookingId=`` (the return from payment)."""
    booking_id = request.GET.get("bookingId", "")
    if not request.user.is_authenticated or not booking_id:
        return None
    if not is_uuid(booking_id):
        return None
    booking = Booking.objects.filter(pk=booking_id, renter=request.user).select_related("listing").first()
    return _listing(booking.listing.slug) if booking else None


@never_cache
@require_GET
def booking_step(request: HttpRequest, step: str) -> HttpResponse:
    slug = request.GET.get("listing", "")
    listing = _listing(slug) or _listing_of_booking(request)
    if listing is None:
        if not slug:
            # No space chosen yet (an old bookmark): the draft, if any, is on the listing pages.
            return redirect("/property-listing")
        raise Http404
    if step in DETAILS_STEPS.values() and step != DETAILS_STEPS[listing.property_type]:
        return redirect(f"/{DETAILS_STEPS[listing.property_type]}?listing={listing.slug}")
    details_step = DETAILS_STEPS[listing.property_type]
    steps = [
        (details_step, STEP_TITLES[details_step]),
        ("services-and-add-ons", STEP_TITLES["services-and-add-ons"]),
        ("review-and-pay", STEP_TITLES["review-and-pay"]),
    ]
    images = list(listing.images.all())
    context = {
        "step": step,
        "title": STEP_TITLES[step],
        "steps": steps,
        "listing": listing,
        "image_url": image_url(images[0].path, small=True) if images else "",
        "flow_props": island_props(IslandPropsBookingFlow, {"step": step, "listing": listing_props(listing, request)}),
    }
    response = render(request, "bookings/booking_step.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response
