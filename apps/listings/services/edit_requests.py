"""Requests waiting for review (a new listing, an edit of an approved one): opening, replacing,
closing, and the staff's decision."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.accounts.models import STAFF_ROLES, User
from apps.core.access import Area, reaches
from apps.core.exceptions import Conflict, Forbidden, InvalidInput
from apps.core.statemachine import StateMachine, record
from apps.notifications.services import counters_changed, notify

from ..models import Listing, ListingRequest, RequestKind, RequestStatus
from .changes import apply_input, from_payload
from .status import listing_status_change

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


def _counters_changed(*, listing: Listing) -> None:
    """Open dashboards get fresh pending counters (staff's pendingListings, the host's otherRequests)."""
    counters_changed(users=[listing.host_id], staff=True)


def _notify_staff_of_request(listing_request: ListingRequest) -> None:
    listing = listing_request.listing
    what = "A new listing" if listing_request.kind == RequestKind.NEW else "An edit of a listing"
    staff = User.objects.filter(role__in=STAFF_ROLES, is_active=True, is_deleted=False)
    for user in staff:
        notify(
            user=user,
            kind="listingSubmitted",
            content=f"{what} is waiting for review: {listing.title}",
            link="/listing-requests",
        )


def request_open(*, listing: Listing, kind: str, by: User, payload: dict | None = None, changed=()) -> ListingRequest:
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


def request_pending(listing: Listing) -> ListingRequest | None:
    return ListingRequest.objects.select_for_update().filter(listing=listing, status=RequestStatus.PENDING).first()


def request_close(*, listing_request: ListingRequest, to: str, by: User | None, reason: str = "") -> None:
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
    request_close(listing_request=listing_request, to=status, by=by, reason=reason)
    if listing_request.kind == RequestKind.NEW:
        listing_status_change(listing=listing, to=status, by=by, reason=reason)
    elif status == RequestStatus.APPROVED:
        apply_input(listing, from_payload(listing_request.payload))
    listing_request.listing = listing

    if status == RequestStatus.APPROVED:
        what = "Your listing" if listing_request.kind == RequestKind.NEW else "Your changes to"
        notify(
            user=listing.host,
            kind="listingApproved",
            content=f"{what} {listing.title} {'was' if listing_request.kind == RequestKind.NEW else 'were'} approved.",
            link=f"/listing-details/{listing.slug}",
        )
    else:
        what = "Your listing" if listing_request.kind == RequestKind.NEW else "Your changes to"
        notify(
            user=listing.host,
            kind="listingRejected",
            content=f"{what} {listing.title} {'was' if listing_request.kind == RequestKind.NEW else 'were'} "
            f"rejected: {reason}",
            link=f"/listing-detail/{listing.pk}",
        )
    return listing_request
