# Over 450 lines: the listing form's input (each field with the spec's message) and every listing output.
"""Listing API shapes: the input a host sends (with the product's validation messages) and the outputs."""

import re
from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.core.serializers import ApiModelSerializer, PlainDecimalField, money_input

from . import media, zones
from .models import (
    EVENT_PERIODS,
    MAX_BOOKING_WINDOW_DAYS,
    MAX_NOTICE_HOURS,
    OFFERING_PERIODS,
    Amenity,
    Availability,
    CancellationPolicy,
    Listing,
    ListingRequest,
    ListingStatus,
    OfferingKind,
    PaymentPreference,
    Period,
    PropertyType,
)
from .policies import capacity_problems, listing_can

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
TIME_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
MAX_IMAGES = 20
MAX_OFFERINGS = len(OfferingKind.values)
MAX_ADD_ONS = 30
MAX_BLOCKED_DATES = 400
MAX_ALT_LENGTH = 200
PERIOD_WORDS = {Period.HOURLY: "hour", Period.DAILY: "day", Period.WEEKLY: "week", Period.MONTHLY: "month"}
OFFERING_BY_TITLE = {label.lower(): value for value, label in OfferingKind.choices}


def _messages(label: str, **extra: str) -> dict[str, str]:
    return {
        "required": f"{label} is required",
        "null": f"{label} is required",
        "blank": f"{label} is required",
        "invalid": f"{label} is not valid",
        **extra,
    }


def text_field(label: str, max_length: int, *, required: bool = False, **kwargs: Any) -> serializers.CharField:
    return serializers.CharField(
        max_length=max_length,
        required=required,
        allow_blank=not required,
        error_messages=_messages(label, max_length=f"{label} must be at most {max_length} characters long"),
        **kwargs,
    )


def coordinate_field(label: str, bound: int) -> PlainDecimalField:
    """A latitude (``bound`` 90) or longitude (180) in degrees, six decimal places."""
    out_of_range = f"{label} must be between -{bound} and {bound}"
    return PlainDecimalField(
        max_digits=9,
        decimal_places=6,
        min_value=Decimal(-bound),
        max_value=Decimal(bound),
        required=False,
        allow_null=True,
        error_messages=_messages(
            label,
            invalid=f"{label} must be a number",
            min_value=out_of_range,
            max_value=out_of_range,
            max_digits=out_of_range,
            max_whole_digits=out_of_range,
            max_decimal_places=f"{label} may have at most 6 decimal places",
        ),
    )


def price_field(label: str) -> PlainDecimalField:
    return money_input(
        min_value=Decimal("0"),
        max_value=Decimal("9999999999.99"),
        required=False,
        allow_null=True,
        error_messages=_messages(
            label,
            invalid=f"{label} must be a number",
            min_value=f"{label} cannot be negative",
            max_value=f"{label} is too large",
            max_digits=f"{label} is too large",
            max_whole_digits=f"{label} is too large",
            max_decimal_places=f"{label} may have at most 2 decimal places",
        ),
    )


def percent_field(label: str) -> PlainDecimalField:
    return PlainDecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=Decimal("0"),
        max_value=Decimal("100"),
        required=False,
        default=Decimal("0"),
        error_messages=_messages(
            label,
            invalid=f"{label} must be a number",
            min_value=f"{label} must be between 0 and 100",
            max_value=f"{label} must be between 0 and 100",
            max_digits=f"{label} must be between 0 and 100",
            max_whole_digits=f"{label} must be between 0 and 100",
            max_decimal_places=f"{label} may have at most 2 decimal places",
        ),
    )


def count_field(label: str, *, min_value: int = 0, max_value: int = 100_000, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=min_value,
        max_value=max_value,
        error_messages=_messages(
            label,
            invalid=f"{label} must be a whole number",
            min_value=f"{label} must be at least {min_value}",
            max_value=f"{label} must be at most {max_value}",
            max_string_length=f"{label} is too large",
        ),
        **kwargs,
    )


def choice_field(label: str, choices, **kwargs: Any) -> serializers.ChoiceField:
    allowed = ", ".join(value for value, _ in choices)
    return serializers.ChoiceField(
        choices=choices,
        error_messages=_messages(label, invalid_choice=f"{label} must be one of: {allowed}"),
        **kwargs,
    )


