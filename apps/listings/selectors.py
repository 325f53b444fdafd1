"""Listing reads that depend on who asks: the dashboard lists, requests, favourites, one listing."""

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Subquery, Value
from django.db.models.fields import BooleanField

from apps.accounts.models import STAFF_ROLES, Role
from apps.core.exceptions import InvalidInput, NotFound
from apps.core.filters import filter_choice, filter_invalid
from apps.core.policies import period_start

from .models import (
    Amenity,
    Facility,
    Favourite,
    Listing,
    ListingRequest,
    ListingStatus,
    PropertyType,
    RequestKind,
    RequestStatus,
    SpaceOffering,
)
from .policies import PUBLIC_LISTING, public_listings

TITLE_FILTER_MAX = 140


def with_favourite_flag(queryset: QuerySet[Listing], user) -> QuerySet[Listing]:
    """Annotate ``is_favourite`` for a signed-in renter (one EXISTS in the same query); False otherwise."""
    if user is not None and getattr(user, "is_authenticated", False) and user.role == Role.RENTER:
        return queryset.annotate(is_favourite=Exists(Favourite.objects.filter(user=user, listing=OuterRef("pk"))))
    return queryset.annotate(is_favourite=Value(False, output_field=BooleanField()))


def with_request_id(queryset: QuerySet[Listing]) -> QuerySet[Listing]:
    """Annotate ``request_id``: the listing's pending review request, if any (the spec's requestId)."""
    pending = ListingRequest.objects.filter(listing=OuterRef("pk"), status=RequestStatus.PENDING).values("pk")[:1]
    return queryset.annotate(request_id=Subquery(pending))


def listing_queryset(*, user=None) -> QuerySet[Listing]:
    """Listings with everything ``ListingSerializer`` reads, in a fixed number of queries."""
    queryset = Listing.objects.select_related("host").prefetch_related(
        "images",
        Prefetch("space_offerings", queryset=SpaceOffering.objects.order_by("kind")),
        "add_ons",
        Prefetch("amenities", queryset=Amenity.objects.order_by("name")),
        Prefetch("facilities", queryset=Facility.objects.order_by("name")),
    )
    return with_request_id(with_favourite_flag(queryset, user))


def _scope(queryset: QuerySet, user, *, prefix: str = "") -> QuerySet:
    """Admin and moderator see all; a host its own listings; a subHost its host's; others none."""
    if user.role in STAFF_ROLES:
        return queryset
    if user.acting_host_id is not None:
        return queryset.filter(**{f"{prefix}host_id": user.acting_host_id})
    return queryset.none()


def _title(filters: dict) -> str | None:
    title = filters.get("title")
    if title is not None and len(title) > TITLE_FILTER_MAX:
        raise filter_invalid("title", f"filters[title] must be at most {TITLE_FILTER_MAX} characters.")
    if title is not None and "\x00" in title:
        raise InvalidInput("filters[title] is not valid.", errors={"filters[title]": ["Not valid."]})
    return title


def _filtered(queryset: QuerySet, filters: dict, *, choices: dict, title_field: str) -> QuerySet:
    """The filters of the listing pages, newest first: each of ``choices`` (filter name: (field,
    allowed values)), ``title`` (contained in ``title_field``) and ``period`` (created in the last
    day, week or month). A value outside those allowed is a 400 naming the filter."""
    for name, (field, allowed) in choices.items():
        value = filter_choice(filters, name, allowed)
        if value:
            queryset = queryset.filter(**{field: value})
    title = _title(filters)
    if title:
        queryset = queryset.filter(**{f"{title_field}__icontains": title})
    since = period_start(filters.get("period"))
    if since is not None:
        queryset = queryset.filter(created_at__gte=since)
    return queryset.order_by("-created_at", "-pk")


def listing_list_for(*, user, filters: dict) -> QuerySet[Listing]:
    """``GET /api/listing/get-all``: the caller's listings (not deleted), newest first; ``filters[isActive]``
    true or false (the inactive tab) besides the spec's status, property type, title and period."""
    queryset = _scope(listing_queryset(user=user).filter(is_deleted=False), user)
    active = filter_choice(filters, "isActive", ["true", "false"])
    if active:
        queryset = queryset.filter(is_active=active == "true")
    choices = {"status": ("status", ListingStatus.values), "propertyType": ("property_type", PropertyType.values)}
    return _filtered(queryset, filters, choices=choices, title_field="title")


