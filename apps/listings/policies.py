"""Rules of listings: which listings the public may see and book, who may do what to a listing,
and the refund schedule of each cancellation policy (with the sentence renters read).

- ``public_listings()`` is the one queryset of listings a visitor may see, open, save or book:
  approved, active, not deleted, of a host who is neither deleted nor suspended. Search adds the
  spec's ``availability=available`` filter on top (a listing "available soon" keeps its page).
- ``listing_can(user, listing)`` answers edit, delete, activate, approve and reject for the
  ``can`` flags from the ``*_refusal`` functions the services raise, so a flag and a refusal
  never disagree. (Taking a listing down is also refused while bookings are still to come, and
  activating beyond a free host's limit: those depend on other rows and are answered on the write.)
"""

from decimal import Decimal

from django.db.models import Q, QuerySet

from apps.accounts.models import HOST_SIDE_ROLES, STAFF_ROLES
from apps.accounts.policies import acts_for_host
from apps.core.access import Area, reaches
from apps.core.exceptions import Conflict, DomainError, Forbidden, NotFound

from .models import CancellationPolicy, Listing, ListingStatus, Period, PropertyType

# --- Who may see a listing -------------------------------------------------------------------------

# The most people one listing holds, by kind of space (its guests, seats, and each offering's seats):
# a large conference hall, a whole coworking floor. More is a typing slip, and would let one booking
# claim a capacity no space has.
MAX_CAPACITY = {PropertyType.EVENT_SPACE: 5_000, PropertyType.OFFICE_SPACE: 1_000}
KIND_NAMES = {PropertyType.EVENT_SPACE: "an event space", PropertyType.OFFICE_SPACE: "a work space"}


def capacity_problems(property_type: str, counts: dict[str, tuple[str, int | None]]) -> dict[str, list[str]]:
    """``counts`` maps an input field to its label and value; each over the kind's cap gets its message."""
    cap = MAX_CAPACITY.get(property_type)
    if cap is None:
        return {}
    return {
        field: [f"{label} must be at most {cap:,} for {KIND_NAMES[property_type]}"]
        for field, (label, value) in counts.items()
        if value is not None and value > cap
    }


PUBLIC_LISTING = Q(
    status=ListingStatus.APPROVED,
    is_active=True,
    is_deleted=False,
    host__is_active=True,
    host__is_deleted=False,
)
"""A listing the public may see and book (the same condition as ``public_listings``)."""


def public_listings() -> QuerySet[Listing]:
    """Every listing a visitor may see, open, save as a favourite or book."""
    return Listing.objects.filter(PUBLIC_LISTING)


def is_public(listing: Listing) -> bool:
    """The same rule as ``PUBLIC_LISTING`` for a listing already loaded (with its host)."""
    host = listing.host
    return (
        listing.status == ListingStatus.APPROVED
        and listing.is_active
        and not listing.is_deleted
        and host.is_active
        and not host.is_deleted
    )


# --- Who may do what to a listing ------------------------------------------------------------------


def edit_refusal(user, listing: Listing) -> DomainError | None:
    """The host and its subHosts edit their own listings (staff review edits, they do not make them)."""
    if user.role not in HOST_SIDE_ROLES or user.acting_host_id is None:
        return Forbidden("Only hosts and their sub-hosts manage listings.")
    if listing.is_deleted or not acts_for_host(user, listing.host_id):
        return NotFound("Listing not found.")
    return None


def manage_refusal(user, listing: Listing) -> DomainError | None:
    """Switching a listing on or off and deleting it: the host side its own listings, staff any."""
    if listing.is_deleted:
        return NotFound("Listing not found.")
    if user.role in STAFF_ROLES or acts_for_host(user, listing.host_id):
        return None
    return NotFound("Listing not found.")


def sees_history(user, listing: Listing) -> bool:
    """A listing's status history (who submitted, approved or rejected it, when and why): staff and
    the listing's host side, not the public."""
    return user.role in STAFF_ROLES or acts_for_host(user, listing.host_id)


def review_refusal(user, listing: Listing, *, has_pending_request: bool) -> DomainError | None:
    """Approving or rejecting a listing (its new-listing or edit request): admin and moderator,
    while a request waits for review."""
    if not reaches(user, Area.LISTING_REVIEWS):
        return Forbidden("Only admins and moderators review listings.")
    if listing.is_deleted:
        return Conflict("This listing was deleted.")
    if not has_pending_request:
        return Conflict("This listing has no request waiting for review.")
    return None


