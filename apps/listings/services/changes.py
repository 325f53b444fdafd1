"""A listing's content as the form sends it: which fields wait for review, the live values beside
the proposed ones, and writing validated input onto a listing."""

import datetime
import uuid
from decimal import Decimal

from .. import zones
from ..models import (
    OFFERING_PERIODS,
    AddOn,
    Amenity,
    Facility,
    Listing,
    ListingImage,
    ListingRequest,
    OfferingKind,
    Period,
    PropertyType,
    RequestKind,
    SpaceOffering,
)

# Edits of an approved listing that change what a renter is told about the place (what it is, where,
# what it looks like, what it offers, what it costs) or the platform's cut wait for review; capacity,
# opening hours, blocked dates, buffer, notice, window and policies apply at once.
PRICE_FIELDS: tuple[str, ...] = (
    "hourly",
    "daily",
    "weekly",
    "monthly",
    "spaceOffering",
    "servicesAndAddOns",
    "discount",
    "processingFee",
)
SUBSTANTIVE_FIELDS: tuple[str, ...] = (
    *PRICE_FIELDS,
    "title",
    "description",
    "propertyType",
    "images",
    "streetAddress",
    "city",
    "state",
    "country",
    "postalCode",
    "address",
    "latitude",
    "longitude",
    "amenities",
    "facilities",
    "dimension",
    "commissionCollection",
)

# API field -> model field for plain values.
SCALAR_FIELDS: dict[str, str] = {
    "title": "title",
    "description": "description",
    "propertyType": "property_type",
    "streetAddress": "street_address",
    "city": "city",
    "state": "state",
    "country": "country",
    "postalCode": "postal_code",
    "address": "address",
    "latitude": "latitude",
    "longitude": "longitude",
    "hourly": "hourly",
    "daily": "daily",
    "weekly": "weekly",
    "monthly": "monthly",
    "discount": "discount",
    "processingFee": "processing_fee",
    "commissionCollection": "commission_collection",
    "paymentPreference": "payment_preference",
    "numberOfSeats": "number_of_seats",
    "guest": "guest",
    "dimension": "dimension",
    "minimumDays": "minimum_days",
    "openingHours": "opening_hours",
    "blockedDates": "blocked_dates",
    "bufferMinutes": "buffer_minutes",
    "minimumNoticeHours": "minimum_notice_hours",
    "bookingWindowDays": "booking_window_days",
    "cancellationPolicy": "cancellation_policy",
    "availability": "availability",
    "isPremium": "is_premium",
    "timeZone": "time_zone",
}
# Where the space is: when these move and no time zone is given, the zone is looked up again.
LOCATION_FIELDS: tuple[str, ...] = ("city", "country", "latitude", "longitude")
DECIMAL_FIELDS = frozenset(
    {
        "latitude",
        "longitude",
        "hourly",
        "daily",
        "weekly",
        "monthly",
        "discount",
        "processingFee",
        "commissionCollection",
    }
)


