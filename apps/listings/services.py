"""Listing writes: create, edit, activate, delete, moderation, favourites, amenities and facilities.

Every listing status change goes through ``listing_status_change`` (one table of allowed moves,
a conditional UPDATE so two reviewers cannot both win); every request decision through
``listing_request_review``.
"""

import datetime
import logging
import secrets
import uuid
from decimal import Decimal

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from apps.accounts.models import STAFF_ROLES, Role, User
from apps.accounts.policies import acting_host
from apps.core.access import Area, reaches
from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotFound
from apps.core.statemachine import StateMachine, record
from apps.notifications.services import counters_changed, notify
from apps.premium.selectors import active_listing_limit, host_is_premium

from . import media, policies, zones
from .models import (
    OFFERING_PERIODS,
    AddOn,
    Amenity,
    Facility,
    Favourite,
    Listing,
    ListingDraft,
    ListingImage,
    ListingRequest,
    ListingStatus,
    OfferingKind,
    Period,
    PropertyType,
    RequestKind,
    RequestStatus,
    SpaceOffering,
)
from .policies import is_public
from .search_cache import search_changed
from .signals import listing_withdrawing

logger = logging.getLogger(__name__)

# Allowed listing status moves. An approved listing stays approved while an edit is reviewed.
LISTING_MACHINE = StateMachine(
    "listing",
    {
        ListingStatus.PENDING: {ListingStatus.APPROVED, ListingStatus.REJECTED},
        ListingStatus.REJECTED: {ListingStatus.PENDING},
        ListingStatus.APPROVED: set(),
    },
)
LISTING_TRANSITIONS = LISTING_MACHINE.table
# A review request is decided once (or cancelled when an edit replaces it or the listing is deleted).
REQUEST_MACHINE = StateMachine(
    "listingRequest",
    {
        RequestStatus.PENDING: {RequestStatus.APPROVED, RequestStatus.REJECTED, RequestStatus.CANCELLED},
        RequestStatus.APPROVED: set(),
        RequestStatus.REJECTED: set(),
        RequestStatus.CANCELLED: set(),
    },
    label="request",
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


# --- Helpers --------------------------------------------------------------------------------------


def _acting_host(actor: User) -> User:
    host = acting_host(actor)
    if host is None:
        raise Forbidden("Only hosts and their sub-hosts manage listings.")
    return host


def _unique_slug(title: str) -> str:
    base = slugify(title)[:110].strip("-") or "space"
    for _ in range(10):
        slug = f"{base}-{secrets.token_hex(3)}"
        if not Listing.objects.filter(slug=slug).exists():
            return slug
    return f"{base}-{uuid.uuid4().hex[:12]}"


def _jsonable(value):
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (datetime.date, uuid.UUID)):
        return value.isoformat() if isinstance(value, datetime.date) else str(value)
    return value


def _revive(payload: dict) -> dict:
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


def _check_images(*, data: dict, host: User, listing: Listing | None) -> dict:
    """Each image is the host's own upload (present in storage) or already on this listing.
    Returns ``data`` with the images as clean storage paths and their alt texts keyed the same way."""
    alts = data.get("imageAlts") or {}
    clean_alts: dict[str, str] = {}
    current = set(listing.images.values_list("path", flat=True)) if listing else set()
    cleaned = []
    for raw in data.get("images", []):
        if raw in current:
            cleaned.append(raw)
            if alts.get(raw):
                clean_alts[raw] = alts[raw]
            continue
        path, owner = media.clean_path(raw)
        if alts.get(raw):
            clean_alts[path] = alts[raw]
        if path in current:
            cleaned.append(path)
            continue
        if owner != str(host.pk):
            message = "Use images you uploaded for this listing."
            raise InvalidInput(message, errors={"images": [message]})
        if not default_storage.exists(path):
            message = "An image was not found. Upload it again."
            raise InvalidInput(message, errors={"images": [message]})
        cleaned.append(path)
    return {**data, "images": list(dict.fromkeys(cleaned)), "imageAlts": clean_alts}


def _check_catalogue(data: dict) -> None:
    for key, model, label in (("amenities", Amenity, "amenity"), ("facilities", Facility, "facility")):
        ids = set(data.get(key) or [])
        if ids and model.objects.filter(pk__in=ids, is_active=True).count() != len(ids):
            message = f"Choose each {label} from the list."
            raise InvalidInput(message, errors={key: [message]})


