import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Notification(models.Model):
    """One line in a user's bell: what happened (content), where to look (link), read and seen state.

    ``kind`` is one of ``kinds.KINDS`` (checked by ``services.notify``, not by a database constraint,
    so a new kind needs no migration); ``type`` is its category. ``is_deleted`` hides it (``PATCH delete/{id}``); rows are never shown to anyone but ``user``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=32)
    type = models.CharField(max_length=32)
    content = models.CharField(max_length=1000)
    link = models.CharField(max_length=500, blank=True)
    read = models.BooleanField(default=False)
    seen = models.BooleanField(default=False)
    is_deleted = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The list: one user's live rows, newest first.
            models.Index(
                fields=["user", "-created_at", "-id"], condition=Q(is_deleted=False), name="notification_user_list"
            ),
            # totalUnread and the unread-only list.
            models.Index(
                fields=["user", "-created_at"], condition=Q(is_deleted=False, read=False), name="notification_unread"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class NotificationCount(models.Model):
    """One user's live notifications (``total``) and unread ones (``unread``), for the bell and the list.

    Kept by PostgreSQL in the same statement as every write to ``Notification`` (statement-level
    triggers over the inserted, updated and deleted rows, migration 0002), so any path that writes
    notifications (``notify``, the mark and delete actions, a bulk seed) moves the counts in the
    same transaction, and reading them is one row instead of a count over the user's rows.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="notification_count"
    )
    total = models.IntegerField(default=0)
    unread = models.IntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.unread}/{self.total} for {self.user_id}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (endpoint and keys from PushManager.subscribe) for one user."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"push subscription of {self.user_id}"

    def info(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
