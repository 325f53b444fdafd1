"""Reviews API beyond ``reviews/add``: a listing's public reviews, a booking's reviews, the host's
reply, and the staff's moderation (``reviews/get-all``, ``reviews/update-status/{id}``)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate, parse_filters
from apps.core.exceptions import NotFound
from apps.core.filters import is_uuid
from apps.core.permissions import AdminOrModerator, AnyRole, HostOrSubHost
from apps.listings.models import Listing, ListingStatus

from . import review_moderation, reviews, selectors
from .models import Review

ERRORS = dict.fromkeys((400, 401, 403, 404, 409), ERROR_ENVELOPE)


class ReviewerSerializer(serializers.Serializer):
    """The reviewing renter as anyone sees it: the first name ("Guest" when none) and the avatar."""

    firstName = serializers.CharField()
    avatar = serializers.CharField()


class PublicReviewSerializer(serializers.Serializer):
    """A published review as anyone reads it: the renter's first name and avatar, never the remarks."""

    _id = serializers.UUIDField(source="id")
    rating = serializers.IntegerField(allow_null=True)
    review = serializers.CharField()
    reply = serializers.CharField()
    repliedAt = serializers.DateTimeField(source="replied_at", allow_null=True)
    createdAt = serializers.DateTimeField(source="revealed_at")
    renter = serializers.SerializerMethodField()

    @extend_schema_field(ReviewerSerializer)
    def get_renter(self, review) -> dict:
        user = review.renter
        return {"firstName": user.first_name or "Guest", "avatar": user.avatar_url}


class RenterReviewItemSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    rating = serializers.IntegerField(allow_null=True)
    review = serializers.CharField()
    listingTitle = serializers.CharField()
    createdAt = serializers.DateTimeField()


class RenterReviewsSerializer(serializers.Serializer):
    """Hosts' revealed reviews of a renter, newest first (the latest five) with their average."""

    rating = serializers.DecimalField(max_digits=4, decimal_places=2)
    ratingCount = serializers.IntegerField()
    total = serializers.IntegerField()
    reviews = RenterReviewItemSerializer(many=True)


HIDDEN = "Absent while the other side's review is still hidden (only written and revealed are sent)."


class SideReviewSerializer(serializers.Serializer):
    """One side's review of a booking as the caller may see it (``reviews.booking_reviews_for``)."""

    _id = serializers.UUIDField(required=False, help_text=HIDDEN)
    written = serializers.BooleanField()
    revealed = serializers.BooleanField()
    review = serializers.CharField(required=False, allow_blank=True, help_text=HIDDEN)
    rating = serializers.IntegerField(required=False, allow_null=True, help_text=HIDDEN)
    remarks = serializers.CharField(
        required=False, allow_blank=True, help_text="Private remarks: to their writer and staff only, else empty."
    )
    createdAt = serializers.DateTimeField(required=False, help_text=HIDDEN)


class ReviewReplyCanSerializer(serializers.Serializer):
    reply = serializers.BooleanField()


class RenterSideReviewSerializer(SideReviewSerializer):
    """The renter's review of the space, with the host's reply and whether the caller may reply."""

    reply = serializers.CharField(required=False, allow_blank=True, help_text=HIDDEN)
    repliedAt = serializers.DateTimeField(required=False, allow_null=True, help_text=HIDDEN)
    can = ReviewReplyCanSerializer(required=False, help_text=HIDDEN)


class BookingReviewsDataSerializer(serializers.Serializer):
    renterReview = RenterSideReviewSerializer(allow_null=True, help_text="Empty until the renter writes one.")
    hostReview = SideReviewSerializer(allow_null=True, help_text="Empty until the host side writes one.")
    reviewPeriodEnds = serializers.DateTimeField()
    canReview = serializers.BooleanField()
    renterReviews = RenterReviewsSerializer(
        allow_null=True, help_text="What hosts said about the renter: to the booking's host side and staff only."
    )


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
            if is_uuid(listing_id)
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
            200: enveloped("BookingReviews", BookingReviewsDataSerializer()),
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
        if not is_uuid(review_id):
            raise NotFound("Review not found.")
        review = reviews.review_reply(user=request.user, review_id=review_id, reply=serializer.validated_data["reply"])
        return envelope(PublicReviewSerializer(review).data, "Reply published.")


# --- Moderation (staff) ------------------------------------------------------------------------------


class ReviewListingSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="pk")
    title = serializers.CharField()
    slug = serializers.CharField()


class ReviewRenterSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="pk")
    email = serializers.EmailField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    displayName = serializers.CharField(source="display_name")


class ReviewCanSerializer(serializers.Serializer):
    publish = serializers.BooleanField()
    hide = serializers.BooleanField()


class ModeratedReviewSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="pk")
    review = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    remarks = serializers.CharField()
    isPublished = serializers.BooleanField(source="is_published")
    createdAt = serializers.DateTimeField(source="created_at")
    listing = ReviewListingSerializer()
    renter = ReviewRenterSerializer()
    can = serializers.SerializerMethodField()

    @extend_schema_field(ReviewCanSerializer)
    def get_can(self, review: Review) -> dict:
        may = review_moderation.review_may_moderate(self.context.get("actor"))
        return {"publish": may and not review.is_published, "hide": may and review.is_published}


class ReviewPublishInput(serializers.Serializer):
    isPublished = serializers.BooleanField(
        error_messages={
            "required": "isPublished is required",
            "null": "isPublished is required",
            "invalid": "isPublished must be true or false",
        }
    )


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
        queryset = review_moderation.review_list_for_staff(filters=parse_filters(request))
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
        review = review_moderation.review_publish_set(
            actor=request.user, review_id=review_id, published=data.validated_data["isPublished"]
        )
        message = "Review published." if review.is_published else "Review hidden."
        return envelope(ModeratedReviewSerializer(review, context={"actor": request.user}).data, message)