def _snapshot(listing: Listing) -> dict:
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
    return _jsonable(value)


def request_changes(listing_request: ListingRequest) -> list[dict]:
    """An edit request's proposed values beside the live listing's, field by field (those it changes)."""
    if listing_request.kind != RequestKind.EDIT:
        return []
    live = _snapshot(listing_request.listing)
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
    live = _snapshot(listing)
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


def _apply(listing: Listing, data: dict) -> Listing:
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


def _notify(**kwargs) -> None:
    notify(**kwargs)


def _counters_changed(*, listing: Listing) -> None:
    """Open dashboards get fresh pending counters (staff's pendingListings, the host's otherRequests)."""
    counters_changed(users=[listing.host_id], staff=True)


def _notify_staff_of_request(listing_request: ListingRequest) -> None:
    listing = listing_request.listing
    what = "A new listing" if listing_request.kind == RequestKind.NEW else "An edit of a listing"
    staff = User.objects.filter(role__in=STAFF_ROLES, is_active=True, is_deleted=False)
    for user in staff:
        _notify(
            user=user,
            kind="listingSubmitted",
            content=f"{what} is waiting for review: {listing.title}",
            link="/listing-requests",
        )


def _open_request(*, listing: Listing, kind: str, by: User, payload: dict | None = None, changed=()) -> ListingRequest:
    try:
        with transaction.atomic():
            listing_request = ListingRequest.objects.create(
                listing=listing, kind=kind, requested_by=by, payload=payload or {}, changed_fields=list(changed)
            )
    except IntegrityError:
        raise Conflict("This listing already has a request waiting for review.") from None
    record(listing_request, machine=REQUEST_MACHINE.name, from_status="", to_status=RequestStatus.PENDING, actor=by)
    _notify_staff_of_request(listing_request)
    _counters_changed(listing=listing)
    return listing_request


def _pending_request(listing: Listing) -> ListingRequest | None:
    return ListingRequest.objects.select_for_update().filter(listing=listing, status=RequestStatus.PENDING).first()


# --- Status changes -------------------------------------------------------------------------------


@transaction.atomic
def listing_status_change(*, listing: Listing, to: str, by: User | None, reason: str = "") -> Listing:
    """Move ``listing`` to status ``to`` if the table allows it from its current status."""
    source = Listing.objects.filter(pk=listing.pk).values_list("status", flat=True).first()
    if source is None:
        raise NotFound("Listing not found.")
    if not LISTING_MACHINE.can(source, to):
        raise Conflict(f"A {source} listing cannot become {to}.")
    now = timezone.now()
    values: dict = {"updated_at": now}
    if to == ListingStatus.APPROVED:
        values.update(approved_at=now, reject_reason="")
    elif to == ListingStatus.REJECTED:
        values.update(reject_reason=reason)
    else:
        values.update(reject_reason="")
    listing.status = source
    LISTING_MACHINE.transition(
        listing,
        to,
        actor=by,
        reason=reason,
        message="This listing changed meanwhile. Please refresh and try again.",
        **values,
    )
    search_changed()
    logger.info("listing %s: %s -> %s by %s", listing.pk, source, to, getattr(by, "pk", None))
    return listing


def _request_close(*, listing_request: ListingRequest, to: str, by: User | None, reason: str = "") -> None:
    if not REQUEST_MACHINE.can(listing_request.status, to):
        raise Conflict(f"This request is already {listing_request.status}.")
    now = timezone.now()
    REQUEST_MACHINE.transition(
        listing_request,
        to,
        actor=by,
        reason=reason,
        message="This request was already decided. Please refresh.",
        values={"reason": reason},
        reviewed_by=by,
        reviewed_at=now,
        updated_at=now,
    )
    _counters_changed(listing=listing_request.listing)


