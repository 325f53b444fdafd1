"""Staff API of review moderation: ``GET reviews/get-all`` and ``PATCH reviews/update-status/{id}``."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate, parse_filters
from apps.core.permissions import AdminOrModerator

from . import review_moderation
from .models import Review

ERRORS = dict.fromkeys((400, 401, 403, 404), ERROR_ENVELOPE)


class ReviewListingSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="pk")
    title = serializers.CharField()
    slug = serializers.CharField()


class ReviewRenterSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="pk")
    email = serializers.EmailField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


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
