from django.urls import path

from . import views

urlpatterns = [
    path("reviews/add", views.ReviewAddView.as_view(), name="review-add"),
    path("reviews/reply/<str:review_id>", views.ReviewReplyView.as_view(), name="review-reply"),
    path("reviews/listing/<str:listing_id>", views.ListingReviewsView.as_view(), name="listing-reviews"),
    path("reviews/booking/<str:booking_id>", views.BookingReviewsView.as_view(), name="booking-reviews"),
    path("reviews/get-all", views.ReviewModerationListView.as_view(), name="review-moderation-list"),
    path("reviews/update-status/<uuid:review_id>", views.ReviewPublishView.as_view(), name="review-publish"),
]
