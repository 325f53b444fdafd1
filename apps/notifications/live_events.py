"""The data of the events the live socket sends a page (``{"event": name, "data": ...}``), one
serializer ``LiveEvent<Name>`` per event: components of the OpenAPI schema (apps/dashboard/contracts.py)
from which the client's types are generated. The tests check every event sent against them."""

from rest_framework import serializers

from .serializers import NotificationSerializer, PendingCounterSerializer


class LiveEventNotification(NotificationSerializer):
    """``notification``: a new notification, as the list shows it."""


class LiveEventPendingCounter(PendingCounterSerializer):
    """``pendingCounter``: the menu's pending counters."""


class LiveEventError(serializers.Serializer):
    """``error``: an event from the page was refused (``for`` names it)."""

    message = serializers.CharField()

    def get_fields(self):
        return {**super().get_fields(), "for": serializers.CharField(allow_blank=True)}


class LiveEventPong(serializers.Serializer):
    """``pong``: the answer to the page's ``ping``; no data."""
