from django.urls import path

from . import detail_views, views

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
    path("payment/get-all", views.PaymentListView.as_view(), name="payments"),
    path("payment/details", detail_views.PaymentDetailsView.as_view(), name="payment-details"),
    path("payment/get-single/<str:booking_id>", views.PaymentSingleView.as_view(), name="payment-single"),
    path("payment/checkout", views.CheckoutView.as_view(), name="checkout"),
    path("payment/checkout-success", views.CheckoutConfirmView.as_view(), name="checkout-success"),
    path("invoice/get-all", views.InvoiceListView.as_view(), name="invoices"),
    path("invoice/pdf/<str:id>", views.InvoicePdfView.as_view(), name="invoice-pdf"),
    path("payout/balance", views.PayoutBalanceView.as_view(), name="payout-balance"),
    path("payout/request", views.PayoutRequestView.as_view(), name="payout-request"),
    path("payout/get-all", views.PayoutListView.as_view(), name="payouts"),
    path("payout/update-status/<uuid:id>", views.PayoutStatusView.as_view(), name="payout-status"),
]
