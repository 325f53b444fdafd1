"""The premium membership: the plans a host can buy and each host's membership.

The tables keep the names they had when the payments app held them (``payments_plan``,
``payments_subscription``); the payments app keeps the billing (``SubscriptionPayment``).
"""

import uuid
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

ZERO = Decimal("0.00")


class Plan(models.Model):
    """A membership plan hosts can buy. ``features`` is a list of ``{"bold": ..., "normal": ...}``."""

    class Interval(models.TextChoices):
        YEAR = "year", "Year"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan_id = models.SlugField(max_length=60, unique=True, help_text="Stable public identifier, e.g. premium-annual.")
    plan_name = models.CharField(max_length=80)
    description = models.TextField(max_length=2000, blank=True)
    total_amount = models.DecimalField(max_digits=12, decimal_places=2, default=ZERO)
    interval = models.CharField(max_length=8, choices=Interval.choices, default=Interval.YEAR)
    features = models.JSONField(default=list, blank=True)
    is_active = models.BooleanField(default=True)
    sort_order = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "payments_plan"
        ordering = ["sort_order", "total_amount"]
        constraints = [
            models.CheckConstraint(condition=Q(total_amount__gt=0), name="plan_amount_positive"),
            models.CheckConstraint(condition=Q(interval__in=["year"]), name="plan_interval_valid"),
        ]

    def __str__(self) -> str:
        return self.plan_name


class SubscriptionType(models.TextChoices):
    FREE = "free", "Free"
    PREMIUM = "premium", "Premium"


class SubscriptionStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    CANCELLED = "cancelled", "Cancelled"
    EXPIRED = "expired", "Expired"


class SubscriptionSource(models.TextChoices):
    NONE = "none", "None"
    STRIPE = "stripe", "Stripe"
    LOCAL = "local", "Local checkout"
    ADMIN = "admin", "Given by an admin"


class Subscription(models.Model):
    """A host's membership (one row per host; a subHost acts for its host's row)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    host = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="subscription")
    type = models.CharField(max_length=8, choices=SubscriptionType.choices, default=SubscriptionType.FREE)
    status = models.CharField(max_length=10, choices=SubscriptionStatus.choices, default=SubscriptionStatus.ACTIVE)
    subscription_source = models.CharField(
        max_length=8, choices=SubscriptionSource.choices, default=SubscriptionSource.NONE
    )
    plan = models.ForeignKey(Plan, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    start_date = models.DateTimeField(null=True, blank=True)
    next_billing_date = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    expired_at = models.DateTimeField(null=True, blank=True)
    gateway_subscription_id = models.CharField(max_length=120, blank=True, db_index=True)
    gateway_customer_id = models.CharField(max_length=120, blank=True)
    gateway_synced_at = models.DateTimeField(
        null=True, blank=True, help_text="Time of the newest gateway event applied (older ones are ignored)."
    )
    deletion_warning_sent_at = models.DateTimeField(null=True, blank=True)
    premium_listings_deleted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "payments_subscription"
        constraints = [
            models.CheckConstraint(condition=Q(type__in=SubscriptionType.values), name="subscription_type_valid"),
            models.CheckConstraint(condition=Q(status__in=SubscriptionStatus.values), name="subscription_status_valid"),
            models.CheckConstraint(
                condition=Q(subscription_source__in=SubscriptionSource.values), name="subscription_source_valid"
            ),
            models.CheckConstraint(
                condition=Q(type="free") | Q(start_date__isnull=False, next_billing_date__isnull=False),
                name="subscription_premium_has_dates",
            ),
        ]
        indexes = [models.Index(fields=["type", "status", "next_billing_date"])]

    def __str__(self) -> str:
        return f"{self.type} membership of {self.host_id}"

    @property
    def is_premium_now(self) -> bool:
        return (
            self.type == SubscriptionType.PREMIUM
            and self.status == SubscriptionStatus.ACTIVE
            and self.next_billing_date is not None
            and self.next_billing_date > timezone.now()
        )
