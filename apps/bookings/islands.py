"""The props of the booking pages' islands (apps/core/islands.py): the booking flow's steps and the
listing page's older reviews."""

from rest_framework import serializers

from apps.core.islands import IslandProps
from apps.listings.islands import IslandBookingListing


class IslandFlowListing(IslandBookingListing):
    """The booking widget's listing, with the cancellation sentence and the visitor's standing."""

    cancellationText = serializers.CharField(allow_blank=True)
    isLoggedIn = serializers.BooleanField()
    mayBook = serializers.BooleanField(help_text="Whether the signed-in user may send a booking request (renters).")


class IslandPropsBookingFlow(IslandProps):
    step = serializers.ChoiceField(
        choices=["request-booking-details", "event-booking-details", "services-and-add-ons", "review-and-pay"]
    )
    listing = IslandFlowListing()


class IslandPropsListingReviews(IslandProps):
    """The listing page's reviews after the first page (the island loads them from ``startPage``)."""

    listingId = serializers.CharField()
    startPage = serializers.IntegerField(min_value=1)