@transaction.atomic
def listing_request_review(
    *, listing_request: ListingRequest, by: User, status: str, reason: str = ""
) -> ListingRequest:
    """Admin or moderator approves or rejects a request. A rejection needs a reason.

    Approving a new listing publishes it; approving an edit applies the proposed values.
    Rejecting a new listing marks it rejected (the host can edit and resubmit); rejecting an edit
    leaves the live listing as it was.
    """
    if not reaches(by, Area.LISTING_REVIEWS):
        raise Forbidden("Only admins and moderators review listings.")
    reason = (reason or "").strip()
    if status == RequestStatus.REJECTED and not reason:
        raise InvalidInput("Please give a reason for the rejection", errors={"reason": ["Please give a reason"]})
    if status not in (RequestStatus.APPROVED, RequestStatus.REJECTED):
        raise InvalidInput("Status must be approved or rejected.", errors={"status": ["Approved or rejected."]})
    listing_request = ListingRequest.objects.select_for_update().select_related("listing").get(pk=listing_request.pk)
    listing = Listing.objects.select_for_update().get(pk=listing_request.listing_id)
    if listing.is_deleted:
        raise Conflict("This listing was deleted.")
    _request_close(listing_request=listing_request, to=status, by=by, reason=reason)
    if listing_request.kind == RequestKind.NEW:
        listing_status_change(listing=listing, to=status, by=by, reason=reason)
    elif status == RequestStatus.APPROVED:
        _apply(listing, _revive(listing_request.payload))
    listing_request.listing = listing

    if status == RequestStatus.APPROVED:
        what = "Your listing" if listing_request.kind == RequestKind.NEW else "Your changes to"
        _notify(
            user=listing.host,
            kind="listingApproved",
            content=f"{what} {listing.title} {'was' if listing_request.kind == RequestKind.NEW else 'were'} approved.",
            link=f"/listing-details/{listing.slug}",
        )
    else:
        what = "Your listing" if listing_request.kind == RequestKind.NEW else "Your changes to"
        _notify(
            user=listing.host,
            kind="listingRejected",
            content=f"{what} {listing.title} {'was' if listing_request.kind == RequestKind.NEW else 'were'} "
            f"rejected: {reason}",
            link=f"/listing-detail/{listing.pk}",
        )
    return listing_request


# --- Host actions -------------------------------------------------------------------------------


@transaction.atomic
def listing_create(*, actor: User, data: dict) -> Listing:
    """A host or subHost submits a new listing (validated ``ListingInput`` data); it waits for review."""
    host = _acting_host(actor)
    # The platform's commission is not the host's to set (read-only in the form).
    data = {**data, "commissionCollection": settings.LISTING_COMMISSION_PERCENT}
    data = _check_images(data=data, host=host, listing=None)
    _check_catalogue(data)
    _check_premium_mark(host_id=host.pk, listing=None, data=data)
    _check_active_limit(host_id=host.pk)
    listing = Listing(
        host=host,
        created_by=actor,
        slug=_unique_slug(data["title"]),
        property_type=data["propertyType"],
        status=ListingStatus.PENDING,
    )
    _apply(listing, data)
    record(listing, machine=LISTING_MACHINE.name, from_status="", to_status=ListingStatus.PENDING, actor=actor)
    listing.request_id = _open_request(listing=listing, kind=RequestKind.NEW, by=actor).pk
    ListingDraft.objects.filter(host=host, listing__isnull=True).delete()
    return listing


@transaction.atomic
def listing_update(*, actor: User, listing: Listing, data: dict) -> tuple[Listing, ListingRequest | None]:
    """A full edit. Returns the listing and, when the edit waits for review, its request.

    - pending listing: applied at once (its request stays pending);
    - rejected listing: applied and sent back for review;
    - approved listing: a substantive change waits in an edit request (a later edit replaces the
      proposal); otherwise it applies at once, and withdraws a waiting proposal.
    """
    host = _acting_host(actor)
    listing = Listing.objects.select_for_update().get(pk=listing.pk)
    refusal = policies.edit_refusal(actor, listing)
    if refusal is not None:
        raise refusal
    data = {**data, "commissionCollection": listing.commission_collection}
    data = _check_images(data=data, host=host, listing=listing)
    _check_catalogue(data)
    _check_premium_mark(host_id=host.pk, listing=listing, data=data)
    if zone_after(listing, data) != listing.time_zone:
        # Booked times are moments; moving the zone under them would change what renters were promised.
        _refuse_with_upcoming_bookings(listing, "change the time zone of")
    pending = _pending_request(listing)
    ListingDraft.objects.filter(listing=listing).delete()

    if listing.status != ListingStatus.APPROVED:
        _apply(listing, data)
        if listing.status == ListingStatus.REJECTED:
            listing_status_change(listing=listing, to=ListingStatus.PENDING, by=actor)
            pending = _open_request(listing=listing, kind=RequestKind.NEW, by=actor)
        listing.request_id = pending.pk if pending else None
        return listing, pending

    changed = substantive_changes(listing, data)
    if not changed:
        if pending is not None:
            _request_close(listing_request=pending, to=RequestStatus.CANCELLED, by=actor, reason="Replaced by an edit.")
        _apply(listing, data)
        listing.request_id = None
        return listing, None

    payload = _jsonable(data)
    if pending is not None:
        pending.payload, pending.changed_fields, pending.requested_by = payload, changed, actor
        pending.save(update_fields=["payload", "changed_fields", "requested_by", "updated_at"])
    else:
        pending = _open_request(listing=listing, kind=RequestKind.EDIT, by=actor, payload=payload, changed=changed)
    listing.request_id = pending.pk
    return listing, pending


