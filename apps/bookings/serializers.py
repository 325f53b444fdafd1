# Over 450 lines: the booking API's inputs, outputs and schema-only response shapes (spec section 3).
"""API shapes of bookings (spec section 3: Booking, ExtendBooking, Review)."""

from rest_framework import serializers

from apps.accounts.models import Role
from apps.core.serializers import StatusChangeSchema
from apps.core.statemachine import history, history_payload
from apps.listings.models import (
    CancellationPolicy,
    ListingStatus,
    OfferingKind,
    PaymentPreference,
    Period,
    PropertyType,
)

from .models import Booking, BookingStatus, ExtendBooking, ExtensionStatus
from .policies import (
    BOOKING_ACTIONS,
    RENTER_CANCELLABLE_STATUSES,
    booking_awaiting_payment,
    booking_can,
    extension_can,
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
        "displayName": user.display_name,
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


def extension_data(extension: ExtendBooking, *, full: bool, viewer=None) -> dict:
    """Host side sees everything; admin, moderator and renter see only the total payable while pending.
    ``can``: what ``viewer`` may do to it (approve, reject, pay).

    ``startTime``, ``endTime`` and ``additionalDate`` are wall-clock times in the listing's zone
    (``timeZone``)."""
    can = extension_can(viewer, extension.booking, extension)
    if not full and extension.status == ExtensionStatus.PENDING:
        return {
            "_id": str(extension.pk),
            "status": extension.status,
            "totalPayable": str(extension.additional_amount),
            "can": can,
        }
    return {
        "can": can,
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
            "extendBooking": [extension_data(e, full=host_side, viewer=viewer) for e in booking.extensions.all()],
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
        if viewer is not None and viewer.pk == booking.renter_id and booking.status in RENTER_CANCELLABLE_STATUSES:
            data["refundIfCancelledNow"] = str(refund_amount_for(booking))
        data["statusHistory"] = booking_status_history(booking)
        return data


class BookingStatusChangeSchema(StatusChangeSchema):
    extensionId = serializers.UUIDField(required=False, help_text="Set when the change was to an extension request.")


# --- Response shapes for the OpenAPI schema (the responses are built by the functions above) -------


def _money(**kwargs) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=12, decimal_places=2, **kwargs)


class BookingPersonSchema(serializers.Serializer):
    """A renter or host as a booking shows them (``person``)."""

    _id = serializers.UUIDField()
    firstName = serializers.CharField()
    lastName = serializers.CharField()
    fullName = serializers.CharField()
    displayName = serializers.CharField(
        help_text="The name to show: the full name, else the user name, else the e-mail's local part."
    )
    userName = serializers.CharField()
    email = serializers.EmailField()
    avatar = serializers.CharField(help_text="URL of the avatar or of the default picture.")
    role = serializers.ChoiceField(choices=Role.choices)
    city = serializers.CharField()
    country = serializers.CharField()
    isDeleted = serializers.BooleanField()


class BookingListingSchema(serializers.Serializer):
    """The listing a booking is for (``listingId``)."""

    _id = serializers.UUIDField()
    title = serializers.CharField()
    slug = serializers.CharField()
    status = serializers.ChoiceField(choices=ListingStatus.choices)
    propertyType = serializers.ChoiceField(choices=PropertyType.choices)
    address = serializers.CharField()
    city = serializers.CharField()
    country = serializers.CharField()
    timeZone = serializers.CharField(help_text="The listing's IANA time zone.")
    paymentPreference = serializers.ChoiceField(choices=PaymentPreference.choices)
    cancellationPolicy = serializers.ChoiceField(choices=CancellationPolicy.choices)
    isDeleted = serializers.BooleanField()


class SpaceOfferingSnapshotSchema(serializers.Serializer):
    """The work-space offering booked, as it was when booked."""

    _id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=OfferingKind.choices)
    title = serializers.CharField()
    hourly = _money(allow_null=True)
    daily = _money(allow_null=True)
    weekly = _money(allow_null=True)
    monthly = _money(allow_null=True)
    minimumPeriod = serializers.IntegerField()


class AddOnSnapshotSchema(serializers.Serializer):
    _id = serializers.UUIDField()
    title = serializers.CharField()
    price = _money()


