"""API shapes of disputes (spec section 3: Dispute) and the inputs of the dispute calls."""

from decimal import Decimal

from django.urls import reverse
from rest_framework import serializers

from apps.bookings.models import BookingStatus
from apps.bookings.serializers import person
from apps.bookings.times import format_date, format_time
from apps.core.roles import Role
from apps.core.serializers import StatusChangeSchema, money_input
from apps.listings.models import ListingStatus, PropertyType
from apps.payments.models import PaymentStatus
from apps.payments.services import refund_limits

from .models import REASON_MAX, REJECT_REASON_MAX, Dispute, DisputeStatus
from .policies import dispute_can
from .services import ZERO

# --- Input -------------------------------------------------------------------------------------------


class DisputeCreateInput(serializers.Serializer):
    bookingId = serializers.UUIDField(error_messages={"invalid": "bookingId must be a booking id."})
    reason = serializers.CharField(
        max_length=REASON_MAX,
        error_messages={
            "blank": "Please describe what went wrong.",
            "required": "Please describe what went wrong.",
            "max_length": f"The reason can be at most {REASON_MAX} characters.",
        },
    )
    files = serializers.ListField(
        child=serializers.FileField(), required=False, help_text="Evidence: images or PDFs, 10 MB each, at most 5."
    )


class DisputeStatusInput(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["approved", "rejected"], error_messages={"invalid_choice": "Status must be approved or rejected."}
    )
    refundAmount = money_input(
        required=False,
        allow_null=True,
        min_value=Decimal("0.01"),
        help_text="Required when approving: the amount to refund (full or partial).",
        error_messages={
            "invalid": "The refund amount must be a number.",
            "min_value": "The refund amount must be more than $0.00.",
            "max_decimal_places": "The refund amount can have at most 2 decimal places.",
            "max_digits": "The refund amount is too large.",
            "max_whole_digits": "The refund amount is too large.",
        },
    )
    reason = serializers.CharField(
        max_length=REJECT_REASON_MAX,
        required=False,
        allow_blank=True,
        allow_null=True,
        default="",
        help_text="Required when rejecting; shown to the renter and the host.",
        error_messages={"max_length": f"The reason can be at most {REJECT_REASON_MAX} characters."},
    )


# --- Output ------------------------------------------------------------------------------------------


def _money(value) -> str | None:
    return None if value is None else f"{value:.2f}"


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def dispute_payload(dispute: Dispute, *, viewer=None, refundable: dict | None = None) -> dict:
    """One dispute as the API shows it; ``refundable`` (booking id -> amount, from
    ``payments.refund_limits``) spares a page of disputes a query per row."""
    booking, listing, payment = dispute.booking, dispute.listing, dispute.payment
    refunded = payment.refunded_amount if payment is not None and payment.refunded_amount > 0 else None
    can = dispute_can(viewer, dispute)
    return {
        "_id": str(dispute.pk),
        "status": dispute.status,
        "reason": dispute.reason,
        "rejectReason": dispute.reject_reason,
        "refundAmount": _money(dispute.refund_amount),
        "refundedAmount": _money(refunded),
        "bookingId": {
            "_id": str(booking.pk),
            "status": booking.status,
            "checkInDate": format_date(booking.check_in_date),
            "checkOutDate": format_date(booking.check_out_date),
            "startTime": format_time(booking.start_time),
            "endTime": format_time(booking.end_time),
            "totalAmount": _money(booking.total_amount),
        },
        "listingId": {
            "_id": str(listing.pk),
            "title": listing.title,
            "slug": listing.slug,
            "status": listing.status,
            "propertyType": listing.property_type,
            "isDeleted": listing.is_deleted,
        },
        "renterId": person(dispute.renter),
        "hostId": person(dispute.host),
        "raisedBy": {
            "_id": str(dispute.raised_by_id),
            "role": "renter" if dispute.raised_by_id == dispute.renter_id else "host",
        },
        "paymentId": (
            {
                "_id": str(payment.pk),
                "status": payment.status,
                "totalAmount": _money(payment.total_amount),
                "extendedAmount": _money(payment.extended_amount),
                "refundedAmount": _money(payment.refunded_amount),
                "paymentId": payment.payment_id,
            }
            if payment is not None
            else None
        ),
        "evidence": [
            {
                "_id": str(item.pk),
                "name": item.name,
                "contentType": item.content_type,
                "size": item.size,
                "url": reverse("disputes:evidence", args=[item.pk]),
            }
            for item in dispute.evidence.all()
        ],
        "decidedBy": (
            {
                "_id": str(dispute.decided_by.pk),
                "fullName": dispute.decided_by.full_name,
                "displayName": dispute.decided_by.display_name,
                "role": dispute.decided_by.role,
            }
            if dispute.decided_by is not None
            else None
        ),
        "decidedAt": _iso(dispute.decided_at),
        "createdAt": _iso(dispute.created_at),
        "can": can,
        # The most a decision may refund (what was paid less earlier refunds), for the staff's form.
        "refundableAmount": _money(
            (refundable if refundable is not None else refund_limits([dispute.booking_id])).get(
                dispute.booking_id, ZERO
            )
            if can["decide"]
            else None
        ),
    }