def listing_can(user, listing: Listing) -> dict[str, bool]:
    """The ``can`` flags of a listing for ``user``. ``request_id`` (annotated by the selectors) tells
    whether a review request is waiting."""
    manage = manage_refusal(user, listing) is None
    review = review_refusal(user, listing, has_pending_request=bool(getattr(listing, "request_id", None))) is None
    return {
        "edit": edit_refusal(user, listing) is None,
        "delete": manage,
        "activate": manage,
        "approve": review,
        "reject": review,
    }


# --- Refund schedule -------------------------------------------------------------------------------

REFUND_SCHEDULE: dict[str, tuple[tuple[int, Decimal], ...]] = {
    CancellationPolicy.FLEXIBLE: ((24, Decimal("1")), (0, Decimal("0.5"))),
    CancellationPolicy.MODERATE: ((24 * 5, Decimal("1")), (24, Decimal("0.5"))),
    CancellationPolicy.STRICT: ((24 * 7, Decimal("0.5")),),
}
"""Per cancellation policy: (at least this many hours before check-in, share of the total refunded),
first match wins; nothing when no step matches."""


def refund_share(policy: str, hours_before: Decimal | float) -> Decimal:
    """The share of the total refunded for a cancellation ``hours_before`` check-in (0 once started)."""
    if hours_before <= 0:
        return Decimal("0")
    for threshold, share in REFUND_SCHEDULE.get(policy, REFUND_SCHEDULE[CancellationPolicy.FLEXIBLE]):
        if hours_before >= threshold:
            return share
    return Decimal("0")


def _span(hours: int) -> str:
    if hours >= 48 and hours % 24 == 0:
        return f"{hours // 24} days"
    return f"{hours} hour" if hours == 1 else f"{hours} hours"


def _share(share: Decimal) -> str:
    return "Full refund" if share == 1 else f"{(share * 100).normalize():f}% refund"


def refund_schedule_text(policy: str) -> str:
    """The sentence renters read for a cancellation policy, written from ``REFUND_SCHEDULE``."""
    steps = REFUND_SCHEDULE.get(policy, ())
    parts: list[str] = []
    for index, (threshold, share) in enumerate(steps):
        label = _share(share)
        if index == 0:
            parts.append(f"{label} when cancelled at least {_span(threshold)} before the booking starts")
        elif threshold > 0:
            parts.append(f"{label.lower()} when cancelled later but at least {_span(threshold)} before")
        else:
            parts.append(f"{label.lower()} when cancelled later")
    if steps and steps[-1][0] > 0:
        parts.append("no refund after that")
    return "; ".join(parts) + "." if parts else ""


CANCELLATION_TEXT: dict[str, str] = {policy: refund_schedule_text(policy) for policy in CancellationPolicy.values}


def request_can(user, listing_request) -> dict[str, bool]:
    """The ``can`` flags of a review request: approve and reject while it waits, for admin and
    moderator (the same rule as a listing's approve and reject)."""
    refusal = review_refusal(user, listing_request.listing, has_pending_request=listing_request.status == "pending")
    return {"approve": refusal is None, "reject": refusal is None}


# --- The "from" price ------------------------------------------------------------------------------

FROM_PRICE_ORDER = (Period.HOURLY, Period.DAILY, Period.WEEKLY, Period.MONTHLY)


def from_price(prices) -> dict[str, str] | None:
    """The one "From $25.00 / Hour" of a listing, shown on its cards, its map pin and its page.

    ``prices`` are ``(period, amount)`` pairs: an event space's own rates, or every rate of every
    offering of an office. The rule: the shortest period the listing is booked by, at its lowest
    price (a visitor compares hourly rooms by the hour; a monthly desk alone shows its month).
    ``None`` when the listing has no price.
    """
    candidates = [
        (FROM_PRICE_ORDER.index(Period(period)), Decimal(amount), str(period))
        for period, amount in prices
        if amount is not None and period in FROM_PRICE_ORDER
    ]
    if not candidates:
        return None
    _, amount, period = min(candidates)
    return {"amount": f"{amount:.2f}", "period": period, "label": Period(period).label}
