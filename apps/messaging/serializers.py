"""Output shapes of the chat API (plain functions for speed; the Serializer classes document them)."""

from django.urls import reverse
from rest_framework import serializers

from apps.core.roles import Role

from .models import Attachment, Conversation, Message


def _iso(value) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


def person_payload(user) -> dict:
    return {
        "_id": str(user.pk),
        "firstName": user.first_name,
        "lastName": user.last_name,
        "displayName": user.display_name,
        "userName": user.user_name,
        "role": user.role,
        "avatar": user.avatar_url,
    }


def attachment_payload(attachment: Attachment) -> dict:
    return _attachment(attachment.pk, attachment.name, attachment.content_type, attachment.size)


def _attachment(pk, name: str, content_type: str, size: int) -> dict:
    return {
        "_id": str(pk),
        "name": name,
        "contentType": content_type,
        "size": size,
        "url": reverse("messaging:attachment", args=[pk]),
    }


def message_payload(message: Message, *, attachments=None) -> dict:
    attachments = attachments if attachments is not None else list(message.attachments.all())
    return {
        "_id": str(message.pk),
        "conversationId": str(message.conversation_id),
        "senderId": str(message.sender_id),
        "senderSide": message.sender_side,
        "text": message.text,
        "attachments": [attachment_payload(a) for a in attachments],
        "createdAt": _iso(message.created_at),
        "deliveredAt": _iso(message.delivered_at),
        "readAt": _iso(message.read_at),
    }


def message_rows_payload(rows: list[dict], attachments: dict) -> list[dict]:
    """Messages read as plain rows (``selectors.message_list_for``), with their attachments by message id."""
    return [
        {
            "_id": str(row["id"]),
            "conversationId": str(row["conversation_id"]),
            "senderId": str(row["sender_id"]),
            "senderSide": row["sender_side"],
            "text": row["text"],
            "attachments": [
                _attachment(a["id"], a["name"], a["content_type"], a["size"]) for a in attachments.get(row["id"], ())
            ],
            "createdAt": _iso(row["created_at"]),
            "deliveredAt": _iso(row["delivered_at"]),
            "readAt": _iso(row["read_at"]),
        }
        for row in rows
    ]


def conversation_payload(conversation: Conversation) -> dict:
    listing = conversation.listing
    return {
        "_id": str(conversation.pk),
        "renter": person_payload(conversation.renter),
        "host": person_payload(conversation.host),
        "listing": {"_id": str(listing.pk), "title": listing.title, "slug": listing.slug} if listing else None,
        "bookingId": str(conversation.booking_id) if conversation.booking_id else None,
        "lastMessage": conversation.last_message_text,
        "lastMessageAt": _iso(conversation.last_message_at),
        "unreadCount": getattr(conversation, "unread_count", 0),
        "createdAt": _iso(conversation.created_at),
    }


def message_notification_payload(entry: dict) -> dict:
    message = entry["message"]
    return {
        "_id": str(message.conversation_id),
        "conversationId": str(message.conversation_id),
        "sender": person_payload(message.sender),
        "content": message.text[:200] or "Sent an attachment",
        "count": entry["count"],
        "createdAt": _iso(message.created_at),
    }


# --- Schema documentation and input ---------------------------------------------------------------


class PersonSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    firstName = serializers.CharField()
    lastName = serializers.CharField()
    displayName = serializers.CharField()
    userName = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)
    avatar = serializers.CharField()


class AttachmentSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    name = serializers.CharField()
    contentType = serializers.CharField()
    size = serializers.IntegerField()
    url = serializers.CharField()


class MessageSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    conversationId = serializers.UUIDField()
    senderId = serializers.UUIDField()
    senderSide = serializers.ChoiceField(choices=["renter", "host"])
    text = serializers.CharField()
    attachments = AttachmentSerializer(many=True)
    createdAt = serializers.DateTimeField()
    deliveredAt = serializers.DateTimeField(allow_null=True)
    readAt = serializers.DateTimeField(allow_null=True)


class ListingRefSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    title = serializers.CharField()
    slug = serializers.CharField()


class ConversationSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    renter = PersonSerializer()
    host = PersonSerializer()
    listing = ListingRefSerializer(allow_null=True)
    bookingId = serializers.UUIDField(allow_null=True)
    lastMessage = serializers.CharField()
    lastMessageAt = serializers.DateTimeField()
    unreadCount = serializers.IntegerField()
    createdAt = serializers.DateTimeField()


class MessageNotificationSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    conversationId = serializers.UUIDField()
    sender = PersonSerializer()
    content = serializers.CharField()
    count = serializers.IntegerField()
    createdAt = serializers.DateTimeField()


class StartInput(serializers.Serializer):
    userId = serializers.UUIDField(required=False)
    listingId = serializers.UUIDField(required=False)
    bookingId = serializers.UUIDField(required=False)

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError({"userId": ["Send userId, listingId or bookingId."]})
        return attrs


class SendInput(serializers.Serializer):
    text = serializers.CharField(required=False, allow_blank=True, max_length=5000, trim_whitespace=True)
    attachments = serializers.ListField(child=serializers.FileField(), required=False, max_length=5)
