"""Notifications API (spec section 7, Notifications): only ever the caller's own notifications.

The earlier client sent the mark calls without a token; here every call needs a signed-in
caller (bearer token or session cookie with CSRF), see docs/decisions/messaging/.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.views import APIView

from apps.core import filters
from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, paginate, parse_filters
from apps.core.permissions import AnyRole, NotRenter

from . import selectors, services
from .counters import pending_counters
from .push import vapid_keys
from .serializers import (
    MarkAllSerializer,
    NotificationListSerializer,
    NotificationStateSerializer,
    NotificationUpdateInput,
    PendingCounterSerializer,
    PushPublicKeySerializer,
    PushSubscribeInput,
    PushSubscriptionSerializer,
    PushUnsubscribeInput,
)

ERRORS = dict.fromkeys((400, 401, 403, 404), ERROR_ENVELOPE)
TRUE, FALSE = (*filters.TRUE, "yes"), (*filters.FALSE, "no")


class NotificationListView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="The caller's notifications, newest first",
        description="Unread ones by default; `filters[all]=true` lists read ones too. Page size 10.",
        parameters=[
            OpenApiParameter("page", int),
            OpenApiParameter("limit", int),
            OpenApiParameter("filters[all]", OpenApiTypes.BOOL),
        ],
        responses={200: enveloped("NotificationListResponse", NotificationListSerializer()), **ERRORS},
    )
    def get(self, request):
        show_all = bool(filters.filter_flag(parse_filters(request), "all", true=TRUE, false=FALSE))
        total, unread = selectors.notification_counts(user=request.user)
        rows = selectors.notification_list_for(user=request.user, unread_only=not show_all)
        page = paginate(request, rows, total=total if show_all else unread)
        data = {
            "notifications": [services.notification_payload(n) for n in page.items],
            "totalUnread": unread,
            **page.meta(),
        }
        return envelope(data)


class NotificationMarkReadView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Mark one of the caller's notifications read",
        request=None,
        responses={200: enveloped("NotificationMarkReadResponse", NotificationStateSerializer()), **ERRORS},
    )
    def patch(self, request, notification_id):
        notification = selectors.notification_get_for(user=request.user, id=notification_id)
        notification = services.notification_mark_read(notification=notification)
        data = {
            "notification": services.notification_payload(notification),
            "totalUnread": selectors.notification_unread_count(user=request.user),
        }
        return envelope(data, "Notification marked as read.")


class NotificationMarkAllReadView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Mark all of the caller's notifications read",
        request=None,
        responses={200: enveloped("NotificationMarkAllReadResponse", MarkAllSerializer()), **ERRORS},
    )
    def patch(self, request):
        updated = services.notification_mark_all_read(user=request.user)
        return envelope({"updated": updated, "totalUnread": 0}, "All notifications marked as read.")


class NotificationUpdateView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Set read and/or seen on one of the caller's notifications",
        request=NotificationUpdateInput,
        responses={200: enveloped("NotificationUpdateResponse", NotificationStateSerializer()), **ERRORS},
    )
    def patch(self, request, notification_id):
        notification = selectors.notification_get_for(user=request.user, id=notification_id)
        body = NotificationUpdateInput(data=request.data)
        body.is_valid(raise_exception=True)
        notification = services.notification_update(notification=notification, **body.validated_data)
        data = {
            "notification": services.notification_payload(notification),
            "totalUnread": selectors.notification_unread_count(user=request.user),
        }
        return envelope(data, "Notification updated.")


class NotificationDeleteView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Delete (hide) one of the caller's notifications",
        request=None,
        responses={200: enveloped("NotificationDeleteResponse", MarkAllSerializer()), **ERRORS},
    )
    def patch(self, request, notification_id):
        notification = selectors.notification_get_for(user=request.user, id=notification_id)
        services.notification_delete(notification=notification)
        data = {"updated": 1, "totalUnread": selectors.notification_unread_count(user=request.user)}
        return envelope(data, "Notification deleted.")


class PendingCounterView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        summary="The dashboard menu's pending counters for the caller's role",
        responses={200: enveloped("PendingCounterResponse", PendingCounterSerializer()), **ERRORS},
    )
    def get(self, request):
        return envelope(pending_counters(request.user))


class PushPublicKeyView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="The server's VAPID public key (applicationServerKey for PushManager.subscribe)",
        responses={200: enveloped("PushPublicKeyResponse", PushPublicKeySerializer()), **ERRORS},
    )
    def get(self, request):
        return envelope({"publicKey": vapid_keys()["publicKey"]})


class PushSubscribeView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Save this browser's push subscription for the signed-in user",
        request=PushSubscribeInput,
        responses={
            201: enveloped("PushSubscribeResponse", PushSubscriptionSerializer()),
            200: enveloped("PushSubscribeUpdatedResponse", PushSubscriptionSerializer()),
            **ERRORS,
        },
    )
    def post(self, request):
        body = PushSubscribeInput(data=request.data)
        body.is_valid(raise_exception=True)
        subscription, created = services.push_subscribe(
            user=request.user,
            endpoint=body.validated_data["endpoint"],
            p256dh=body.validated_data["keys"]["p256dh"],
            auth=body.validated_data["keys"]["auth"],
            user_agent=request.headers.get("User-Agent", ""),
        )
        data = {
            "_id": str(subscription.pk),
            "endpoint": subscription.endpoint,
            "createdAt": subscription.created_at.isoformat().replace("+00:00", "Z"),
        }
        return envelope(data, "Push notifications are on for this browser.", status=201 if created else 200)


class PushUnsubscribeView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        summary="Forget this browser's push subscription",
        request=PushUnsubscribeInput,
        responses={200: enveloped("PushUnsubscribeResponse", MarkAllSerializer()), **ERRORS},
    )
    def post(self, request):
        body = PushUnsubscribeInput(data=request.data)
        body.is_valid(raise_exception=True)
        deleted = services.push_unsubscribe(user=request.user, endpoint=body.validated_data["endpoint"])
        return envelope({"updated": deleted, "totalUnread": 0}, "Push notifications are off for this browser.")
