"""Input and output shapes of the payments API (spec section 3 and 7: camelCase, ``_id``).

Money goes out as a string with two decimals ("199.00") so no client sees a float.
"""

from decimal import Decimal

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.bookings.models import BookingStatus
from apps.bookings.times import format_moment, zone_of
from apps.core.serializers import ApiModelSerializer, WithStatusHistory, money_input
from apps.listings.models import PropertyType
from apps.premium.models import Plan, Subscription, SubscriptionStatus
from apps.premium.policies import deletion_at, subscription_benefits

from .models import Gateway, InvoiceKind, PaymentStatus, PaymentType, PayoutStatus, Refund, SubscriptionPayment


def _decimal_messages(label: str) -> dict:
    return {
        "invalid": f"{label} must be a number.",
        "required": f"{label} is required.",
        "null": f"{label} is required.",
        "max_digits": f"{label} is too large.",
        "max_whole_digits": f"{label} is too large.",
        "max_decimal_places": f"{label} may have at most 2 decimal places.",
        "min_value": f"{label} must be more than 0.",
        "max_value": f"{label} is too large.",
    }


# --- Plans and memberships -----------------------------------------------------------------------


class PlanFeatureSerializer(serializers.Serializer):
    bold = serializers.CharField()
    normal = serializers.CharField()


class PlanSerializer(ApiModelSerializer):
    features = serializers.SerializerMethodField()

    class Meta:
        model = Plan
        fields = ["id", "plan_id", "plan_name", "description", "total_amount", "interval", "features"]
        read_only_fields = fields

    @extend_schema_field(PlanFeatureSerializer(many=True))
    def get_features(self, plan: Plan) -> list[dict]:
        return [
            {"bold": str(item.get("bold", "")), "normal": str(item.get("normal", ""))}
            for item in plan.features
            if isinstance(item, dict)
        ]


class PremiumPlanSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    planId = serializers.CharField(source="plan_id")
    planName = serializers.CharField(source="plan_name")
    price = serializers.DecimalField(source="total_amount", max_digits=12, decimal_places=2)
    interval = serializers.ChoiceField(choices=Plan.Interval.choices)


def _premium_end(sub: Subscription):
    if sub.status == "cancelled" and sub.cancelled_at:
        return min(sub.cancelled_at, sub.next_billing_date or sub.cancelled_at)
    return sub.next_billing_date


class PremiumPartSerializer(serializers.Serializer):
    """The premium part of a host's subscription (null for a free membership)."""

    status = serializers.ChoiceField(choices=SubscriptionStatus.choices)
    startDate = serializers.DateTimeField(allow_null=True)
    nextBillingDate = serializers.DateTimeField(allow_null=True)
    plan = PremiumPlanSerializer(allow_null=True)
    endDate = serializers.DateTimeField(
        allow_null=True, help_text="When the membership ends or ended (a cancellation ends it at once)."
    )


class BenefitsSerializer(serializers.Serializer):
    isPremium = serializers.BooleanField()
    activeListingLimit = serializers.IntegerField(allow_null=True, help_text="Null: no limit (premium).")
    featuredListings = serializers.BooleanField()
    premiumBadge = serializers.BooleanField()


class SubscriptionSerializer(ApiModelSerializer):
    premiumSubscription = serializers.SerializerMethodField()
    cancelledAt = serializers.DateTimeField(source="cancelled_at", allow_null=True)
    premiumListingsDeletionDate = serializers.SerializerMethodField()
    benefits = serializers.SerializerMethodField()

    class Meta:
        model = Subscription
        fields = [
            "id",
            "type",
            "status",
            "subscription_source",
            "start_date",
            "next_billing_date",
            "premiumSubscription",
            "cancelledAt",
            "premiumListingsDeletionDate",
            "benefits",
        ]
        read_only_fields = fields

    @extend_schema_field(PremiumPartSerializer(allow_null=True))
    def get_premiumSubscription(self, sub: Subscription) -> dict | None:
        if sub.type != "premium":
            return None
        return {
            "status": sub.status,
            "startDate": serializers.DateTimeField().to_representation(sub.start_date) if sub.start_date else None,
            "nextBillingDate": serializers.DateTimeField().to_representation(sub.next_billing_date)
            if sub.next_billing_date
            else None,
            "plan": PremiumPlanSerializer(sub.plan).data if sub.plan else None,
            # When the membership ends (or ended): the cancellation ends it at once, else the period's end.
            "endDate": serializers.DateTimeField().to_representation(end) if (end := _premium_end(sub)) else None,
        }

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_premiumListingsDeletionDate(self, sub: Subscription) -> str | None:
        if sub.status != "cancelled" or not sub.cancelled_at or sub.premium_listings_deleted_at:
            return None
        return serializers.DateTimeField().to_representation(deletion_at(sub.cancelled_at))

    @extend_schema_field(BenefitsSerializer)
    def get_benefits(self, sub: Subscription) -> dict:
        return subscription_benefits(sub)