def _refuse_with_upcoming_bookings(listing: Listing, action: str) -> None:
    """A listing with bookings still to come cannot be taken down: renters were promised the space.
    The bookings app refuses (``apps.bookings.subscribers``: ``listing_refuse_with_upcoming_bookings``)."""
    listing_withdrawing.send(sender=Listing, listing=listing, action=action)


@transaction.atomic
def listing_set_active(*, actor: User, listing: Listing, is_active: bool | None = None) -> Listing:
    """Activate or deactivate (toggle when ``is_active`` is None). Hosts their own; staff any.

    Deactivating is refused while the listing has upcoming bookings; activating is refused beyond
    the host's active listing limit (a free host keeps 3 active, premium lifts the limit).
    """
    listing = Listing.objects.select_for_update().get(pk=listing.pk)
    _check_manage(actor, listing)
    target = (not listing.is_active) if is_active is None else is_active
    if target == listing.is_active:
        return listing
    if target:
        _check_active_limit(host_id=listing.host_id, adding=listing)
    else:
        _refuse_with_upcoming_bookings(listing, "deactivate")
    listing.is_active = target
    listing.save(update_fields=["is_active", "updated_at"])
    return listing


@transaction.atomic
def listing_delete(*, actor: User, listing: Listing) -> Listing:
    """Soft-delete: the listing disappears everywhere but stays for the records that refer to it.
    Refused while the listing has upcoming bookings."""
    listing = Listing.objects.select_for_update().get(pk=listing.pk)
    _check_manage(actor, listing)
    _refuse_with_upcoming_bookings(listing, "delete")
    for pending in ListingRequest.objects.select_for_update().filter(listing=listing, status=RequestStatus.PENDING):
        _request_close(listing_request=pending, to=RequestStatus.CANCELLED, by=actor, reason="Listing deleted.")
    listing.is_deleted = True
    listing.is_active = False
    listing.deleted_at = timezone.now()
    listing.save(update_fields=["is_deleted", "is_active", "deleted_at", "updated_at"])
    return listing


def _check_active_limit(*, host_id, adding: Listing | None = None) -> None:
    """Refuse one more active listing beyond the host's limit (``apps.payments.premium``).

    The host's row is locked so two requests at once cannot both take the last free place.
    Listings already active when a membership ends stay active; only new activations count.
    """
    limit = active_listing_limit(host_id)
    if limit is None:
        return
    User.objects.select_for_update().filter(pk=host_id).first()
    active = Listing.objects.filter(host_id=host_id, is_active=True, is_deleted=False)
    if adding is not None and adding.pk is not None:
        active = active.exclude(pk=adding.pk)
    if active.count() >= limit:
        raise Forbidden(
            f"A free membership keeps {limit} active listings. Deactivate one, or get a premium "
            "membership: it lifts the limit."
        )


def _check_premium_mark(*, host_id, listing: Listing | None, data: dict) -> None:
    """Only a premium host may mark a listing as premium (featured). Keeping a mark set while
    premium counts is allowed, so a lapsed host can still edit the listing."""
    wants = data.get("isPremium")
    if wants and not (listing is not None and listing.is_premium) and not host_is_premium(host_id):
        message = "Only premium members can feature listings. Get a premium membership to mark this listing premium."
        raise Forbidden(message, errors={"isPremium": [message]})


def _check_manage(actor: User, listing: Listing) -> None:
    refusal = policies.manage_refusal(actor, listing)
    if refusal is not None:
        raise refusal


# --- Drafts --------------------------------------------------------------------------------------

MAX_DRAFT_BYTES = 200_000


