from django.urls import path

from . import views

app_name = "disputes"

urlpatterns = [
    path("dispute/create", views.DisputeCreateView.as_view(), name="create"),
    path("dispute/get-all", views.DisputeListView.as_view(), name="list"),
    path("dispute/dispute-requests", views.DisputeRequestsView.as_view(), name="requests"),
    path("dispute/dispute-payments", views.DisputePaymentsView.as_view(), name="payments"),
    path("dispute/get-single/<str:dispute_id>", views.DisputeDetailView.as_view(), name="detail"),
    path("dispute/update-status/<str:dispute_id>", views.DisputeUpdateStatusView.as_view(), name="update-status"),
    path("dispute/evidence/<str:evidence_id>", views.EvidenceView.as_view(), name="evidence"),
]