class SubscriptionDetailSerializer(WithStatusHistory, SubscriptionSerializer):
    """The host's own membership, with who started, cancelled or renewed it and when."""

    class Meta(SubscriptionSerializer.Meta):
        fields = [*SubscriptionSerializer.Meta.fields, "statusHistory"]


class HostSubscriptionPaymentSerializer(ApiModelSerializer):
    planName = serializers.CharField(source="plan.plan_name")

    class Meta:
        model = SubscriptionPayment
        fields = ["id", "status", "created_at", "total_amount", "planName", "period_start", "period_end"]
        read_only_fields = fields


class SubscribeInput(serializers.Serializer):
    planId = serializers.CharField(max_length=100, error_messages={"required": "planId is required."})
    totalAmount = money_input(
        min_value=Decimal("0.01"),
        error_messages=_decimal_messages("totalAmount"),
    )
    redirectUrl = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class SubscribeSuccessInput(serializers.Serializer):
    sessionId = serializers.CharField(max_length=120, error_messages={"required": "sessionId is required."})
    paymentId = serializers.UUIDField(
        required=False, allow_null=True, error_messages={"invalid": "paymentId is not a valid id."}
    )


class GrantPremiumInput(serializers.Serializer):
    nextBillingDate = serializers.DateTimeField(required=False, allow_null=True)


class SubscribeResult(serializers.Serializer):
    url = serializers.URLField()
    paymentId = serializers.UUIDField()


# --- Booking payments, invoices, payouts ---------------------------------------------------------


class PaymentPartySerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    displayName = serializers.CharField(source="display_name")
    email = serializers.EmailField()


class PaymentListingSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    title = serializers.CharField()
    slug = serializers.CharField()
    propertyType = serializers.ChoiceField(source="property_type", choices=PropertyType.choices)


class PaymentSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    id = serializers.UUIDField()
    createdAt = serializers.DateTimeField(source="created_at")
    listingId = PaymentListingSerializer(source="listing")
    bookingId = serializers.UUIDField(source="booking_id")
    renter = PaymentPartySerializer()
    renterId = serializers.UUIDField(source="renter_id")
    host = PaymentPartySerializer()
    totalAmount = serializers.DecimalField(source="total_amount", max_digits=12, decimal_places=2)
    extendedAmount = serializers.DecimalField(source="extended_amount", max_digits=12, decimal_places=2)
    refundedAmount = serializers.DecimalField(source="refunded_amount", max_digits=12, decimal_places=2)
    status = serializers.ChoiceField(choices=PaymentStatus.choices)
    displayStatus = serializers.SerializerMethodField()
    type = serializers.ChoiceField(choices=PaymentType.choices)
    paymentId = serializers.CharField(source="payment_id")

    def get_displayStatus(self, payment) -> str:
        """Dashboard display: a completed payment is paid, anything else unpaid."""
        return "paid" if payment.status == "completed" else "unpaid"


class InvoiceLineSerializer(serializers.Serializer):
    label = serializers.CharField()
    amount = serializers.CharField(help_text="Formatted as on the PDF ($1,234.50; pending amounts say so).")


class InvoiceSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    number = serializers.CharField()
    kind = serializers.ChoiceField(choices=InvoiceKind.choices)
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    issuedAt = serializers.DateTimeField(source="issued_at")
    createdAt = serializers.DateTimeField(source="issued_at")
    payment = PaymentSerializer()
    status = serializers.SerializerMethodField()
    checkIn = serializers.SerializerMethodField(help_text="The booking's check-in, on the space's clock.")
    checkOut = serializers.SerializerMethodField(help_text="The booking's check-out, on the space's clock.")
    lines = serializers.SerializerMethodField(
        help_text="The PDF's price table: prices, services, discount, fee, tax, extensions, total, refunds "
        "(the commission only for the host side and the admin, once the booking is completed)."
    )

    def get_checkIn(self, invoice) -> str:
        booking = invoice.payment.booking
        return format_moment(booking.check_in, zone_of(booking.listing))

    def get_checkOut(self, invoice) -> str:
        booking = invoice.payment.booking
        return format_moment(booking.check_out, zone_of(booking.listing))

    @extend_schema_field(InvoiceLineSerializer(many=True))
    def get_lines(self, invoice) -> list[dict]:
        from .invoice_pdf import breakdown

        return [{"label": label, "amount": amount} for label, amount in breakdown(invoice, self.context.get("user"))]

    def get_status(self, invoice) -> str:
        if invoice.kind == "creditNote":
            return "refunded"
        return "paid" if invoice.payment.status in ("completed", "refunded") else "unpaid"


