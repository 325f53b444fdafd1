"""API shapes of bookings (spec section 3: Booking, ExtendBooking, Review)."""

from rest_framework import serializers

from apps.accounts.models import Role
from apps.core.serializers import StatusChangeSchema
from apps.core.statemachine import history, history_payload

from .models import Booking, BookingStatus, ExtendBooking, ExtensionStatus
from .policies import (
    BOOKING_ACTIONS,
    RENTER_CANCELLABLE_STATUSES,
    booking_awaiting_payment,
    booking_can,
    refund_amount_for,
)
from .times import format_date, format_time, zone_abbreviation, zone_of

TEXT_MAX = 1000


# --- Input ------------------------------------------------------------------------------------------


class BookingDetailsInput(serializers.Serializer):
    listingId = serializers.UUIDField()
    spaceOffering = serializers.UUIDField(required=False, allow_null=True)
    checkInDate = serializers.CharField(max_length=20)
    checkOutDate = serializers.CharField(max_length=20, required=False, allow_blank=True)
    startTime = serializers.CharField(max_length=20)
    endTime = serializers.CharField(max_length=20)
    guests = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100000)
    seats = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100000)
    servicesAndAddOns = serializers.ListField(
        child=serializers.UUIDField(), required=False, allow_empty=True, max_length=50
    )


class UpdateStatusInput(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["approved", "rejected"], error_messages={"invalid_choice": "Status must be approved or rejected."}
    )
    reason = serializers.CharField(max_length=TEXT_MAX, required=False, allow_blank=True, default="")


class CancelInput(serializers.Serializer):
    reason = serializers.CharField(max_length=TEXT_MAX, required=False, allow_blank=True, default="")


class ExtendInput(serializers.Serializer):
    additionalHours = serializers.IntegerField(required=False, default=0, min_value=0, max_value=1000)
    additionalDays = serializers.IntegerField(required=False, default=0, min_value=0, max_value=1000)
    additionalWeeks = serializers.IntegerField(required=False, default=0, min_value=0, max_value=1000)
    additionalMonths = serializers.IntegerField(required=False, default=0, min_value=0, max_value=1000)


class ExtendStatusInput(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["approved", "rejected"], error_messages={"invalid_choice": "Status must be approved or rejected."}
    )
    requestId = serializers.UUIDField()
    reason = serializers.CharField(max_length=TEXT_MAX, required=False, allow_blank=True, allow_null=True, default="")


class ReviewInput(serializers.Serializer):
    listingId = serializers.UUIDField()
    bookingId = serializers.UUIDField()
    review = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    rating = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=5,
        error_messages={"max_value": "Rating must be from 1 to 5.", "min_value": "Rating must be from 1 to 5."},
    )
    remarks = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


# --- Output -----------------------------------------------------------------------------------------


def person(user) -> dict | None:
    if user is None:
        return None
    return {
        "_id": str(user.pk),
        "firstName": user.first_name,
        "lastName": user.last_name,
        "fullName": user.full_name,
        "userName": user.user_name,
        "email": user.email,
        "avatar": user.avatar_url,
        "role": user.role,
        "city": user.city,
        "country": user.country,
        "isDeleted": user.is_deleted,
    }


def zone_fields(listing, moment) -> dict:
    """``timeZone`` (IANA, the listing's) and ``timeZoneName`` (its short name at ``moment``: IST, EDT)."""
    tz = zone_of(listing)
    return {"timeZone": tz.key, "timeZoneName": zone_abbreviation(tz, moment)}


def extension_data(extension: ExtendBooking, *, full: bool) -> dict:
    """Host side sees everything; admin, moderator and renter see only the total payable while pending.

    ``startTime``, ``endTime`` and ``additionalDate`` are wall-clock times in the listing's zone
    (``timeZone``)."""
    if not full and extension.status == ExtensionStatus.PENDING:
        return {"_id": str(extension.pk), "status": extension.status, "totalPayable": str(extension.additional_amount)}
    return {
        **zone_fields(extension.booking.listing, extension.period.upper),
        "_id": str(extension.pk),
        "status": extension.status,
        "paid": extension.paid,
        "additionalHours": extension.additional_hours,
        "additionalDays": extension.additional_days,
        "additionalWeeks": extension.additional_weeks,
        "additionalMonths": extension.additional_months,
        "originalAmount": str(extension.original_amount),
        "additionalAmount": str(extension.additional_amount),
        "totalPayable": str(extension.additional_amount),
        "additionalDate": format_date(extension.additional_date),
        "startTime": format_time(extension.start_time),
        "endTime": format_time(extension.end_time),
        "paymentDetails": extension.payment_details,
        "rejectReason": extension.reject_reason,
        "createdAt": extension.created_at.isoformat(),
    }