# --- Schema ------------------------------------------------------------------------------------------


class DisputeRef(serializers.Serializer):
    _id = serializers.UUIDField()


class DisputeBookingRef(DisputeRef):
    status = serializers.ChoiceField(choices=BookingStatus.choices)
    checkInDate = serializers.CharField(help_text="dd-MM-yyyy, America/New_York")
    checkOutDate = serializers.CharField()
    startTime = serializers.CharField()
    endTime = serializers.CharField()
    totalAmount = serializers.DecimalField(max_digits=12, decimal_places=2)


class DisputeListingRef(DisputeRef):
    title = serializers.CharField()
    slug = serializers.CharField()
    status = serializers.ChoiceField(choices=ListingStatus.choices)
    propertyType = serializers.ChoiceField(choices=PropertyType.choices)
    isDeleted = serializers.BooleanField()


class DisputePerson(DisputeRef):
    firstName = serializers.CharField()
    lastName = serializers.CharField()
    fullName = serializers.CharField()
    displayName = serializers.CharField()
    email = serializers.EmailField()
    role = serializers.ChoiceField(choices=Role.choices)
    isDeleted = serializers.BooleanField()


class DisputePaymentRef(DisputeRef):
    status = serializers.ChoiceField(choices=PaymentStatus.choices)
    totalAmount = serializers.DecimalField(max_digits=12, decimal_places=2)
    extendedAmount = serializers.DecimalField(max_digits=12, decimal_places=2)
    refundedAmount = serializers.DecimalField(max_digits=12, decimal_places=2)
    paymentId = serializers.CharField()


class DisputeEvidenceFile(DisputeRef):
    name = serializers.CharField()
    contentType = serializers.CharField()
    size = serializers.IntegerField()
    url = serializers.CharField(help_text="Served only to the parties and staff.")


class DisputeRaisedBy(DisputeRef):
    role = serializers.ChoiceField(choices=["renter", "host"])


class DisputeDecidedBy(DisputeRef):
    fullName = serializers.CharField()
    displayName = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)


class DisputeCanSchema(serializers.Serializer):
    """What the caller may do to this dispute (``apps.disputes.policies.dispute_can``)."""

    decide = serializers.BooleanField(help_text="Approve or reject it (staff, while it is pending).")


class DisputeSchema(serializers.Serializer):
    """What a dispute looks like in the API (built by ``dispute_payload``)."""

    _id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=DisputeStatus.choices)
    reason = serializers.CharField()
    rejectReason = serializers.CharField(help_text="Set when rejected.")
    refundAmount = serializers.DecimalField(
        max_digits=12, decimal_places=2, allow_null=True, help_text="What this dispute refunded."
    )
    refundedAmount = serializers.DecimalField(
        max_digits=12, decimal_places=2, allow_null=True, help_text="All refunds on the booking's payment."
    )
    bookingId = DisputeBookingRef()
    listingId = DisputeListingRef()
    renterId = DisputePerson()
    hostId = DisputePerson()
    raisedBy = DisputeRaisedBy()
    paymentId = DisputePaymentRef(allow_null=True)
    evidence = DisputeEvidenceFile(many=True)
    decidedBy = DisputeDecidedBy(allow_null=True)
    decidedAt = serializers.DateTimeField(allow_null=True)
    createdAt = serializers.DateTimeField()
    can = DisputeCanSchema()
    refundableAmount = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    statusHistory = StatusChangeSchema(many=True, required=False, help_text="On the detail response.")
