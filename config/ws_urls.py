"""Websocket routes; the notifications app adds its consumer here."""

from django.urls import path

from apps.accounts.ws_auth import TokenAuthMiddleware
from apps.notifications.consumers import NotificationConsumer

websocket_urlpatterns: list = [
    # Notifications, pending counters and chat for the signed-in user (session cookie or ?token=).
    path("ws/notifications/", TokenAuthMiddleware(NotificationConsumer.as_asgi())),
]