class PriceLineSchema(serializers.Serializer):
    priceDuration = serializers.ChoiceField(choices=Period.choices)
    label = serializers.CharField(help_text="Hour, Day, Week or Month")
    duration = serializers.IntegerField(help_text="How many periods.")
    rate = _money()
    total = _money()


class SelectedPriceSchema(serializers.Serializer):
    value = serializers.ChoiceField(choices=Period.choices)
    label = serializers.CharField()
    rate = _money()


class ServiceLineSchema(serializers.Serializer):
    title = serializers.CharField()
    price = _money()


class PaymentDetailsSchema(serializers.Serializer):
    """``paymentDetails`` (spec section 3) with every computed amount (``pricing.Quote.payment_details``)."""

    prices = PriceLineSchema(many=True)
    totalAmount = _money(help_text="Total of the price lines.")
    totalDays = serializers.IntegerField()
    totalHours = serializers.DecimalField(max_digits=12, decimal_places=2)
    servicesAndAddOns = ServiceLineSchema(many=True)
    servicesTotal = _money()
    selectedPrice = SelectedPriceSchema(allow_null=True)
    subtotal = _money()
    discountPercent = serializers.DecimalField(max_digits=5, decimal_places=2)
    discount = _money()
    discountedSubtotal = _money()
    processingFeePercent = serializers.DecimalField(max_digits=5, decimal_places=2)
    convenienceFee = _money()
    taxPercent = serializers.DecimalField(max_digits=5, decimal_places=2)
    tax = _money()
    price = _money(help_text="What the renter pays for the booking itself.")
    extensionsTotal = _money()
    total = _money(help_text="Price plus approved extensions.")
    commissionPercent = serializers.DecimalField(max_digits=5, decimal_places=2)
    commission = _money()


class ExtensionPaymentDetailsSchema(serializers.Serializer):
    prices = PriceLineSchema(many=True)
    originalAmount = _money()
    convenienceFee = _money()
    tax = _money()
    additionalAmount = _money()


class ExtensionCanSchema(serializers.Serializer):
    """What the caller may do to this extension request (``apps.bookings.policies.extension_can``)."""

    approve = serializers.BooleanField()
    reject = serializers.BooleanField()
    pay = serializers.BooleanField(help_text="The renter may pay the difference (POST /api/payment/checkout).")


class ExtensionSchema(serializers.Serializer):
    """An extension request. While pending, only the host side sees more than the amount payable."""

    _id = serializers.UUIDField()
    can = ExtensionCanSchema()
    status = serializers.ChoiceField(choices=ExtensionStatus.choices)
    totalPayable = _money()
    timeZone = serializers.CharField(required=False, help_text="The listing's IANA time zone.")
    timeZoneName = serializers.CharField(required=False, help_text="The zone's short name at the new check-out.")
    paid = serializers.BooleanField(required=False)
    additionalHours = serializers.IntegerField(required=False)
    additionalDays = serializers.IntegerField(required=False)
    additionalWeeks = serializers.IntegerField(required=False)
    additionalMonths = serializers.IntegerField(required=False)
    originalAmount = _money(required=False)
    additionalAmount = _money(required=False)
    additionalDate = serializers.CharField(required=False, help_text="dd-MM-yyyy")
    startTime = serializers.CharField(required=False, help_text="hh:mm AM/PM")
    endTime = serializers.CharField(required=False, help_text="hh:mm AM/PM")
    paymentDetails = ExtensionPaymentDetailsSchema(required=False)
    rejectReason = serializers.CharField(required=False)
    createdAt = serializers.DateTimeField(required=False)