OPENING_HOURS_SCHEMA = {
    "type": "object",
    "description": "Weekday (monday ... sunday) to its hours; a missing day is open around the clock, null is closed.",
    "additionalProperties": {
        "type": "object",
        "nullable": True,
        "properties": {"open": {"type": "string", "example": "09:00"}, "close": {"type": "string", "example": "18:00"}},
        "required": ["open", "close"],
    },
}


@extend_schema_field(OPENING_HOURS_SCHEMA)
class OpeningHoursField(serializers.JSONField):
    """The weekly opening hours (documented as a map of weekday to hours)."""


class OfferingInput(serializers.Serializer):
    """One office offering. ``kind`` (``hotDesk``) or ``title`` (``Hot Desk``) names it."""

    kind = serializers.CharField(required=False, allow_blank=True, max_length=40)
    title = serializers.CharField(required=False, allow_blank=True, max_length=40)
    hourly = price_field("Hourly price")
    daily = price_field("Daily price")
    weekly = price_field("Weekly price")
    monthly = price_field("Monthly price")
    seats = count_field("Seats", min_value=1, required=False, default=1)
    minimumPeriod = count_field("Minimum period", min_value=1, max_value=10_000, required=False, default=1)

    def validate(self, attrs: dict) -> dict:
        raw = (attrs.get("kind") or "").strip()
        kind = raw if raw in OfferingKind.values else OFFERING_BY_TITLE.get((raw or attrs.get("title") or "").lower())
        if kind is None:
            names = ", ".join(label for _, label in OfferingKind.choices)
            raise serializers.ValidationError({"kind": [f"Choose an offering: {names}"]})
        label = OfferingKind(kind).label
        periods = OFFERING_PERIODS[kind]
        errors = {}
        for period in Period.values:
            if period not in periods and attrs.get(period) is not None:
                sold_by = ", ".join(PERIOD_WORDS[p] for p in periods)
                errors[period] = [f"{label} is sold by the {sold_by}; remove its {period} price"]
        if errors:
            raise serializers.ValidationError(errors)
        if not any(attrs.get(period) is not None for period in periods):
            sold_by = ", ".join(PERIOD_WORDS[p] for p in periods)
            raise serializers.ValidationError({"price": [f"{label} needs a price per {sold_by}"]})
        return {
            "kind": kind,
            "seats": attrs.get("seats", 1),
            "minimumPeriod": attrs.get("minimumPeriod", 1),
            **{period: attrs.get(period) for period in Period.values},
        }


class AddOnInput(serializers.Serializer):
    title = text_field("Service title", 120, required=True)
    price = price_field("Service price")

    def validate(self, attrs: dict) -> dict:
        if attrs.get("price") is None:
            raise serializers.ValidationError({"price": ["Service price is required"]})
        return {"title": attrs["title"].strip(), "price": attrs["price"]}


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "description": "The image's stored path."},
            {
                "type": "object",
                "properties": {"path": {"type": "string"}, "alt": {"type": "string", "maxLength": MAX_ALT_LENGTH}},
                "required": ["path"],
            },
        ]
    }
)
class ImageItemField(serializers.Field):
    """One listing image: its stored path, or ``{"path": ..., "alt": ...}`` with its alt text."""

    default_error_messages = {
        "invalid": "Each image is a file path or an object with path and alt",
        "alt": f"Alt text must be at most {MAX_ALT_LENGTH} characters long",
    }

    def to_internal_value(self, data: Any) -> dict:
        if isinstance(data, str):
            path, alt = data, ""
        elif isinstance(data, dict) and isinstance(data.get("path"), str):
            path, alt = data["path"], data.get("alt") or ""
        else:
            self.fail("invalid")
        if not isinstance(alt, str):
            self.fail("invalid")
        if len(path) > 300 or not path.strip():
            self.fail("invalid")
        if len(alt.strip()) > MAX_ALT_LENGTH:
            self.fail("alt")
        return {"path": path.strip(), "alt": alt.strip()}

    def to_representation(self, value: Any) -> Any:
        return value