class CheckoutInput(serializers.Serializer):
    bookingId = serializers.CharField(max_length=64, error_messages={"required": "bookingId is required."})
    extensionId = serializers.CharField(max_length=64, required=False, allow_blank=True, allow_null=True)
    redirectUrl = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class CheckoutResult(serializers.Serializer):
    url = serializers.URLField()


class PayoutSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    host = PaymentPartySerializer()
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    status = serializers.ChoiceField(choices=PayoutStatus.choices)
    statusLabel = serializers.CharField(source="get_status_display")
    method = serializers.CharField()
    transferId = serializers.CharField(source="transfer_id")
    note = serializers.CharField()
    requestedAt = serializers.DateTimeField(source="requested_at")
    createdAt = serializers.DateTimeField(source="requested_at")
    decidedAt = serializers.DateTimeField(source="decided_at", allow_null=True)


class PayoutStatusInput(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["released", "onhold", "failed"],
        error_messages={"invalid_choice": "status must be released, onhold or failed."},
    )
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class BalanceCanSerializer(serializers.Serializer):
    request = serializers.BooleanField(help_text="The user may ask to be paid now (POST /api/payout/request).")


class BalanceSerializer(serializers.Serializer):
    available = serializers.DecimalField(max_digits=12, decimal_places=2)
    pending = serializers.DecimalField(max_digits=12, decimal_places=2)
    paid = serializers.DecimalField(max_digits=12, decimal_places=2)
    can = BalanceCanSerializer()


# --- One payment's story (GET /api/payment/details) ----------------------------------------------


def _amount(**kwargs) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=12, decimal_places=2, **kwargs)


class DetailsBookingSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=BookingStatus.choices)
    commission = _amount()
    commissionPercent = serializers.DecimalField(max_digits=5, decimal_places=2)


class DetailsListingSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    title = serializers.CharField()
    slug = serializers.CharField()


class DetailsPartySerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    fullName = serializers.CharField()
    displayName = serializers.CharField()
    email = serializers.EmailField()


PAYMENT_STEP_KINDS = [
    "created",
    "authorized",
    "captured",
    "extension",
    "refund",
    "released",
    *(f"payout-{status}" for status in PayoutStatus.values),
]


class PaymentStepSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=PAYMENT_STEP_KINDS)
    at = serializers.DateTimeField(allow_null=True)
    amount = _amount(allow_null=True, help_text="Empty for a payout's step.")
    source = serializers.ChoiceField(
        choices=Refund.Source.choices, required=False, help_text="A refund's step only: what the refund came from."
    )


class CreditNoteRefSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    number = serializers.CharField()


class PaymentRefundSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    amount = _amount()
    source = serializers.ChoiceField(choices=Refund.Source.choices)
    sourceLabel = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)
    createdAt = serializers.DateTimeField()
    creditNote = CreditNoteRefSerializer(allow_null=True)


class PaymentInvoiceRefSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    number = serializers.CharField()
    kind = serializers.ChoiceField(choices=InvoiceKind.choices)
    amount = _amount()
    issuedAt = serializers.DateTimeField()
    pdf = serializers.CharField(help_text="The PDF's path (GET /api/invoice/pdf/{id}).")


class PaymentEarningSerializer(serializers.Serializer):
    grossAmount = _amount()
    commission = _amount()
    refundedAmount = _amount()
    amount = _amount()
    availableAt = serializers.DateTimeField()


class PaymentPayoutRefSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=PayoutStatus.choices)
    amount = _amount()
    requestedAt = serializers.DateTimeField()
    decidedAt = serializers.DateTimeField(allow_null=True)


class PaymentDetailsSerializer(serializers.Serializer):
    """Serializes ``details.payment_details_payload``: the payment, its steps in time order, refunds
    with their credit notes, invoices, the host's earning and the payout it went into."""

    _id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=PaymentStatus.choices)
    gateway = serializers.ChoiceField(choices=Gateway.choices)
    paymentId = serializers.CharField(allow_blank=True)
    totalAmount = _amount()
    capturedAmount = _amount()
    extendedAmount = _amount()
    refundedAmount = _amount()
    paidAmount = _amount()
    createdAt = serializers.DateTimeField()
    authorizedAt = serializers.DateTimeField(allow_null=True)
    capturedAt = serializers.DateTimeField(allow_null=True)
    booking = DetailsBookingSerializer()
    listing = DetailsListingSerializer()
    renter = DetailsPartySerializer()
    host = DetailsPartySerializer()
    steps = PaymentStepSerializer(many=True)
    refunds = PaymentRefundSerializer(many=True)
    invoices = PaymentInvoiceRefSerializer(many=True)
    earning = PaymentEarningSerializer(allow_null=True)
    payout = PaymentPayoutRefSerializer(allow_null=True)
