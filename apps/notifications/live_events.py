"""The data of the events the live socket sends a page (``{"event": name, "data": ...}``), one
serializer ``LiveEvent<Name>`` per event, and of the commands a page sends the socket (the same frame),
one serializer ``LiveCommand<Name>`` per command: components of the OpenAPI schema
(apps/dashboard/contracts.py) from which the client's types are generated. The tests check every event
sent against them; the socket validates every command it receives with its serializer
(consumers.register_live_command) and answers an invalid one with an ``error`` event."""

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


class LiveCommandPing(serializers.Serializer):
    """``ping``: is the socket alive? Answered with ``pong``; no data."""