class ListingInput(serializers.Serializer):
    """What a host sends to create or (in full, PUT) edit a listing."""

    title = text_field("Title", 140, required=True)
    description = text_field(
        "Description", 5000, help_text="Rich text (HTML); kept to the allowed tags, like the CMS pages."
    )
    propertyType = choice_field("Property type", PropertyType.choices)
    images = serializers.ListField(
        child=ImageItemField(),
        max_length=MAX_IMAGES,
        required=False,
        default=list,
        help_text="In display order, the first is the cover: paths, or objects with path and alt text.",
        error_messages={"max_length": f"A listing may have at most {MAX_IMAGES} images"},
    )
    streetAddress = text_field("Street address", 200)
    city = text_field("City", 80, required=True)
    state = text_field("State", 80)
    country = text_field("Country", 80, required=True)
    postalCode = text_field("Postal code", 20)
    address = text_field("Address", 300)
    latitude = coordinate_field("Latitude", 90)
    longitude = coordinate_field("Longitude", 180)
    timeZone = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        help_text="IANA time zone of the space (Asia/Kolkata). Left out or empty: found from the map pin or the city.",
    )
    hourly = price_field("Hourly price")
    daily = price_field("Daily price")
    weekly = price_field("Weekly price")
    monthly = price_field("Monthly price")
    discount = percent_field("Discount")
    processingFee = percent_field("Processing fee")
    commissionCollection = percent_field("Commission collection")
    paymentPreference = choice_field(
        "Payment preference", PaymentPreference.choices, required=False, default=PaymentPreference.PAY_NOW
    )
    spaceOffering = OfferingInput(many=True, required=False, default=list, max_length=MAX_OFFERINGS)
    servicesAndAddOns = AddOnInput(many=True, required=False, default=list, max_length=MAX_ADD_ONS)
    numberOfSeats = count_field("Number of seats", min_value=1, required=False, allow_null=True)
    guest = count_field("Guest capacity", min_value=1, required=False, allow_null=True)
    dimension = text_field("Dimension", 60)
    minimumDays = count_field("Minimum hours", min_value=1, max_value=10_000, required=False, default=1)
    openingHours = OpeningHoursField(required=False, default=dict)
    blockedDates = serializers.ListField(
        child=serializers.DateField(error_messages={"invalid": "Blocked dates must be dates (YYYY-MM-DD)"}),
        required=False,
        default=list,
        max_length=MAX_BLOCKED_DATES,
        error_messages={"max_length": f"At most {MAX_BLOCKED_DATES} blocked dates"},
    )
    bufferMinutes = count_field("Buffer time", max_value=1440, required=False, default=0)
    minimumNoticeHours = count_field(
        "Minimum notice", max_value=MAX_NOTICE_HOURS, required=False, default=0, help_text="Hours before the start."
    )
    bookingWindowDays = count_field(
        "Booking window",
        min_value=1,
        max_value=MAX_BOOKING_WINDOW_DAYS,
        required=False,
        default=365,
        help_text="How many days ahead a booking may start.",
    )
    cancellationPolicy = choice_field(
        "Cancellation policy", CancellationPolicy.choices, required=False, default=CancellationPolicy.FLEXIBLE
    )
    availability = choice_field("Availability", Availability.choices, required=False, default=Availability.AVAILABLE)
    isPremium = serializers.BooleanField(
        required=False,
        help_text="Feature the listing (premium hosts only): shown first in public search with a Premium badge.",
        error_messages={"invalid": "isPremium must be true or false"},
    )
    amenities = serializers.ListField(
        child=serializers.UUIDField(error_messages={"invalid": "Amenities must be amenity ids"}),
        required=False,
        default=list,
        max_length=100,
    )
    facilities = serializers.ListField(
        child=serializers.UUIDField(error_messages={"invalid": "Facilities must be facility ids"}),
        required=False,
        default=list,
        max_length=100,
    )

    def validate_description(self, value: str) -> str:
        from apps.cms.sanitize import sanitize_rich_text

        return sanitize_rich_text(value)

    def validate_timeZone(self, value: str) -> str:
        value = (value or "").strip()
        if value and not zones.is_valid_zone(value):
            raise serializers.ValidationError("Choose a time zone from the list (for example Asia/Kolkata)")
        return value

    def validate_openingHours(self, value: Any) -> dict:
        if not isinstance(value, dict):
            raise serializers.ValidationError("Opening hours must map weekdays to open and close times")
        cleaned: dict = {}
        for day, hours in value.items():
            if day not in WEEKDAYS:
                raise serializers.ValidationError(f"Unknown weekday in opening hours: {str(day)[:20]}")
            if hours is None:
                cleaned[day] = None
                continue
            if not isinstance(hours, dict) or not all(
                isinstance(hours.get(key), str) and TIME_RE.match(hours[key]) for key in ("open", "close")
            ):
                raise serializers.ValidationError(f"Opening hours for {day} need open and close times as HH:MM")
            if hours["open"] >= hours["close"]:
                raise serializers.ValidationError(f"On {day} the closing time must be after the opening time")
            cleaned[day] = {"open": hours["open"], "close": hours["close"]}
        return cleaned

    def validate(self, attrs: dict) -> dict:
        errors: dict[str, list[str]] = {}
        if attrs["propertyType"] == PropertyType.EVENT_SPACE:
            if not any(attrs.get(period) is not None for period in EVENT_PERIODS):
                errors["hourly"] = ["Event spaces need an hourly, daily or weekly price"]
            if attrs.get("monthly") is not None:
                errors["monthly"] = ["Event spaces are priced by the hour, day or week"]
            if not attrs.get("guest"):
                errors["guest"] = ["Guest capacity is required for event spaces"]
            if attrs.get("spaceOffering"):
                errors["spaceOffering"] = ["Space offerings are for work spaces; event spaces use their own prices"]
        else:
            offerings = attrs.get("spaceOffering") or []
            if not offerings:
                errors["spaceOffering"] = ["Work spaces need at least one space offering with a price"]
            kinds = [offering["kind"] for offering in offerings]
            if len(kinds) != len(set(kinds)):
                errors["spaceOffering"] = ["Each space offering may appear only once"]
        counts = {
            "guest": ("Guest capacity", attrs.get("guest")),
            "numberOfSeats": ("Number of seats", attrs.get("numberOfSeats")),
        }
        most_seats = max((offering.get("seats") or 0 for offering in attrs.get("spaceOffering") or []), default=None)
        counts["spaceOffering"] = ("Seats of a space offering", most_seats)
        for field, messages in capacity_problems(attrs["propertyType"], counts).items():
            errors.setdefault(field, []).extend(messages)
        items = attrs.get("images") or []
        alts: dict[str, str] = {}
        for item in items:
            alts.setdefault(item["path"], item["alt"])
        attrs["images"] = list(alts)
        attrs["imageAlts"] = {path: alt for path, alt in alts.items() if alt}
        if not attrs.get("images"):
            errors["images"] = ["Add at least one image to submit the listing for review"]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class ToggleActiveInput(serializers.Serializer):
    isActive = serializers.BooleanField(
        required=False, allow_null=True, error_messages={"invalid": "isActive must be true or false"}
    )


