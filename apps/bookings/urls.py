from django.urls import include, path

from . import views
from .calendars import views as calendar_views

app_name = "bookings"

urlpatterns = [
    path("booking/quote/<str:step>", views.QuoteView.as_view(), name="booking-quote"),
    path("booking/create", views.BookingCreateView.as_view(), name="booking-create"),
    path("booking/get-all", views.BookingListView.as_view(), name="booking-list"),
    path("booking/booking-requests", views.BookingRequestsView.as_view(), name="booking-requests"),
    path("booking/calendar", views.CalendarView.as_view(), name="booking-calendar"),
    path(
        "booking/listing-summary/<str:listing_id>",
        views.ListingBookingsSummaryView.as_view(),
        name="booking-listing-summary",
    ),
    path("booking/booking/<str:booking_id>", views.BookingDetailView.as_view(), name="booking-detail"),
    path("booking/update-status/<str:booking_id>", views.BookingUpdateStatusView.as_view(), name="booking-status"),
    path("booking/cancel/<str:booking_id>", views.BookingCancelView.as_view(), name="booking-cancel"),
    path("booking/extend/<str:booking_id>", views.ExtendBookingView.as_view(), name="booking-extend"),
    path(
        "booking/update-extend-status/<str:booking_id>", views.ExtendStatusView.as_view(), name="booking-extend-status"
    ),
    path("listing/get-availability/<str:listing_id>", views.ListingAvailabilityView.as_view(), name="availability"),
    path("listing/calendar-url/<str:listing_id>", calendar_views.IcalUrlView.as_view(), name="listing-ical-url"),
    path("listing/calendar/<str:token>.ics", calendar_views.IcalFeedView.as_view(), name="listing-ical"),
    path("listing/<str:listing_id>/calendars", calendar_views.ListingCalendarsView.as_view(), name="listing-calendars"),
    path(
        "listing/<str:listing_id>/calendars/<str:calendar_id>",
        calendar_views.ListingCalendarDetailView.as_view(),
        name="listing-calendar",
    ),
    path(
        "listing/<str:listing_id>/calendars/<str:calendar_id>/sync",
        calendar_views.ListingCalendarSyncView.as_view(),
        name="listing-calendar-sync",
    ),
    path("host/calendar-url", calendar_views.HostIcalUrlView.as_view(), name="host-ical-url"),
    path("host/calendar-url/reset", calendar_views.HostIcalResetView.as_view(), name="host-ical-reset"),
    path("host/calendar/<str:token>.ics", calendar_views.HostIcalFeedView.as_view(), name="host-ical"),
    path("", include("apps.bookings.reviews.urls")),
]
