"""Review serializers: public reviews, a booking's two sides, the reply and the staff's moderation."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..models import Review
from .policies import review_may_moderate


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
        may = review_may_moderate(self.context.get("actor"))
        return {"publish": may and not review.is_published, "hide": may and review.is_published}


class ReviewPublishInput(serializers.Serializer):
    isPublished = serializers.BooleanField(
        error_messages={
            "required": "isPublished is required",
            "null": "isPublished is required",
            "invalid": "isPublished must be true or false",
        }
    )
