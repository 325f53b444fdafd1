"""Reviews API: ``reviews/add`` (either side, double-blind), a listing's public reviews, a booking's
reviews, the host's reply, and the staff's moderation (``reviews/get-all``, ``reviews/update-status/{id}``)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate, parse_filters
from apps.core.exceptions import NotFound
from apps.core.filters import is_uuid
from apps.core.permissions import AdminOrModerator, AnyRole, HostOrSubHost
from apps.listings.models import Listing, ListingStatus

from .. import selectors as booking_selectors
from ..permissions import RenterOrHostSide
from ..serializers import ReviewInput, ReviewSchema
from . import selectors, services
from .serializers import (
    BookingReviewsDataSerializer,
    ModeratedReviewSerializer,
    PublicReviewSerializer,
    ReviewPublishInput,
    ReviewReplyInput,
)

ERRORS = dict.fromkeys((400, 401, 403, 404, 409), ERROR_ENVELOPE)


class ReviewAddView(APIView):
    """The renter reviews the space, the host side reviews the renter; double-blind (see ``reviews``)."""

    permission_classes = [RenterOrHostSide]

    @extend_schema(request=ReviewInput, responses={201: enveloped("ReviewAddResponse", ReviewSchema()), **ERRORS})
    def post(self, request):
        serializer = ReviewInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        values = serializer.validated_data
        review = services.review_add(
            user=request.user,
            listing_id=values["listingId"],
            booking_id=values["bookingId"],
            review=values["review"],
            rating=values.get("rating"),
            remarks=values["remarks"],
        )
        data = {
            "_id": str(review.pk),
            "listingId": str(values["listingId"]),
            "bookingId": str(review.booking_id),
            "review": review.review,
            "rating": review.rating,
            "remarks": review.remarks,
            "isPublished": getattr(review, "is_published", True),
            "revealed": review.revealed_at is not None,
        }
        return envelope(data, "Review added successfully", status=201)


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
            if is_uuid(listing_id)
            else None
        )
        if listing is None:
            raise NotFound("Listing not found.")
        page = paginate(request, selectors.listing_reviews_public(listing_id=listing.pk))
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
            200: enveloped("BookingReviews", BookingReviewsDataSerializer()),
            **ERRORS,
        }
    )
    def get(self, request, booking_id):
        booking = booking_selectors.booking_get_for(user=request.user, id=booking_id)
        return envelope(selectors.booking_reviews_for(user=request.user, booking=booking))


class ReviewReplyView(APIView):
    """``PUT /api/reviews/reply/{reviewId}``: the host answers a published review of its space, once."""

    permission_classes = [HostOrSubHost]

    @extend_schema(
        request=ReviewReplyInput, responses={200: enveloped("ReviewReply", PublicReviewSerializer()), **ERRORS}
    )
    def put(self, request, review_id):
        serializer = ReviewReplyInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        if not is_uuid(review_id):
            raise NotFound("Review not found.")
        review = services.review_reply(user=request.user, review_id=review_id, reply=serializer.validated_data["reply"])
        return envelope(PublicReviewSerializer(review).data, "Reply published.")


class ReviewModerationListView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(
        parameters=[
            OpenApiParameter("page", int),
            OpenApiParameter("limit", int),
            OpenApiParameter("filters[status]", str, description="pending (held), published or all (default)."),
            OpenApiParameter("filters[search]", str, description="Part of the text, the listing title or the e-mail."),
        ],
        responses={200: enveloped_page("ModeratedReviewList", "reviews", ModeratedReviewSerializer), **ERRORS},
    )
    def get(self, request):
        queryset = selectors.review_list_for_staff(filters=parse_filters(request))
        return page_response(
            paginate(request, queryset), ModeratedReviewSerializer, "reviews", context={"actor": request.user}
        )


class ReviewPublishView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(
        request=ReviewPublishInput,
        responses={200: enveloped("ReviewPublishResponse", ModeratedReviewSerializer()), **ERRORS},
    )
    def patch(self, request, review_id):
        data = ReviewPublishInput(data=request.data)
        data.is_valid(raise_exception=True)
        review = services.review_publish_set(
            actor=request.user, review_id=review_id, published=data.validated_data["isPublished"]
        )
        message = "Review published." if review.is_published else "Review hidden."
        return envelope(ModeratedReviewSerializer(review, context={"actor": request.user}).data, message)
