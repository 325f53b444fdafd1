from django.urls import path

from . import views

app_name = "payments"

urlpatterns = [
    path("plans/get-all", views.PlanListView.as_view(), name="plans"),
    path("subscription", views.SubscriptionView.as_view(), name="subscription"),
    path("subscription/cancel/<str:id>", views.SubscriptionCancelView.as_view(), name="subscription-cancel"),
    path("subscription/grant/<uuid:host_id>", views.SubscriptionGrantView.as_view(), name="subscription-grant"),
    path("payment/subscribe", views.SubscribeView.as_view(), name="subscribe"),
    path("payment/subscribe-success", views.SubscribeSuccessView.as_view(), name="subscribe-success"),
    path(
        "payment/get-all-host-subscription",
        views.HostSubscriptionPaymentListView.as_view(),
        name="host-subscriptions",
    ),
    path("payment/webhook", views.WebhookView.as_view(), name="webhook"),
]