def listing_get_for(*, user, listing_id, bare: bool = False) -> Listing:
    """One listing as ``user`` may see it: staff any (even deleted), the host side its own (not deleted),
    anyone else only approved, active, not deleted listings. Otherwise 404.

    ``bare``: the listing's own row and its space offerings only (for reads such as availability
    that need neither the serializer's relations nor the caller's favourite flag)."""
    if bare:
        queryset = Listing.objects.prefetch_related(
            Prefetch("space_offerings", queryset=SpaceOffering.objects.order_by("kind"))
        )
    else:
        queryset = listing_queryset(user=user)
    if user.role not in STAFF_ROLES:
        visible = PUBLIC_LISTING
        if user.acting_host_id is not None:
            visible |= Q(host_id=user.acting_host_id)
        queryset = queryset.filter(visible, is_deleted=False)
    listing = queryset.filter(pk=listing_id).first()
    if listing is None:
        raise NotFound("Listing not found.")
    return listing


def listing_get_managed(*, user, listing_id) -> Listing:
    """A listing ``user`` may manage: the host side its own, staff any; never a deleted one."""
    listing = _scope(Listing.objects.filter(is_deleted=False), user).filter(pk=listing_id).first()
    if listing is None:
        raise NotFound("Listing not found.")
    return listing


def listing_request_list_for(*, user, filters: dict) -> QuerySet[ListingRequest]:
    """``GET /api/listing/get-all-requests``: review requests, newest first.

    ``filters[type]``: ``new`` (listing-requests) or ``edit`` (other-requests); ``filters[status]``
    one of pending, approved, rejected, cancelled; ``filters[title]``; ``filters[period]``.
    """
    queryset = _scope(
        ListingRequest.objects.select_related("listing__host").prefetch_related("listing__images"),
        user,
        prefix="listing__",
    ).filter(listing__is_deleted=False)
    choices = {"type": ("kind", RequestKind.values), "status": ("status", RequestStatus.values)}
    return _filtered(queryset, filters, choices=choices, title_field="listing__title")


def listing_request_get_for(*, user, request_id) -> ListingRequest:
    """One review request: staff any, the host side its own listings'; otherwise 404."""
    queryset = _scope(
        ListingRequest.objects.select_related("listing__host").prefetch_related("listing__images"),
        user,
        prefix="listing__",
    )
    listing_request = queryset.filter(pk=request_id, listing__is_deleted=False).first()
    if listing_request is None:
        raise NotFound("Request not found.")
    return listing_request


def listing_request_get_for_review(*, request_id) -> ListingRequest:
    listing_request = ListingRequest.objects.select_related("listing").filter(pk=request_id).first()
    if listing_request is None:
        raise NotFound("Request not found.")
    return listing_request


def favourite_list_for(*, user) -> QuerySet[Listing]:
    """A renter's saved listings that are still live, most recently saved first."""
    saved = Favourite.objects.filter(user=user, listing=OuterRef("pk")).values("created_at")[:1]
    return (
        listing_queryset(user=user)
        .filter(PUBLIC_LISTING, favourited_by__user=user)
        .annotate(saved_at=Subquery(saved))
        .order_by("-saved_at", "-pk")
    )


def bookable_listing_get(*, listing_id) -> Listing:
    """An approved, active, not deleted listing (what renters may book or save), else 404."""
    listing = public_listings().filter(pk=listing_id).first()
    if listing is None:
        raise NotFound("Listing not found.")
    return listing


# --- Pending counters ------------------------------------------------------------------------------


def pending_listing_requests(*, user) -> QuerySet[ListingRequest] | None:
    """Admin and moderator: review requests waiting (new listings and edits); None for others."""
    if user.role not in STAFF_ROLES:
        return None
    return ListingRequest.objects.filter(status=RequestStatus.PENDING, listing__is_deleted=False)


def other_requests(*, user) -> QuerySet[ListingRequest] | None:
    """Host and subHost: their edit requests still waiting for review; None without a host."""
    if user.acting_host_id is None:
        return None
    return ListingRequest.objects.filter(
        status=RequestStatus.PENDING,
        kind=RequestKind.EDIT,
        listing__host_id=user.acting_host_id,
        listing__is_deleted=False,
    )