class BookingCanSchema(serializers.Serializer):
    """What the caller may do to this booking (``apps.bookings.policies.booking_can``)."""

    approve = serializers.BooleanField()
    reject = serializers.BooleanField()
    cancel = serializers.BooleanField()
    extend = serializers.BooleanField()
    pay = serializers.BooleanField()
    payExtension = serializers.BooleanField(help_text="The renter may pay an approved extension.")
    review = serializers.BooleanField()
    dispute = serializers.BooleanField()
    message = serializers.BooleanField()


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
    checkIn = serializers.DateTimeField()
    checkOut = serializers.DateTimeField(help_text="Including approved extensions.")
    status = serializers.ChoiceField(choices=BookingStatus.choices)
    price = _money()
    totalAmount = _money()
    guests = serializers.IntegerField()
    seats = serializers.IntegerField()
    renter = BookingPersonSchema()
    host = BookingPersonSchema()
    listingId = BookingListingSchema()
    spaceOffering = SpaceOfferingSnapshotSchema(allow_null=True, help_text="Null for an event space.")
    servicesAndAddOns = AddOnSnapshotSchema(many=True)
    paymentDetails = PaymentDetailsSchema()
    paymentPreference = serializers.ChoiceField(choices=PaymentPreference.choices)
    extendBooking = ExtensionSchema(many=True)
    rejectReason = serializers.CharField()
    cancellationReason = serializers.CharField()
    refundAmount = _money(allow_null=True)
    awaitingPayment = serializers.BooleanField(
        help_text="A pay-now request the renter has not paid yet: it cannot be approved and is not counted as pending"
    )
    can = BookingCanSchema()


class BookingDetailSchema(BookingSchema):
    bookedBy = BookingPersonSchema()
    hostedBy = BookingPersonSchema()
    sidePanel = serializers.ChoiceField(
        choices=["hostedBy", "bookedBy"], help_text="The renter sees Hosted By; everyone else Booked By."
    )
    refundIfCancelledNow = _money(required=False, help_text="Only for the renter of a pending or approved booking.")
    statusHistory = BookingStatusChangeSchema(many=True, help_text="Who changed the status, when, from, to and why.")


class BookingStatusSchema(BookingDetailSchema):
    checkInPassed = serializers.BooleanField(help_text="The booking's check-in has already passed.")


class QuoteSchema(serializers.Serializer):
    step = serializers.ChoiceField(
        choices=["request-booking-details", "event-booking-details", "services-and-add-ons", "review-and-pay"]
    )
    listingId = serializers.UUIDField()
    spaceOffering = serializers.UUIDField(allow_null=True)
    checkInDate = serializers.CharField(help_text="dd-MM-yyyy")
    checkOutDate = serializers.CharField(help_text="dd-MM-yyyy")
    startTime = serializers.CharField(help_text="hh:mm AM/PM")
    endTime = serializers.CharField(help_text="hh:mm AM/PM")
    timeZone = serializers.CharField(help_text="The listing's IANA time zone; the times above are there.")
    timeZoneName = serializers.CharField(help_text="The zone's short name at check-in (IST, EDT).")
    guests = serializers.IntegerField(allow_null=True)
    seats = serializers.IntegerField(allow_null=True)
    paymentDetails = PaymentDetailsSchema()
    price = _money()
    available = serializers.BooleanField(required=False, help_text="Only at review-and-pay: the time is still free.")


class AvailabilitySchema(serializers.Serializer):
    occupiedDates = serializers.ListField(child=serializers.DateField())
    pendingDates = serializers.ListField(child=serializers.DateField())
    availableDates = serializers.ListField(child=serializers.DateField())
    blockedDates = serializers.ListField(child=serializers.DateField())
    timeZone = serializers.CharField(help_text="The zone the dates are in (the listing's unless asked otherwise).")
    bookableFrom = serializers.DateField(help_text="The first day the listing's minimum notice allows.")
    bookableUntil = serializers.DateField(help_text="The last day the listing's booking window reaches.")


class ReviewSchema(serializers.Serializer):
    _id = serializers.UUIDField()
    listingId = serializers.UUIDField()
    bookingId = serializers.UUIDField()
    review = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    remarks = serializers.CharField()
    isPublished = serializers.BooleanField()
    revealed = serializers.BooleanField(
        help_text="Both sides reviewed, or the review period ended: the review is shown."
    )


class IcalUrlSchema(serializers.Serializer):
    url = serializers.URLField()


class CalendarLinksCanSchema(serializers.Serializer):
    reset = serializers.BooleanField(help_text="May reset the calendar links (the host only).")


class HostIcalUrlSchema(IcalUrlSchema):
    can = CalendarLinksCanSchema()


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