def _draft_scope(*, actor: User, listing_id) -> tuple[User, Listing | None]:
    host = _acting_host(actor)
    if listing_id is None:
        return host, None
    listing = Listing.objects.filter(pk=listing_id, host=host, is_deleted=False).first()
    if listing is None:
        raise NotFound("Listing not found.")
    return host, listing


@transaction.atomic
def listing_draft_save(*, actor: User, listing_id=None, step: int, data: dict) -> ListingDraft:
    """Keep the listing form as the host left it (a new listing, or changes to ``listing_id``).
    Saving again replaces the draft; nothing of the live listing changes."""
    import json

    if len(json.dumps(data, default=str)) > MAX_DRAFT_BYTES:
        message = "This draft is too large to keep. Remove some text and try again."
        raise InvalidInput(message, errors={"data": [message]})
    host, listing = _draft_scope(actor=actor, listing_id=listing_id)
    updated = ListingDraft.objects.filter(host=host, listing=listing).update(
        step=step, data=data, updated_by=actor, updated_at=timezone.now()
    )
    if not updated:
        try:
            with transaction.atomic():
                ListingDraft.objects.create(host=host, listing=listing, step=step, data=data, updated_by=actor)
        except IntegrityError:  # saved at the same moment from another tab: the later write wins
            ListingDraft.objects.filter(host=host, listing=listing).update(step=step, data=data, updated_by=actor)
    return ListingDraft.objects.get(host=host, listing=listing)


def listing_draft_get(*, actor: User, listing_id=None) -> ListingDraft | None:
    host, listing = _draft_scope(actor=actor, listing_id=listing_id)
    return ListingDraft.objects.filter(host=host, listing=listing).first()


@transaction.atomic
def listing_draft_discard(*, actor: User, listing_id=None) -> bool:
    host, listing = _draft_scope(actor=actor, listing_id=listing_id)
    deleted, _ = ListingDraft.objects.filter(host=host, listing=listing).delete()
    return bool(deleted)


# --- Favourites -----------------------------------------------------------------------------------


@transaction.atomic
def favourite_add(*, user: User, listing: Listing) -> tuple[Favourite, bool]:
    """A renter saves an approved, active listing. Saving twice is harmless (returns created False)."""
    if user.role != Role.RENTER:
        raise Forbidden("Only renters keep favourites.")
    if not is_public(listing):
        raise NotFound("Listing not found.")
    favourite, created = Favourite.objects.get_or_create(user=user, listing=listing)
    return favourite, created


@transaction.atomic
def favourite_remove(*, user: User, listing_id) -> bool:
    deleted, _ = Favourite.objects.filter(user=user, listing_id=listing_id).delete()
    return bool(deleted)


# --- Amenities and facilities ---------------------------------------------------------------------


@transaction.atomic
def catalogue_item_create(*, model: type[Amenity] | type[Facility], name: str, icon: str = "") -> Amenity | Facility:
    name = (name or "").strip()
    if not name:
        raise InvalidInput("Name is required", errors={"name": ["Name is required"]})
    if model.objects.filter(name__iexact=name).exists():
        raise Conflict(f"{name} is already in the list.", errors={"name": [f"{name} is already in the list."]})
    return model.objects.create(name=name, icon=(icon or "").strip())


@transaction.atomic
def catalogue_item_update(
    *, item: Amenity | Facility, name: str | None = None, icon: str | None = None, is_active: bool | None = None
) -> Amenity | Facility:
    """Rename, change the icon, or (de)activate. A deactivated item stays on the listings that have it
    but can no longer be chosen."""
    model = type(item)
    if name is not None:
        name = name.strip()
        if not name:
            raise InvalidInput("Name is required", errors={"name": ["Name is required"]})
        if model.objects.filter(~Q(pk=item.pk), name__iexact=name).exists():
            raise Conflict(f"{name} is already in the list.", errors={"name": [f"{name} is already in the list."]})
        item.name = name
    if icon is not None:
        item.icon = icon.strip()
    if is_active is not None:
        item.is_active = is_active
    item.save()
    return item


def listings_premium_soft_delete(*, host_id, now=None) -> int:
    """Soft-delete a host's listings marked premium (15 days after its membership was cancelled).
    The rows stay for the bookings and payments that refer to them."""
    removed = Listing.objects.filter(host_id=host_id, is_premium=True, is_deleted=False).update(
        is_deleted=True, deleted_at=now or timezone.now()
    )
    if removed:
        search_changed()
    return removed