class BookingSerializer(serializers.BaseSerializer):
    """Plain dict building: flat and fast for lists of 10 (no nested serializer machinery)."""

    def to_representation(self, booking: Booking) -> dict:
        viewer = self.context.get("user")
        host_side = viewer is not None and viewer.role in (Role.HOST, Role.SUB_HOST)
        listing = booking.listing
        return {
            "_id": str(booking.pk),
            "createdAt": booking.created_at.isoformat(),
            "checkInDate": format_date(booking.check_in_date),
            "checkOutDate": format_date(booking.check_out_date),
            "startTime": format_time(booking.start_time),
            "endTime": format_time(booking.end_time),
            **zone_fields(listing, booking.check_in),
            "checkIn": booking.check_in.isoformat(),
            "checkOut": booking.check_out.isoformat(),
            "status": booking.status,
            "price": str(booking.price),
            "totalAmount": str(booking.total_amount),
            "guests": booking.guests,
            "seats": booking.seats,
            "renter": person(booking.renter),
            "host": person(booking.host),
            "listingId": {
                "_id": str(listing.pk),
                "title": listing.title,
                "slug": listing.slug,
                "status": listing.status,
                "propertyType": listing.property_type,
                "address": listing.address,
                "city": listing.city,
                "country": listing.country,
                "timeZone": listing.time_zone,
                "paymentPreference": listing.payment_preference,
                "cancellationPolicy": listing.cancellation_policy,
                "isDeleted": listing.is_deleted,
            },
            "spaceOffering": booking.space_offering or None,
            "servicesAndAddOns": booking.services_and_add_ons,
            "paymentDetails": booking.payment_details,
            "paymentPreference": booking.payment_preference,
            "extendBooking": [extension_data(e, full=host_side) for e in booking.extensions.all()],
            "rejectReason": booking.reject_reason,
            "cancellationReason": booking.cancellation_reason,
            "refundAmount": str(booking.refund_amount) if booking.refund_amount is not None else None,
            # A pay-now request the renter has not paid yet: the host sees "Awaiting payment", no Approve.
            "awaitingPayment": booking_awaiting_payment(booking),
            "can": booking_can(viewer, booking) if viewer is not None else dict.fromkeys(BOOKING_ACTIONS, False),
        }


class BookingDetailSerializer(BookingSerializer):
    def to_representation(self, booking: Booking) -> dict:
        data = super().to_representation(booking)
        viewer = self.context.get("user")
        data["bookedBy"] = person(booking.renter)
        data["hostedBy"] = person(booking.host)
        # The renter's panel shows Hosted By; everyone else sees Booked By (spec 2.6).
        data["sidePanel"] = "hostedBy" if viewer is not None and viewer.role == Role.RENTER else "bookedBy"
        data["canApproveOrReject"] = data["can"]["approve"] or data["can"]["reject"]
        # Kept for existing clients; ``can`` is the one source.
        data["canApprove"] = data["can"]["approve"]
        data["canPay"] = data["can"]["pay"]
        if viewer is not None and viewer.pk == booking.renter_id and booking.status in RENTER_CANCELLABLE_STATUSES:
            data["refundIfCancelledNow"] = str(refund_amount_for(booking))
        data["statusHistory"] = booking_status_history(booking)
        return data


class BookingStatusChangeSchema(StatusChangeSchema):
    extensionId = serializers.UUIDField(required=False, help_text="Set when the change was to an extension request.")


class BookingSchema(serializers.Serializer):
    """What a booking looks like in the API (for the OpenAPI schema; built by BookingSerializer)."""

    _id = serializers.UUIDField()
    createdAt = serializers.DateTimeField()
    checkInDate = serializers.CharField(help_text="dd-MM-yyyy, in the listing's time zone (timeZone)")
    checkOutDate = serializers.CharField()
    startTime = serializers.CharField(help_text="hh:mm AM/PM, wall-clock time in the listing's time zone")
    endTime = serializers.CharField()
    timeZone = serializers.CharField(help_text="The listing's IANA time zone (Asia/Kolkata); all times are there")
    timeZoneName = serializers.CharField(help_text="The zone's short name at check-in (IST, EDT), to show by times")
    status = serializers.ChoiceField(choices=BookingStatus.choices)
    price = serializers.DecimalField(max_digits=12, decimal_places=2)
    totalAmount = serializers.DecimalField(max_digits=12, decimal_places=2)
    guests = serializers.IntegerField()
    seats = serializers.IntegerField()
    renter = serializers.JSONField()
    host = serializers.JSONField()
    listingId = serializers.JSONField()
    spaceOffering = serializers.JSONField(allow_null=True)
    servicesAndAddOns = serializers.JSONField()
    paymentDetails = serializers.JSONField()
    extendBooking = serializers.JSONField()
    rejectReason = serializers.CharField()
    cancellationReason = serializers.CharField()
    refundAmount = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    awaitingPayment = serializers.BooleanField(
        help_text="A pay-now request the renter has not paid yet: it cannot be approved and is not counted as pending"
    )
    statusHistory = BookingStatusChangeSchema(many=True, required=False, help_text="On the detail response.")


def booking_status_history(booking: Booking) -> list[dict]:
    """The booking's status changes and its extension requests', oldest first."""
    entries = history_payload(history(booking))
    for extension in booking.extensions.all():
        for entry in history_payload(history(extension)):
            entries.append({**entry, "extensionId": str(extension.pk)})
    return sorted(entries, key=lambda entry: entry["createdAt"])


def quote_data(plan, *, step: str, available: bool | None = None) -> dict:
    q = plan.quote
    data = {
        "step": step,
        "listingId": str(plan.listing.pk),
        "spaceOffering": str(plan.offering.pk) if plan.offering else None,
        "checkInDate": format_date(plan.check_in_date),
        "checkOutDate": format_date(plan.check_out_date),
        "startTime": format_time(plan.start_time),
        "endTime": format_time(plan.end_time),
        **zone_fields(plan.listing, plan.start),
        "guests": plan.guests,
        "seats": plan.seats,
        "paymentDetails": q.payment_details(),
        "price": str(q.price),
    }
    if available is not None:
        data["available"] = available
    return data
