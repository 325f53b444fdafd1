"""Money: premium plans and memberships, booking payments, refunds, invoices, payouts, webhooks.

Amounts are NUMERIC with two places. Every status is a TextChoices backed by a CheckConstraint,
and every status change goes through one service in ``services.py`` / ``subscriptions.py``.
"""

import uuid
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

ZERO = Decimal("0.00")


def money(**kwargs) -> models.DecimalField:
    kwargs.setdefault("default", ZERO)
    return models.DecimalField(max_digits=12, decimal_places=2, **kwargs)


class Gateway(models.TextChoices):
    STRIPE = "stripe", "Stripe"
    LOCAL = "local", "Local checkout"


# --- Premium membership --------------------------------------------------------------------------


class Plan(models.Model):
    """A membership plan hosts can buy. ``features`` is a list of ``{"bold": ..., "normal": ...}``."""

    class Interval(models.TextChoices):
        YEAR = "year", "Year"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan_id = models.SlugField(max_length=60, unique=True, help_text="Stable public identifier, e.g. premium-annual.")
    plan_name = models.CharField(max_length=80)
    description = models.TextField(max_length=2000, blank=True)
    total_amount = money()
    interval = models.CharField(max_length=8, choices=Interval.choices, default=Interval.YEAR)
    features = models.JSONField(default=list, blank=True)
    is_active = models.BooleanField(default=True)
    sort_order = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
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


class SubscriptionPaymentStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    COMPLETED = "completed", "Completed"
    CANCELLED = "cancelled", "Cancelled"
    FAILED = "failed", "Failed"


class SubscriptionPayment(models.Model):
    """One payment of a host for a membership period (the "host subscription payment record")."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="subscription_payments")
    subscription = models.ForeignKey(Subscription, on_delete=models.PROTECT, related_name="payments")
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="+")
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    total_amount = money()
    status = models.CharField(
        max_length=10, choices=SubscriptionPaymentStatus.choices, default=SubscriptionPaymentStatus.PENDING
    )
    gateway = models.CharField(max_length=8, choices=Gateway.choices)
    session_id = models.CharField(max_length=120, blank=True)
    gateway_payment_id = models.CharField(
        max_length=120, blank=True, help_text="Payment intent or invoice id at the gateway."
    )
    period_start = models.DateTimeField(null=True, blank=True)
    period_end = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=SubscriptionPaymentStatus.values), name="subscription_payment_status_valid"
            ),
            models.CheckConstraint(condition=Q(total_amount__gt=0), name="subscription_payment_amount_positive"),
            models.UniqueConstraint(
                fields=["session_id"], condition=~Q(session_id=""), name="subscription_payment_session_unique"
            ),
            models.UniqueConstraint(
                fields=["gateway_payment_id"],
                condition=~Q(gateway_payment_id=""),
                name="subscription_payment_gateway_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.total_amount} {self.status} for {self.host_id}"


# --- Gateway bookkeeping -------------------------------------------------------------------------


class CheckoutPurpose(models.TextChoices):
    SUBSCRIPTION = "subscription", "Premium membership"
    BOOKING = "booking", "Booking"
    EXTENSION = "extension", "Booking extension"


class LocalCheckoutSession(models.Model):
    """A checkout session of the local gateway (no keys needed): paid on the site's own page."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        COMPLETE = "complete", "Complete"
        CANCELLED = "cancelled", "Cancelled"

    id = models.CharField(primary_key=True, max_length=64)
    purpose = models.CharField(max_length=12, choices=CheckoutPurpose.choices)
    reference = models.CharField(max_length=64, help_text="Id of the record being paid for.")
    amount = money()
    description = models.CharField(max_length=300)
    terms = models.TextField(blank=True)
    customer_email = models.EmailField(blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    capture_later = models.BooleanField(default=False)
    success_url = models.URLField(max_length=2000)
    cancel_url = models.URLField(max_length=2000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    payment_intent_id = models.CharField(max_length=64, blank=True)
    subscription_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(status__in=["open", "complete", "cancelled"]), name="local_cs_status"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="local_cs_amount_positive"),
        ]

    def __str__(self) -> str:
        return self.id


class WebhookEvent(models.Model):
    """Every gateway event, stored by its id so that a duplicate delivery changes nothing."""

    id = models.CharField(primary_key=True, max_length=120)
    type = models.CharField(max_length=80)
    created = models.DateTimeField(help_text="When the gateway created the event.")
    payload = models.JSONField()
    received_at = models.DateTimeField(default=timezone.now)
    processed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"{self.type} {self.id}"


class HostPayoutAccount(models.Model):
    """A host's connected account at the gateway (Stripe Connect), used for payout transfers."""

    host = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="payout_account"
    )
    stripe_account_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.stripe_account_id or "manual"
