from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("notifications/get-all", views.NotificationListView.as_view(), name="list"),
    path("notifications/mark-as-read/<str:notification_id>", views.NotificationMarkReadView.as_view(), name="read"),
    path("notifications/mark-all-as-read", views.NotificationMarkAllReadView.as_view(), name="read-all"),
    path("notifications/update/<str:notification_id>", views.NotificationUpdateView.as_view(), name="update"),
    path("notifications/delete/<str:notification_id>", views.NotificationDeleteView.as_view(), name="delete"),
    path("notifications/push/public-key", views.PushPublicKeyView.as_view(), name="push-public-key"),
    path("notifications/push/subscribe", views.PushSubscribeView.as_view(), name="push-subscribe"),
    path("notifications/push/unsubscribe", views.PushUnsubscribeView.as_view(), name="push-unsubscribe"),
    path("dashboard/pending-counter", views.PendingCounterView.as_view(), name="pending-counter"),
]