class ReviewInput(serializers.Serializer):
    """Staff decision on a listing request."""

    status = choice_field("Status", [("approved", "Approved"), ("rejected", "Rejected")])
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        error_messages={"max_length": "Reason must be at most 1000 characters long"},
    )

    def validate(self, attrs: dict) -> dict:
        attrs["reason"] = (attrs.get("reason") or "").strip()
        if attrs["status"] == "rejected" and not attrs["reason"]:
            raise serializers.ValidationError({"reason": ["Please give a reason for the rejection"]})
        return attrs


class CatalogueInput(serializers.Serializer):
    """Add or edit an amenity or facility."""

    name = text_field("Name", 80, required=False)
    icon = text_field("Icon", 40)
    isActive = serializers.BooleanField(required=False, error_messages={"invalid": "isActive must be true or false"})


# --- Output -------------------------------------------------------------------------------------


class CatalogueItemSerializer(ApiModelSerializer):
    """An amenity or a facility (same fields)."""

    class Meta:
        model = Amenity
        fields = ["id", "name", "icon", "is_active"]
        read_only_fields = fields


class ListingHostSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    displayName = serializers.CharField(source="display_name")
    userName = serializers.CharField(source="user_name")
    avatar = serializers.CharField(source="avatar_url")
    tax = serializers.DecimalField(max_digits=5, decimal_places=2)
    isVerified = serializers.BooleanField(source="is_verified")
    isDeleted = serializers.BooleanField(source="is_deleted")


class OfferingSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    kind = serializers.ChoiceField(choices=OfferingKind.choices)
    title = serializers.CharField()
    hourly = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    daily = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    weekly = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    monthly = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    periods = serializers.ListField(child=serializers.CharField())
    seats = serializers.IntegerField()
    minimumPeriod = serializers.IntegerField(source="minimum_period")


class AddOnSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    title = serializers.CharField()
    price = serializers.DecimalField(max_digits=12, decimal_places=2)


class NamedSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    name = serializers.CharField()
    icon = serializers.CharField()


