"""Reads of notifications, always limited to the caller's own."""

import uuid

from django.db.models import QuerySet

from apps.core.exceptions import NotFound

from .models import Notification, NotificationCount


def notification_list_for(*, user, unread_only: bool) -> QuerySet[Notification]:
    qs = Notification.objects.filter(user=user, is_deleted=False)
    if unread_only:
        qs = qs.filter(read=False)
    return qs.order_by("-created_at", "-id")


def notification_counts(*, user) -> tuple[int, int]:
    """``(live, unread)`` notifications of ``user``: one row the database keeps with every write."""
    return NotificationCount.objects.filter(user_id=user.pk).values_list("total", "unread").first() or (0, 0)


def notification_unread_count(*, user) -> int:
    return notification_counts(user=user)[1]


def notification_get_for(*, user, id) -> Notification:
    """The caller's own notification, else 404 (another user's is indistinguishable from none)."""
    try:
        key = uuid.UUID(str(id))
    except ValueError:
        raise NotFound("Notification not found.") from None
    notification = Notification.objects.filter(id=key, user=user, is_deleted=False).first()
    if notification is None:
        raise NotFound("Notification not found.")
    return notification
