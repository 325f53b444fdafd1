"""Disputes: a renter or host asks the staff to decide on a booking that went wrong.

A dispute is raised with a reason and evidence files; the booking becomes ``disputed``. An admin
or moderator approves it with a refund (full or partial, made through the payments app) or
rejects it with a reason. Evidence files are private: served only to the two parties and staff.
"""

import uuid

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.db import models
from django.db.models import Q
from django.utils import timezone

from apps.core.statemachine import StateMachine


class DisputeStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


# The one table of allowed status changes: a decision is final.
TRANSITIONS: dict[str, frozenset[str]] = {
    DisputeStatus.PENDING: frozenset({DisputeStatus.APPROVED, DisputeStatus.REJECTED}),
    DisputeStatus.APPROVED: frozenset(),
    DisputeStatus.REJECTED: frozenset(),
}
DISPUTE_MACHINE = StateMachine("dispute", TRANSITIONS)

REASON_MAX = 2000
REJECT_REASON_MAX = 1000


def private_storage() -> FileSystemStorage:
    """Evidence lives outside the public uploads; a permission-checked view serves it."""
    return FileSystemStorage(location=settings.DATA_DIR / "private")


def evidence_path(instance: "DisputeEvidence", filename: str) -> str:
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else "bin"
    return f"disputes/{instance.dispute_id}/{uuid.uuid4().hex}.{extension}"


class Dispute(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    booking = models.ForeignKey("bookings.Booking", on_delete=models.PROTECT, related_name="disputes")
    listing = models.ForeignKey("listings.Listing", on_delete=models.PROTECT, related_name="disputes")
    renter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="disputes_as_renter")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="disputes_as_host")
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    payment = models.ForeignKey(
        "payments.Payment",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes",
        help_text="The booking's payment when the dispute was raised (none if nothing was paid online).",
    )
    reason = models.TextField(max_length=REASON_MAX)
    status = models.CharField(max_length=10, choices=DisputeStatus.choices, default=DisputeStatus.PENDING)
    reject_reason = models.TextField(max_length=REJECT_REASON_MAX, blank=True)
    refund_amount = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    refund = models.OneToOneField(
        "payments.Refund", on_delete=models.PROTECT, null=True, blank=True, related_name="dispute"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=DisputeStatus.values), name="dispute_status_valid"),
            models.UniqueConstraint(
                fields=["booking"], condition=Q(status="pending"), name="dispute_one_open_per_booking"
            ),
            models.CheckConstraint(
                condition=~Q(status=DisputeStatus.REJECTED) | ~Q(reject_reason=""), name="dispute_rejection_has_reason"
            ),
            models.CheckConstraint(
                condition=~Q(status=DisputeStatus.APPROVED) | Q(refund_amount__gt=0),
                name="dispute_approval_has_refund",
            ),
            models.CheckConstraint(
                condition=Q(status=DisputeStatus.PENDING) | Q(decided_at__isnull=False),
                name="dispute_decision_has_time",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="dispute_has_reason"),
        ]
        # Each list is served in index order (newest first, id breaking ties), so a page of 10
        # reads 10 rows whatever the table's size; the counters use the status columns.
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="dispute_newest"),
            models.Index(fields=["status", "-created_at", "-id"], name="dispute_status_newest"),
            models.Index(fields=["renter", "-created_at", "-id"], name="dispute_renter_newest"),
            models.Index(fields=["host", "-created_at", "-id"], name="dispute_host_newest"),
            models.Index(fields=["host", "status", "-created_at", "-id"], name="dispute_host_status_newest"),
        ]

    def __str__(self) -> str:
        return f"Dispute {self.pk} ({self.status})"

    def can_change_to(self, status: str) -> bool:
        return status in TRANSITIONS.get(self.status, frozenset())


class DisputeEvidence(models.Model):
    """One evidence file: an image (re-encoded, EXIF dropped) or a PDF."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    dispute = models.ForeignKey(Dispute, on_delete=models.CASCADE, related_name="evidence")
    file = models.FileField(upload_to=evidence_path, storage=private_storage, max_length=300)
    name = models.CharField(max_length=200)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "name"]

    def __str__(self) -> str:
        return self.name