class PhotoSerializer(serializers.Serializer):
    """A listing image as pages show it: its URL, the responsive copies (``srcset``) and alt text."""

    path = serializers.CharField()
    url = serializers.SerializerMethodField()
    srcset = serializers.SerializerMethodField()
    alt = serializers.CharField()

    def get_url(self, image) -> str:
        from django.core.files.storage import default_storage

        return default_storage.url(image.path)

    def get_srcset(self, image) -> str:
        return media.srcset(image.path)


class ListingCanSerializer(serializers.Serializer):
    """What the caller may do to this listing (``apps.listings.policies.listing_can``)."""

    edit = serializers.BooleanField()
    delete = serializers.BooleanField()
    activate = serializers.BooleanField()
    approve = serializers.BooleanField()
    reject = serializers.BooleanField()


LISTING_ACTIONS = ("edit", "delete", "activate", "approve", "reject")


class ReviewsSummarySerializer(serializers.Serializer):
    rating = serializers.FloatField(help_text="Average of the published ratings (0 when none).")
    count = serializers.IntegerField()


class SanitizedRichTextField(serializers.CharField):
    """Rich text as the pages render it (``dangerouslySetInnerHTML``): sanitised again on the way out,
    so a row written before the model sanitised every save, or by a bulk update, is never raw HTML."""

    def to_representation(self, value) -> str:
        from apps.cms.sanitize import sanitize_rich_text

        return sanitize_rich_text(super().to_representation(value))


class ListingSerializer(ApiModelSerializer):
    """A listing as the dashboard and the public pages' islands read it (spec section 3).

    Reads prefetched relations and the ``request_id`` / ``is_favourite`` annotations from
    ``selectors.listing_queryset`` so a page of listings costs a fixed number of queries.
    """

    images = serializers.SerializerMethodField()
    photos = PhotoSerializer(source="images", many=True, read_only=True)
    spaceOffering = OfferingSerializer(source="space_offerings", many=True, read_only=True)
    servicesAndAddOns = AddOnSerializer(source="add_ons", many=True, read_only=True)
    amenities = NamedSerializer(many=True, read_only=True)
    facilities = NamedSerializer(many=True, read_only=True)
    host = ListingHostSerializer(read_only=True)
    createdBy = serializers.UUIDField(source="created_by_id", read_only=True, allow_null=True)
    favourite = serializers.SerializerMethodField()
    requestId = serializers.SerializerMethodField()
    reviews = serializers.SerializerMethodField()
    can = serializers.SerializerMethodField()
    openingHours = OpeningHoursField(source="opening_hours", read_only=True)
    description = SanitizedRichTextField(read_only=True)

    class Meta:
        model = Listing
        fields = [
            "id",
            "slug",
            "title",
            "description",
            "status",
            "reject_reason",
            "images",
            "photos",
            "street_address",
            "city",
            "state",
            "country",
            "postal_code",
            "address",
            "latitude",
            "longitude",
            "time_zone",
            "property_type",
            "hourly",
            "daily",
            "weekly",
            "monthly",
            "discount",
            "processing_fee",
            "commission_collection",
            "payment_preference",
            "spaceOffering",
            "servicesAndAddOns",
            "number_of_seats",
            "guest",
            "dimension",
            "minimum_days",
            "openingHours",
            "blocked_dates",
            "buffer_minutes",
            "minimum_notice_hours",
            "booking_window_days",
            "cancellation_policy",
            "amenities",
            "facilities",
            "favourite",
            "requestId",
            "is_active",
            "is_deleted",
            "availability",
            "is_premium",
            "host",
            "createdBy",
            "reviews",
            "created_at",
            "updated_at",
            "approved_at",
            "can",
        ]
        read_only_fields = fields

    @extend_schema_field(ListingCanSerializer)
    def get_can(self, listing: Listing) -> dict[str, bool]:
        user = self.context.get("user")
        if user is None or not getattr(user, "is_authenticated", False):
            return dict.fromkeys(LISTING_ACTIONS, False)
        return listing_can(user, listing)

    def get_images(self, listing: Listing) -> list[str]:
        return [image.path for image in listing.images.all()]

    def get_favourite(self, listing: Listing) -> bool:
        return bool(getattr(listing, "is_favourite", False))

    def get_requestId(self, listing: Listing) -> str | None:
        request_id = getattr(listing, "request_id", None)
        return str(request_id) if request_id else None

    @extend_schema_field(ReviewsSummarySerializer)
    def get_reviews(self, listing: Listing) -> dict:
        return {"rating": listing.rating_average, "count": listing.rating_count}


class ListingSummarySerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    slug = serializers.CharField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=ListingStatus.choices)
    propertyType = serializers.ChoiceField(source="property_type", choices=PropertyType.choices)
    city = serializers.CharField()
    country = serializers.CharField()
    timeZone = serializers.CharField(source="time_zone")
    isActive = serializers.BooleanField(source="is_active")
    isDeleted = serializers.BooleanField(source="is_deleted")
    images = serializers.SerializerMethodField()
    host = ListingHostSerializer()

    def get_images(self, listing: Listing) -> list[str]:
        return [image.path for image in listing.images.all()]


class RequestCanSerializer(serializers.Serializer):
    """What the caller may do to this review request (``apps.listings.policies.request_can``)."""

    approve = serializers.BooleanField()
    reject = serializers.BooleanField()


class ProposedListingSerializer(ListingInput):
    """An edit request's proposed listing: the host's checked edit in ``ListingInput``'s words, with
    the images as storage paths and their alt texts apart. Empty (``{}``) for other requests, so
    every field is optional. Used to describe ``payload``, never to read input."""

    images = serializers.ListField(child=serializers.CharField(), required=False)
    imageAlts = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="Alt text by image path, where one was given."
    )

    def get_fields(self):
        fields = super().get_fields()
        for field in fields.values():
            field.required = False
        return fields


class ListingRequestSerializer(ApiModelSerializer):
    listing = ListingSummarySerializer(read_only=True)
    can = serializers.SerializerMethodField()
    payload = serializers.SerializerMethodField(help_text="Edit requests: the proposed listing; empty for others.")
    listingId = serializers.UUIDField(source="listing_id", read_only=True)
    requestedBy = serializers.UUIDField(source="requested_by_id", read_only=True, allow_null=True)
    reviewedBy = serializers.UUIDField(source="reviewed_by_id", read_only=True, allow_null=True)

    class Meta:
        model = ListingRequest
        fields = [
            "id",
            "kind",
            "status",
            "reason",
            "changed_fields",
            "payload",
            "listingId",
            "listing",
            "requestedBy",
            "reviewedBy",
            "created_at",
            "reviewed_at",
            "can",
        ]
        read_only_fields = fields

    @extend_schema_field(ProposedListingSerializer)
    def get_payload(self, listing_request: ListingRequest) -> dict:
        return listing_request.payload

    @extend_schema_field(RequestCanSerializer)
    def get_can(self, listing_request: ListingRequest) -> dict[str, bool]:
        from .policies import request_can

        user = self.context.get("user")
        if user is None or not getattr(user, "is_authenticated", False):
            return {"approve": False, "reject": False}
        return request_can(user, listing_request)


@extend_schema_field(
    {
        "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
        "nullable": True,
        "description": "As a person reads it: a text, or a list of texts (images, amenities, offerings); null when empty.",
    }
)
class ChangeValueField(serializers.JSONField):
    """One side of an edit request's change (``services.changes``): a text, a list of texts, or null."""


class RequestChangeSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="The listing field (API name), e.g. title, images, amenities.")
    label = serializers.CharField()
    live = ChangeValueField(help_text="The live listing's value.")
    proposed = ChangeValueField(help_text="The value waiting for review.")


class ListingRequestDetailSerializer(ListingRequestSerializer):
    """One review request with, for an edit, what it changes beside the live values."""

    changes = serializers.SerializerMethodField()

    class Meta(ListingRequestSerializer.Meta):
        fields = [*ListingRequestSerializer.Meta.fields, "changes"]
        read_only_fields = fields

    @extend_schema_field(RequestChangeSerializer(many=True))
    def get_changes(self, listing_request: ListingRequest) -> list[dict]:
        from .services.changes import request_changes

        return request_changes(listing_request)


class DraftInput(serializers.Serializer):
    listingId = serializers.UUIDField(
        required=False, allow_null=True, help_text="The listing being edited; absent for a new listing."
    )
    step = count_field("Step", min_value=1, max_value=20, required=False, default=1)
    data = serializers.DictField(
        help_text="The form's values as the host left them.", error_messages={"not_a_dict": "data must be an object"}
    )


class DraftSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    listingId = serializers.UUIDField(source="listing_id", allow_null=True)
    step = serializers.IntegerField()
    data = serializers.DictField()
    updatedAt = serializers.DateTimeField(source="updated_at")
