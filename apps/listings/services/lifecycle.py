"""A host's listing from creation to deletion: create, edit, activate, delete, and the premium
listings' removal after a cancelled membership."""

import secrets
import uuid

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from apps.accounts.models import User
from apps.core.exceptions import Forbidden, InvalidInput
from apps.core.statemachine import record
from apps.premium.selectors import active_listing_limit, host_is_premium

from .. import media, policies
from ..models import Amenity, Facility, Listing, ListingDraft, ListingRequest, ListingStatus, RequestKind, RequestStatus
from ..search_cache import search_changed
from ..signals import listing_withdrawing
from .changes import apply_input, as_payload, substantive_changes, zone_after
from .common import host_acting_for
from .edit_requests import request_close, request_open, request_pending
from .status import LISTING_MACHINE, listing_status_change


def _unique_slug(title: str) -> str:
    base = slugify(title)[:110].strip("-") or "space"
    for _ in range(10):
        slug = f"{base}-{secrets.token_hex(3)}"
        if not Listing.objects.filter(slug=slug).exists():
            return slug
    return f"{base}-{uuid.uuid4().hex[:12]}"


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


@transaction.atomic
def listing_create(*, actor: User, data: dict) -> Listing:
    """A host or subHost submits a new listing (validated ``ListingInput`` data); it waits for review."""
    host = host_acting_for(actor)
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
    apply_input(listing, data)
    record(listing, machine=LISTING_MACHINE.name, from_status="", to_status=ListingStatus.PENDING, actor=actor)
    listing.request_id = request_open(listing=listing, kind=RequestKind.NEW, by=actor).pk
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
    host = host_acting_for(actor)
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
    pending = request_pending(listing)
    ListingDraft.objects.filter(listing=listing).delete()

    if listing.status != ListingStatus.APPROVED:
        apply_input(listing, data)
        if listing.status == ListingStatus.REJECTED:
            listing_status_change(listing=listing, to=ListingStatus.PENDING, by=actor)
            pending = request_open(listing=listing, kind=RequestKind.NEW, by=actor)
        listing.request_id = pending.pk if pending else None
        return listing, pending

    changed = substantive_changes(listing, data)
    if not changed:
        if pending is not None:
            request_close(listing_request=pending, to=RequestStatus.CANCELLED, by=actor, reason="Replaced by an edit.")
        apply_input(listing, data)
        listing.request_id = None
        return listing, None

    payload = as_payload(data)
    if pending is not None:
        pending.payload, pending.changed_fields, pending.requested_by = payload, changed, actor
        pending.save(update_fields=["payload", "changed_fields", "requested_by", "updated_at"])
    else:
        pending = request_open(listing=listing, kind=RequestKind.EDIT, by=actor, payload=payload, changed=changed)
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
        request_close(listing_request=pending, to=RequestStatus.CANCELLED, by=actor, reason="Listing deleted.")
    listing.is_deleted = True
    listing.is_active = False
    listing.deleted_at = timezone.now()
    listing.save(update_fields=["is_deleted", "is_active", "deleted_at", "updated_at"])
    return listing


def _check_active_limit(*, host_id, adding: Listing | None = None) -> None:
    """Refuse one more active listing beyond the host's limit (``apps.premium.selectors``).

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


def listings_premium_soft_delete(*, host_id, now=None) -> int:
    """Soft-delete a host's listings marked premium (15 days after its membership was cancelled).
    The rows stay for the bookings and payments that refer to them."""
    removed = Listing.objects.filter(host_id=host_id, is_premium=True, is_deleted=False).update(
        is_deleted=True, deleted_at=now or timezone.now()
    )
    if removed:
        search_changed()
    return removed
