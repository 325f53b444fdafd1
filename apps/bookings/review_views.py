"""Reviews API beyond ``reviews/add``: a listing's public reviews, a booking's reviews, the host's reply."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate
from apps.core.exceptions import NotFound
from apps.core.permissions import AnyRole, HostOrSubHost
from apps.listings.models import Listing, ListingStatus

from . import reviews, selectors
from .selectors import _is_uuid

ERRORS = dict.fromkeys((400, 401, 403, 404, 409), ERROR_ENVELOPE)


class PublicReviewSerializer(serializers.Serializer):
    """A published review as anyone reads it: the renter's first name and avatar, never the remarks."""

    _id = serializers.UUIDField(source="id")
    rating = serializers.IntegerField(allow_null=True)
    review = serializers.CharField()
    reply = serializers.CharField()
    repliedAt = serializers.DateTimeField(source="replied_at", allow_null=True)
    createdAt = serializers.DateTimeField(source="revealed_at")
    renter = serializers.SerializerMethodField()

    def get_renter(self, review) -> dict:
        user = review.renter
        return {"firstName": user.first_name or "Guest", "avatar": user.avatar_url}


class ReviewReplyInput(serializers.Serializer):
    reply = serializers.CharField(
        max_length=2000,
        allow_blank=True,
        error_messages={"required": "Please write a reply.", "max_length": "Keep the reply under 2000 characters."},
    )


class ListingReviewsView(APIView):
    """``GET /api/reviews/listing/{listingId}``: an approved listing's published reviews, newest first, 10 a page."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        parameters=[OpenApiParameter("page", int), OpenApiParameter("limit", int)],
        responses={200: enveloped_page("ListingReviews", "reviews", PublicReviewSerializer), **ERRORS},
    )
    def get(self, request, listing_id):
        listing = (
            Listing.objects.filter(pk=listing_id, status=ListingStatus.APPROVED, is_deleted=False)
            .only("id", "rating_average", "rating_count")
            .first()
            if _is_uuid(listing_id)
            else None
        )
        if listing is None:
            raise NotFound("Listing not found.")
        page = paginate(request, reviews.listing_reviews_public(listing_id=listing.pk))
        return page_response(
            page,
            PublicReviewSerializer,
            "reviews",
            rating=f"{listing.rating_average:.2f}",
            ratingCount=listing.rating_count,
        )


class BookingReviewsView(APIView):
    """``GET /api/reviews/booking/{bookingId}``: both sides' reviews as the caller may see them."""

    permission_classes = [AnyRole]

    @extend_schema(
        responses={
            200: enveloped(
                "BookingReviews",
                inline_serializer(
                    "BookingReviewsData",
                    {
                        "renterReview": serializers.JSONField(allow_null=True),
                        "hostReview": serializers.JSONField(allow_null=True),
                        "reviewPeriodEnds": serializers.DateTimeField(),
                        "canReview": serializers.BooleanField(),
                    },
                ),
            ),
            **ERRORS,
        }
    )
    def get(self, request, booking_id):
        booking = selectors.booking_get_for(user=request.user, id=booking_id)
        return envelope(reviews.booking_reviews_for(user=request.user, booking=booking))


class ReviewReplyView(APIView):
    """``PUT /api/reviews/reply/{reviewId}``: the host answers a published review of its space, once."""

    permission_classes = [HostOrSubHost]

    @extend_schema(
        request=ReviewReplyInput, responses={200: enveloped("ReviewReply", PublicReviewSerializer()), **ERRORS}
    )
    def put(self, request, review_id):
        serializer = ReviewReplyInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        if not _is_uuid(review_id):
            raise NotFound("Review not found.")
        review = reviews.review_reply(user=request.user, review_id=review_id, reply=serializer.validated_data["reply"])
        return envelope(PublicReviewSerializer(review).data, "Reply published.")
