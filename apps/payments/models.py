"""Money: premium membership payments, booking payments, refunds, invoices, payouts, webhooks.

Amounts are NUMERIC with two places. Every status is a TextChoices backed by a CheckConstraint,
and every status change goes through one service in ``services.py`` / ``subscriptions.py``.
"""

import uuid
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from apps.premium.models import Plan, Subscription

ZERO = Decimal("0.00")


def money(**kwargs) -> models.DecimalField:
    kwargs.setdefault("default", ZERO)
    return models.DecimalField(max_digits=12, decimal_places=2, **kwargs)


class Gateway(models.TextChoices):
    STRIPE = "stripe", "Stripe"
    LOCAL = "local", "Local checkout"


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


# --- Booking payments ----------------------------------------------------------------------------


class PaymentStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    AUTHORIZED = "authorized", "Authorized"
    COMPLETED = "completed", "Completed"
    RELEASED = "released", "Released"
    FAILED = "failed", "Failed"
    REFUNDED = "refunded", "Refunded"
    # The hold lapsed and the bank wants the renter to confirm the charge of the saved card.
    ACTION_REQUIRED = "actionRequired", "Waiting for the renter to pay"


class PaymentType(models.TextChoices):
    ONE_TIME = "oneTime", "One time"
    SUBSCRIPTION = "subscription", "Subscription"


class Payment(models.Model):
    """The renter's payment for one booking: authorised at request, captured on approval.

    ``total_amount`` is the booking's price; ``extended_amount`` what paid extensions added;
    ``refunded_amount`` the sum of its refunds, never more than what was captured.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    booking = models.OneToOneField("bookings.Booking", on_delete=models.PROTECT, related_name="payment")
    listing = models.ForeignKey("listings.Listing", on_delete=models.PROTECT, related_name="payments")
    renter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="payments")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="received_payments")
    type = models.CharField(max_length=12, choices=PaymentType.choices, default=PaymentType.ONE_TIME)
    gateway = models.CharField(max_length=8, choices=Gateway.choices)
    status = models.CharField(max_length=16, choices=PaymentStatus.choices, default=PaymentStatus.PENDING)
    total_amount = money()
    captured_amount = money()
    extended_amount = money()
    refunded_amount = money()
    session_id = models.CharField(max_length=120, blank=True)
    payment_id = models.CharField(max_length=120, blank=True, help_text="The gateway's payment intent id.")
    authorized_at = models.DateTimeField(null=True, blank=True)
    captured_at = models.DateTimeField(null=True, blank=True)
    customer_id = models.CharField(max_length=120, blank=True, help_text="The gateway's customer (saved card).")
    payment_method_id = models.CharField(
        max_length=120, blank=True, help_text="The card saved for a charge without the renter, if the hold lapses."
    )
    pay_by = models.DateTimeField(
        null=True, blank=True, help_text="When the renter must have paid (actionRequired); the booking expires then."
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=PaymentStatus.values), name="payment_status_valid"),
            models.CheckConstraint(condition=Q(type__in=PaymentType.values), name="payment_type_valid"),
            models.CheckConstraint(
                condition=Q(total_amount__gt=0)
                & Q(captured_amount__gte=0)
                & Q(extended_amount__gte=0)
                & Q(refunded_amount__gte=0),
                name="payment_amounts_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(refunded_amount__lte=models.F("captured_amount") + models.F("extended_amount")),
                name="payment_refund_not_more_than_paid",
            ),
            models.UniqueConstraint(fields=["session_id"], condition=~Q(session_id=""), name="payment_session_unique"),
            models.UniqueConstraint(fields=["payment_id"], condition=~Q(payment_id=""), name="payment_intent_unique"),
        ]
        indexes = [models.Index(fields=["host", "-created_at"]), models.Index(fields=["renter", "-created_at"])]

    def __str__(self) -> str:
        return f"Payment {self.total_amount} for booking {self.booking_id} ({self.status})"

    @property
    def paid_amount(self):
        return self.captured_amount + self.extended_amount - self.refunded_amount


class ExtensionCharge(models.Model):
    """The difference a renter pays for an approved extension (charged at once, not held)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        COMPLETED = "completed", "Completed"
        CANCELLED = "cancelled", "Cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="extension_charges")
    extension = models.ForeignKey("bookings.ExtendBooking", on_delete=models.PROTECT, related_name="charges")
    amount = money()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    session_id = models.CharField(max_length=120, blank=True)
    intent_id = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="extension_charge_amount_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "completed", "cancelled"]), name="extension_charge_status_valid"
            ),
            models.UniqueConstraint(
                fields=["extension"], condition=Q(status="completed"), name="extension_charged_once"
            ),
            # One checkout at a time per extension: a second one reuses it (services.payment_checkout_start).
            models.UniqueConstraint(
                fields=["extension"], condition=Q(status="pending"), name="extension_one_open_charge"
            ),
            models.UniqueConstraint(
                fields=["session_id"], condition=~Q(session_id=""), name="extension_charge_session_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"Extension charge {self.amount} ({self.status})"


class Refund(models.Model):
    """Money going back to the renter. Recorded (pending) with the decision that causes it, so what
    is left to refund is always right; the worker sends it to the gateway and completes it."""

    class Source(models.TextChoices):
        CANCELLATION = "cancellation", "Cancellation policy"
        DISPUTE = "dispute", "Approved dispute"
        GATEWAY = "gateway", "Made at the payment provider"

    class Status(models.TextChoices):
        PENDING = "pending", "Being sent to the payment provider"
        COMPLETED = "completed", "Refunded"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="refunds")
    amount = money()
    source = models.CharField(max_length=12, choices=Source.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.COMPLETED)
    reason = models.CharField(max_length=500, blank=True)
    gateway_refund_id = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="refund_amount_positive"),
            models.CheckConstraint(
                condition=Q(source__in=["cancellation", "dispute", "gateway"]), name="refund_source_valid"
            ),
            models.CheckConstraint(condition=Q(status__in=["pending", "completed"]), name="refund_status_valid"),
            models.CheckConstraint(
                condition=Q(status="pending") | ~Q(gateway_refund_id=""), name="refund_completed_has_gateway_id"
            ),
            models.UniqueConstraint(
                fields=["gateway_refund_id"], condition=~Q(gateway_refund_id=""), name="refund_gateway_id_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"Refund {self.amount} of {self.payment_id}"


# --- Invoices ------------------------------------------------------------------------------------


class InvoiceKind(models.TextChoices):
    INVOICE = "invoice", "Invoice"
    CREDIT_NOTE = "creditNote", "Credit note"


class InvoiceCounter(models.Model):
    """The last number used per series and year; locked while a number is taken, so numbers have no gaps."""

    kind = models.CharField(max_length=12, choices=InvoiceKind.choices)
    year = models.PositiveSmallIntegerField()
    last_number = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "year"], name="invoice_counter_unique")]

    def __str__(self) -> str:
        return f"{self.kind} {self.year}: {self.last_number}"