def as_payload(value):
    if isinstance(value, dict):
        return {key: as_payload(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_payload(item) for item in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (datetime.date, uuid.UUID)):
        return value.isoformat() if isinstance(value, datetime.date) else str(value)
    return value


def from_payload(payload: dict) -> dict:
    """The validated input back from an edit request's JSON payload."""
    data = dict(payload)
    for key in DECIMAL_FIELDS:
        if data.get(key) is not None:
            data[key] = Decimal(data[key])
    data["blockedDates"] = [datetime.date.fromisoformat(day) for day in data.get("blockedDates", [])]
    data["spaceOffering"] = [
        {**item, **{p: Decimal(item[p]) if item.get(p) is not None else None for p in Period.values}}
        for item in data.get("spaceOffering", [])
    ]
    data["servicesAndAddOns"] = [
        {"title": item["title"], "price": Decimal(item["price"])} for item in data.get("servicesAndAddOns", [])
    ]
    return data


def snapshot(listing: Listing) -> dict:
    """The substantive fields of the live listing, shaped like validated input."""
    data = {key: getattr(listing, field) for key, field in SCALAR_FIELDS.items() if key in SUBSTANTIVE_FIELDS}
    data["images"] = list(listing.images.values_list("path", flat=True))
    data["amenities"] = set(listing.amenities.values_list("pk", flat=True))
    data["facilities"] = set(listing.facilities.values_list("pk", flat=True))
    data["spaceOffering"] = [
        {
            "kind": o.kind,
            "seats": o.seats,
            "minimumPeriod": o.minimum_period,
            **{p: getattr(o, p) for p in Period.values},
        }
        for o in listing.space_offerings.all()
    ]
    data["servicesAndAddOns"] = [{"title": a.title, "price": a.price} for a in listing.add_ons.all()]
    return data


def _money(value) -> Decimal | None:
    return None if value is None else Decimal(value).quantize(Decimal("0.01"))


def _normalise(key: str, value):
    if key in ("amenities", "facilities"):
        return {uuid.UUID(str(item)) for item in value or []}
    if key in ("hourly", "daily", "weekly", "monthly", "discount", "processingFee"):
        return _money(value)
    if key == "spaceOffering":
        return sorted(
            (item["kind"], *(_money(item.get(p)) for p in Period.values), item["seats"], item["minimumPeriod"])
            for item in value or []
        )
    if key == "servicesAndAddOns":
        return sorted((item["title"].strip(), _money(item["price"])) for item in value or [])
    if key in ("latitude", "longitude"):
        return None if value is None else Decimal(value).quantize(Decimal("0.000001"))
    if key == "commissionCollection":
        return Decimal(value).quantize(Decimal("0.01"))
    if isinstance(value, str):
        return value.strip()
    return value


FIELD_LABELS: dict[str, str] = {
    "title": "Title",
    "description": "Description",
    "propertyType": "Property type",
    "images": "Photos",
    "streetAddress": "Street address",
    "city": "City",
    "state": "State",
    "country": "Country",
    "postalCode": "Postal code",
    "address": "Address",
    "latitude": "Latitude",
    "longitude": "Longitude",
    "amenities": "Amenities",
    "facilities": "Facilities",
    "dimension": "Size",
    "commissionCollection": "Commission",
    "timeZone": "Time zone",
    "hourly": "Hourly price",
    "daily": "Daily price",
    "weekly": "Weekly price",
    "monthly": "Monthly price",
    "spaceOffering": "Offerings and prices",
    "servicesAndAddOns": "Services and add-ons",
    "discount": "Discount",
    "processingFee": "Convenience fee",
}


def _dollars(value) -> str:
    return f"${Decimal(value):,.2f}"


def _shown(key: str, value):
    """A value of an edit request's diff as a person reads it."""
    if key == "spaceOffering":
        words = {Period.HOURLY: "hour", Period.DAILY: "day", Period.WEEKLY: "week", Period.MONTHLY: "month"}
        return [
            f"{OfferingKind(item['kind']).label}: "
            + ", ".join(f"{_dollars(item[p])} / {words[p]}" for p in Period.values if item.get(p) is not None)
            + f" ({item['seats']} seats, minimum {item['minimumPeriod']})"
            for item in sorted(value or [], key=lambda item: item["kind"])
        ]
    if key == "servicesAndAddOns":
        return [f"{item['title']} {_dollars(item['price'])}" for item in value or []]
    if key in ("hourly", "daily", "weekly", "monthly"):
        return None if value is None else _dollars(value)
    if key in ("discount", "processingFee", "commissionCollection"):
        return f"{Decimal(value):.2f}%"
    if key in ("amenities", "facilities"):
        model = Amenity if key == "amenities" else Facility
        ids = {str(item) for item in value or []}
        return sorted(model.objects.filter(pk__in=ids).values_list("name", flat=True))
    return as_payload(value)


def request_changes(listing_request: ListingRequest) -> list[dict]:
    """An edit request's proposed values beside the live listing's, field by field (those it changes)."""
    if listing_request.kind != RequestKind.EDIT:
        return []
    live = snapshot(listing_request.listing)
    proposed = listing_request.payload or {}
    return [
        {
            "field": key,
            "label": FIELD_LABELS.get(key, key),
            "live": _shown(key, live.get(key)),
            "proposed": _shown(key, proposed.get(key)),
        }
        for key in listing_request.changed_fields
    ]


def substantive_changes(listing: Listing, data: dict) -> list[str]:
    """Which substantive fields ``data`` (validated input) would change on ``listing``. A work space's
    own period prices follow from its offerings, so only the offerings are compared."""
    live = snapshot(listing)
    derived = (
        set(Period.values)
        if listing.property_type == PropertyType.OFFICE_SPACE and data.get("propertyType") == PropertyType.OFFICE_SPACE
        else set()
    )
    return [
        key
        for key in SUBSTANTIVE_FIELDS
        if key not in derived and _normalise(key, live.get(key)) != _normalise(key, data.get(key))
    ]


def zone_after(listing: Listing, data: dict) -> str:
    """The time zone ``listing`` has once ``data`` (validated input) is applied.

    An explicit ``timeZone`` wins; otherwise a new listing, or one whose city, country or map pin
    moves, gets the zone of its pin or city (``zones.zone_for``); otherwise it keeps its zone.
    """
    if data.get("timeZone"):
        return data["timeZone"]
    moved = listing._state.adding or any(
        key in data and _normalise(key, getattr(listing, SCALAR_FIELDS[key])) != _normalise(key, data[key])
        for key in LOCATION_FIELDS
    )
    if not moved and listing.time_zone:
        return listing.time_zone
    located = {key: data.get(key, getattr(listing, SCALAR_FIELDS[key])) for key in LOCATION_FIELDS}
    return zones.zone_for(**located)


def apply_input(listing: Listing, data: dict) -> Listing:
    """Write validated input onto ``listing`` and replace its offerings, add-ons, images and lists."""
    listing.time_zone = zone_after(listing, data)
    for key, field in SCALAR_FIELDS.items():
        if key == "timeZone":
            continue
        if key in data:
            value = data[key]
            if isinstance(value, str) and key not in ("openingHours",):
                value = value.strip()
            setattr(listing, field, value)
    offerings = data.get("spaceOffering") or []
    if listing.property_type == PropertyType.OFFICE_SPACE:
        # The listing's own prices are the "from" prices of its offerings (used by search and cards).
        for period in Period.values:
            prices = [item[period] for item in offerings if item.get(period) is not None]
            setattr(listing, period, min(prices) if prices else None)
        listing.guest = None
    else:
        offerings = []
        listing.monthly = None
    listing.save()

    listing.space_offerings.all().delete()
    SpaceOffering.objects.bulk_create(
        SpaceOffering(
            listing=listing,
            kind=item["kind"],
            seats=item["seats"],
            minimum_period=item["minimumPeriod"],
            **{p: item.get(p) if p in OFFERING_PERIODS[item["kind"]] else None for p in Period.values},
        )
        for item in offerings
    )
    listing.add_ons.all().delete()
    AddOn.objects.bulk_create(
        AddOn(listing=listing, title=item["title"], price=item["price"]) for item in data.get("servicesAndAddOns", [])
    )
    listing.images.all().delete()
    alts = data.get("imageAlts") or {}
    ListingImage.objects.bulk_create(
        ListingImage(listing=listing, path=path, position=position, alt=(alts.get(path) or listing.title)[:200])
        for position, path in enumerate(data.get("images", []))
    )
    listing.amenities.set(data.get("amenities", []))
    listing.facilities.set(data.get("facilities", []))
    return listing
