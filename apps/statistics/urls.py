from django.urls import path

from . import views

app_name = "statistics"

urlpatterns = [
    path("get-dashboard-numbers/<str:interval>", views.DashboardNumbersView.as_view(), name="numbers"),
    path("property-statistics/<str:interval>", views.PropertyStatisticsView.as_view(), name="property"),
    path("availability-statistics/<str:interval>", views.AvailabilityStatisticsView.as_view(), name="availability"),
    path("total-users", views.TotalUsersView.as_view(), name="total-users"),
    path("revenue-statistics", views.RevenueStatisticsView.as_view(), name="revenue"),
    path("listing-statistics/<str:interval>", views.ListingStatisticsView.as_view(), name="listing"),
    path("popular-hosts", views.PopularHostsView.as_view(), name="popular-hosts"),
    path("recent-requests", views.RecentRequestsView.as_view(), name="recent-requests"),
    path("recent-bookings", views.RecentBookingsView.as_view(), name="recent-bookings"),
    path("payment-invoices", views.PaymentInvoicesView.as_view(), name="payment-invoices"),
    path("payout-requests/<str:status>", views.PayoutRequestsView.as_view(), name="payout-requests"),
    path("popular-spaces", views.PopularSpacesView.as_view(), name="popular-spaces"),
    path("new-reservations", views.NewReservationsView.as_view(), name="new-reservations"),
    path("recent-listings", views.RecentListingsView.as_view(), name="recent-listings"),
    path("cancelled-bookings", views.CancelledBookingsView.as_view(), name="cancelled-bookings"),
    path("high-demand-locations", views.HighDemandLocationsView.as_view(), name="high-demand-locations"),
    path(
        "high-demand-amenities/<str:property_type>",
        views.HighDemandAmenitiesView.as_view(),
        name="high-demand-amenities",
    ),
    path("geo-chart", views.GeoChartView.as_view(), name="geo-chart"),
]