class Invoice(models.Model):
    """An invoice for each captured amount, a credit note for each refund."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=12, choices=InvoiceKind.choices, default=InvoiceKind.INVOICE)
    year = models.PositiveSmallIntegerField()
    sequence = models.PositiveIntegerField()
    number = models.CharField(max_length=30, unique=True)
    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="invoices")
    extension_charge = models.OneToOneField(
        ExtensionCharge, null=True, blank=True, on_delete=models.PROTECT, related_name="invoice"
    )
    refund = models.OneToOneField(Refund, null=True, blank=True, on_delete=models.PROTECT, related_name="credit_note")
    amount = money()
    issued_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-issued_at"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "year", "sequence"], name="invoice_number_unique_per_year"),
            models.UniqueConstraint(
                fields=["payment"],
                condition=Q(kind="invoice", extension_charge__isnull=True),
                name="invoice_one_per_capture",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="invoice_amount_positive"),
            models.CheckConstraint(
                condition=Q(kind="invoice", refund__isnull=True) | Q(kind="creditNote", refund__isnull=False),
                name="invoice_credit_note_has_refund",
            ),
        ]

    def __str__(self) -> str:
        return self.number


# --- Payouts -------------------------------------------------------------------------------------


class PayoutStatus(models.TextChoices):
    ONHOLD = "onhold", "Pending"
    RELEASED = "released", "Approved"
    FAILED = "failed", "Rejected"


class Payout(models.Model):
    """A host's request to be paid its available balance; the admin releases, holds or fails it."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="payouts")
    amount = money()
    status = models.CharField(max_length=10, choices=PayoutStatus.choices, default=PayoutStatus.ONHOLD)
    method = models.CharField(max_length=10, default="manual", help_text="stripe (Connect transfer) or manual.")
    transfer_id = models.CharField(max_length=120, blank=True)
    note = models.CharField(max_length=500, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now, db_index=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="payout_amount_positive"),
            models.CheckConstraint(condition=Q(status__in=PayoutStatus.values), name="payout_status_valid"),
            models.CheckConstraint(condition=Q(method__in=["stripe", "manual"]), name="payout_method_valid"),
            models.UniqueConstraint(fields=["host"], condition=Q(status="onhold"), name="payout_one_open_per_host"),
        ]

    def __str__(self) -> str:
        return f"Payout {self.amount} to {self.host_id} ({self.status})"


class Earning(models.Model):
    """A host's share of one completed booking: captured and extended amounts less commission and
    refunds. It belongs to at most one payout that is not failed."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="earnings")
    payment = models.OneToOneField(Payment, on_delete=models.PROTECT, related_name="earning")
    gross_amount = money()
    commission = money()
    refunded_amount = money()
    amount = money()
    payout = models.ForeignKey(Payout, null=True, blank=True, on_delete=models.PROTECT, related_name="earnings")
    available_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-available_at"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="earning_not_negative"),
            models.CheckConstraint(
                condition=Q(amount=models.F("gross_amount") - models.F("commission") - models.F("refunded_amount")),
                name="earning_is_gross_less_commission_and_refunds",
            ),
        ]

    def __str__(self) -> str:
        return f"Earning {self.amount} for {self.host_id}"
