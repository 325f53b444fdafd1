"""Platform records every app shares: the outbox of effects, and the history of status changes."""

import uuid

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.utils import timezone


class EffectStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DONE = "done", "Done"
    FAILED = "failed", "Failed (stopped retrying)"


class Effect(models.Model):
    """Something that must happen because a change committed: a capture, a refund, a payout
    transfer, a notification's e-mail, push or live event.

    Written in the same transaction as the change (so it exists exactly when the change does),
    carried out by the worker (``apps.core.effects``), retried with backoff, and shown to staff
    when it keeps failing. ``key`` is unique: queueing the same effect twice keeps one row, and
    the key goes to the payment gateway as its idempotency key.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=60, help_text="The handler that carries it out, e.g. payments.capture.")
    key = models.CharField(max_length=200, unique=True, help_text="Idempotency key (also sent to the gateway).")
    payload = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=EffectStatus.choices, default=EffectStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=EffectStatus.values), name="effect_status_valid"),
        ]
        indexes = [
            models.Index(fields=["next_attempt_at"], condition=Q(status="pending"), name="effect_due"),
            models.Index(fields=["status", "attempts"], name="effect_status_attempts"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} ({self.status}, {self.attempts} attempts)"


class StatusChange(models.Model):
    """One status change of any record that has a status machine: who, when, from, to, why."""

    id = models.BigAutoField(primary_key=True)
    machine = models.CharField(max_length=30, help_text="booking, extension, dispute, payment, payout, ...")
    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE, related_name="+")
    object_id = models.CharField(max_length=64)
    subject = GenericForeignKey("content_type", "object_id")
    from_status = models.CharField(max_length=20, blank=True)
    to_status = models.CharField(max_length=20)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=1000, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["content_type", "object_id", "created_at"], name="status_change_subject")]

    def __str__(self) -> str:
        return f"{self.machine} {self.object_id}: {self.from_status or '-'} -> {self.to_status}"


class InstanceClaim(models.Model):
    """Which instance of the site this database belongs to (one row): claimed by the first worker that
    serves it, compared by every worker at start with the instance whose queues it takes
    (``apps.core.instances``), so a worker never runs one instance's work against another's data."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1, editable=False)
    name = models.CharField(max_length=63, help_text="The INSTANCE_NAME whose workers serve this database.")
    claimed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(id=1), name="instance_claim_single_row")]

    def __str__(self) -> str:
        return self.name
