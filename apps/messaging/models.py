import uuid

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Side(models.TextChoices):
    RENTER = "renter", "Renter"
    HOST = "host", "Host"


def private_storage() -> FileSystemStorage:
    """Chat attachments live outside the public uploads; they are served only to the conversation."""
    return FileSystemStorage(location=settings.DATA_DIR / "private")


def attachment_path(instance: "Attachment", filename: str) -> str:
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else "bin"
    return f"chat/{instance.message.conversation_id}/{uuid.uuid4().hex}.{extension}"


class Conversation(models.Model):
    """The one thread between a renter and a host; the host's subHosts answer for the host.

    ``listing`` and ``booking_id`` remember what the conversation was last started from.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    renter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    listing = models.ForeignKey("listings.Listing", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    booking_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_message_at = models.DateTimeField(default=timezone.now)
    last_message_text = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-last_message_at"]
        constraints = [
            models.UniqueConstraint(fields=["renter", "host"], name="conversation_one_per_pair"),
            models.CheckConstraint(condition=~Q(renter=models.F("host")), name="conversation_two_people"),
        ]
        indexes = [
            models.Index(fields=["renter", "-last_message_at"]),
            models.Index(fields=["host", "-last_message_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.renter_id} ↔ {self.host_id}"

    def side_of(self, user) -> str | None:
        """Which side ``user`` speaks for, or None when they are not part of it."""
        if user.pk == self.renter_id:
            return Side.RENTER
        if user.acting_host_id is not None and user.acting_host_id == self.host_id:
            return Side.HOST
        return None


class Message(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sender_side = models.CharField(max_length=8, choices=Side.choices)
    text = models.TextField(max_length=5000, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(sender_side__in=Side.values), name="message_side_valid")]
        indexes = [
            # The thread's order: pages and the keyset of "load earlier" read it without a sort.
            models.Index(fields=["conversation", "-created_at", "-id"], name="message_thread"),
            models.Index(
                fields=["conversation", "sender_side"], condition=Q(read_at__isnull=True), name="message_unread"
            ),
        ]

    def __str__(self) -> str:
        return f"message {self.id} in {self.conversation_id}"


class Attachment(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField(upload_to=attachment_path, storage=private_storage, max_length=300)
    name = models.CharField(max_length=200)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
