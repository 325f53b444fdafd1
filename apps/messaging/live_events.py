"""The chat's live events, and the commands a chat page sends over the same socket (typing, delivered,
read); apps/notifications/live_events.py says how both are declared and checked."""

from rest_framework import serializers

from .models import Side
from .serializers import MessageSerializer


class LiveEventMessage(serializers.Serializer):
    """``message``: a message was sent in a conversation of the user."""

    conversationId = serializers.CharField()
    message = MessageSerializer()


class LiveEventRead(serializers.Serializer):
    """``read``: the ``by`` side read the conversation's messages up to ``readAt``."""

    conversationId = serializers.CharField()
    readAt = serializers.DateTimeField()
    by = serializers.ChoiceField(choices=Side.choices)


class LiveEventDelivered(serializers.Serializer):
    """``delivered``: the recipient's page received the message."""

    conversationId = serializers.CharField()
    messageId = serializers.CharField()
    deliveredAt = serializers.DateTimeField()


class LiveEventTyping(serializers.Serializer):
    """``typing``: the other side is typing (or stopped)."""

    conversationId = serializers.CharField()
    userId = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    isTyping = serializers.BooleanField()


class LiveCommandTyping(serializers.Serializer):
    """``typing``: the user is typing in the conversation (or stopped: ``isTyping`` false)."""

    # Parsed: every spelling of one id (case, dashes, braces, ``urn:uuid:``) is the same id, so the
    # typing limit (realtime.py) keys on the conversation, not on the text.
    conversationId = serializers.UUIDField()
    isTyping = serializers.BooleanField(required=False, default=True)


class LiveCommandDelivered(serializers.Serializer):
    """``delivered``: the page received the message."""

    messageId = serializers.UUIDField()


class LiveCommandRead(serializers.Serializer):
    """``read``: the user read the conversation's messages."""

    conversationId = serializers.UUIDField()
