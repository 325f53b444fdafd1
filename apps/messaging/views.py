"""Chat API (paths in the spec's style under /api/chat/, see docs/decisions/messaging/)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.accounts.models import Role
from apps.core.api import ERROR_ENVELOPE, PRIVATE_FILE_RESPONSES, envelope, enveloped, paginate, parse_filters
from apps.core.files import private_file_response
from apps.core.permissions import AdminOrModerator, AnyRole, role_permission
from apps.listings.selectors import listing_get_for

from . import selectors, services
from .models import Message
from .serializers import (
    ConversationSerializer,
    MessageNotificationSerializer,
    MessageSerializer,
    SendInput,
    StartInput,
    conversation_payload,
    message_notification_payload,
    message_payload,
    message_rows_payload,
)

ERRORS = dict.fromkeys((400, 401, 403, 404), ERROR_ENVELOPE)
ChatParty = role_permission("ChatParty", Role.RENTER, Role.HOST, Role.SUB_HOST)
MESSAGES_MAX_LIMIT = 50
PAGE_PARAMS = [OpenApiParameter("page", int), OpenApiParameter("limit", int)]


def _page_schema(name: str, key: str, item) -> serializers.Serializer:
    return enveloped(
        name,
        inline_serializer(
            name=f"{name}Data",
            fields={
                key: item(many=True),
                "totalCount": serializers.IntegerField(),
                "page": serializers.IntegerField(),
                "limit": serializers.IntegerField(),
                "totalPages": serializers.IntegerField(),
            },
        ),
    )


def _message_page(request, messages) -> dict:
    """One page of messages: 10 by default, up to 50 when the client asks for a ``limit``."""
    max_limit = MESSAGES_MAX_LIMIT if request.query_params.get("limit") else 10
    page = paginate(request, messages, max_limit=max_limit)
    attachments = selectors.attachments_of(row["id"] for row in page.items) if page.items else {}
    return {"messages": message_rows_payload(page.items, attachments), **page.meta()}


class ConversationListView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="The caller's conversations, latest activity first",
        parameters=[
            *PAGE_PARAMS,
            OpenApiParameter("filters[search]", str, description="the other party's name or e-mail, listing, text"),
        ],
        responses={200: _page_schema("ConversationListResponse", "conversations", ConversationSerializer), **ERRORS},
    )
    def get(self, request):
        search = parse_filters(request).get("search", "")
        page = paginate(request, selectors.conversation_list_for(user=request.user, search=search))
        return envelope({"conversations": [conversation_payload(c) for c in page.items], **page.meta()})


class ConversationStartView(APIView):
    permission_classes = [ChatParty]

    @extend_schema(
        summary="Open the conversation with a host (renter) or a renter (host, subHost)",
        description="Send `userId` (`/message?userId=`), `listingId` (renter) or `bookingId`. "
        "Answers the existing conversation of the pair when there is one (200), else a new one (201).",
        request=StartInput,
        responses={
            200: enveloped("ConversationStartResponse", ConversationSerializer()),
            201: enveloped("ConversationStartCreatedResponse", ConversationSerializer()),
            **ERRORS,
        },
    )
    def post(self, request):
        body = StartInput(data=request.data)
        body.is_valid(raise_exception=True)
        listing = None
        if "listingId" in body.validated_data:
            listing = listing_get_for(user=request.user, listing_id=body.validated_data["listingId"])
        conversation, created = services.conversation_start(
            user=request.user,
            user_id=body.validated_data.get("userId"),
            listing=listing,
            booking_id=body.validated_data.get("bookingId"),
        )
        conversation = selectors.conversation_get_for(user=request.user, id=conversation.pk)
        message = "Conversation started." if created else "Conversation found."
        return envelope(conversation_payload(conversation), message, status=201 if created else 200)


class ConversationDetailView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="One conversation of the caller",
        responses={200: enveloped("ConversationResponse", ConversationSerializer()), **ERRORS},
    )
    def get(self, request, conversation_id):
        return envelope(conversation_payload(selectors.conversation_get_for(user=request.user, id=conversation_id)))


class MessageListView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Messages of a conversation, newest first (page 1 is the latest)",
        description="Page size 10 by default; `limit` up to 50. `before` (a message id of the conversation): "
        'only the messages older than it, pages counted from there (what "load earlier" asks for; '
        "`totalCount` is then the number of older messages).",
        parameters=[*PAGE_PARAMS, OpenApiParameter("before", OpenApiTypes.UUID)],
        responses={200: _page_schema("MessageListResponse", "messages", MessageSerializer), **ERRORS},
    )
    def get(self, request, conversation_id):
        conversation = selectors.conversation_ref_for(user=request.user, id=conversation_id)
        before = request.query_params.get("before") or None
        messages = selectors.message_list_for(conversation=conversation, before=before)
        return envelope(_message_page(request, messages))


class DisputeConversationView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(
        summary="Admin and moderator read the renter-host conversation of a disputed booking",
        description="Read only: the conversation (null when the two never wrote to each other) and its "
        "messages newest first, page size 10 by default; `limit` up to 50.",
        parameters=PAGE_PARAMS,
        responses={
            200: enveloped(
                "DisputeConversationResponse",
                inline_serializer(
                    name="DisputeConversationData",
                    fields={
                        "conversation": ConversationSerializer(allow_null=True),
                        "messages": MessageSerializer(many=True),
                        "totalCount": serializers.IntegerField(),
                        "page": serializers.IntegerField(),
                        "limit": serializers.IntegerField(),
                        "totalPages": serializers.IntegerField(),
                    },
                ),
            ),
            **ERRORS,
        },
    )
    def get(self, request, dispute_id):
        conversation = selectors.conversation_of_dispute_for(user=request.user, dispute_id=dispute_id)
        messages = selectors.message_list_for(conversation=conversation) if conversation else Message.objects.none()
        payload = conversation_payload(conversation) if conversation else None
        return envelope({"conversation": payload, **_message_page(request, messages)})


class MessageSendView(APIView):
    permission_classes = [AnyRole]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "chat_send"  # per user: 30 a minute, then 429 with Retry-After

    @extend_schema(
        summary="Send a message: text and/or up to 5 attachments (multipart `attachments`)",
        request={
            "application/json": SendInput,
            "multipart/form-data": SendInput,
        },
        responses={201: enveloped("MessageSendResponse", MessageSerializer()), **ERRORS, 429: ERROR_ENVELOPE},
    )
    def post(self, request, conversation_id):
        conversation = selectors.conversation_get_for(user=request.user, id=conversation_id)
        body = SendInput(data={"text": request.data.get("text", "")} if hasattr(request.data, "get") else request.data)
        body.is_valid(raise_exception=True)
        files = request.FILES.getlist("attachments") if request.FILES else []
        message = services.message_send(
            user=request.user, conversation=conversation, text=body.validated_data.get("text", ""), files=files
        )
        return envelope(message_payload(message), "Message sent.", status=201)


class ConversationMarkReadView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Mark the other side's messages in a conversation read",
        request=None,
        responses={
            200: enveloped(
                "ConversationMarkReadResponse", inline_serializer("ChatRead", {"updated": serializers.IntegerField()})
            ),
            **ERRORS,
        },
    )
    def patch(self, request, conversation_id):
        conversation = selectors.conversation_get_for(user=request.user, id=conversation_id)
        updated = services.conversation_mark_read(user=request.user, conversation=conversation)
        return envelope({"updated": updated}, "Messages marked as read.")


class MessageNotificationsView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Unread message notifications: one per conversation with unread messages (the Message count)",
        responses={
            200: enveloped(
                "MessageNotificationsResponse",
                inline_serializer(
                    "MessageNotificationsData",
                    {
                        "notifications": MessageNotificationSerializer(many=True),
                        "totalCount": serializers.IntegerField(),
                        "totalUnread": serializers.IntegerField(),
                    },
                ),
            ),
            **ERRORS,
        },
    )
    def get(self, request):
        entries = selectors.message_notifications_for(user=request.user)
        data = {
            "notifications": [message_notification_payload(e) for e in entries],
            "totalCount": len(entries),
            "totalUnread": sum(e["count"] for e in entries),
        }
        return envelope(data)


class AttachmentView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Download an attachment of one of the caller's conversations",
        responses={**PRIVATE_FILE_RESPONSES, **ERRORS},
    )
    def get(self, request, attachment_id):
        attachment = selectors.attachment_get_for(user=request.user, id=attachment_id)
        return private_file_response(
            attachment.file,
            name=attachment.name,
            content_type=attachment.content_type,
            missing_message="Attachment not found.",
        )
