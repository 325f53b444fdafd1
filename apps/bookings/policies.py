"""Rules of bookings: the named status sets, who may do what to a booking, and what a
cancellation refunds.

Every ``*_refusal(user, booking, ...)`` returns the error the service raises (``None`` when the
action is allowed); ``booking_can`` builds the ``can`` flags of a booking response from the same
functions, so a button the client shows is exactly a write the server accepts.
"""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from apps.accounts.models import Role
from apps.accounts.policies import acts_for_host
from apps.core.exceptions import Conflict, DomainError, Forbidden, NotFound
from apps.listings.models import PaymentPreference
from apps.listings.policies import refund_share

from . import pricing
from .models import Booking, BookingPayment, BookingStatus, ExtensionStatus

# --- Status sets -----------------------------------------------------------------------------------

HOLDING_STATUSES: frozenset[str] = frozenset(
    {
        BookingStatus.PENDING,
        BookingStatus.APPROVED,
        BookingStatus.ONGOING,
        BookingStatus.COMPLETED,
        BookingStatus.DISPUTED,
    }
)
"""A booking in these statuses keeps its time (and seats) from others, and shows in the host's
calendar feed. A disputed booking still holds: the time was used, and the dispute may end with
the booking completed."""

UPCOMING_STATUSES: frozenset[str] = frozenset({BookingStatus.PENDING, BookingStatus.APPROVED, BookingStatus.ONGOING})
"""Bookings still to come or under way: a listing with one of these cannot be taken down."""

ACTIVE_STATUSES: frozenset[str] = frozenset({BookingStatus.APPROVED, BookingStatus.ONGOING})
"""Accepted and not yet over: these can be extended, and complete when their time ends."""

CONFIRMED_STATUSES: frozenset[str] = frozenset(
    {BookingStatus.APPROVED, BookingStatus.ONGOING, BookingStatus.COMPLETED, BookingStatus.DISPUTED}
)
"""Accepted by the host (whatever happened since, short of a cancellation): what the statistics
count as booked and as revenue."""

RENTER_CANCELLABLE_STATUSES: frozenset[str] = frozenset({BookingStatus.PENDING, BookingStatus.APPROVED})
HOST_CANCELLABLE_STATUSES: frozenset[str] = frozenset({BookingStatus.APPROVED})
DISPUTABLE_STATUSES: frozenset[str] = frozenset(
    {BookingStatus.APPROVED, BookingStatus.ONGOING, BookingStatus.COMPLETED}
)
DISPUTE_RAISER_ROLES: frozenset[str] = frozenset({Role.RENTER, Role.HOST})
"""A subHost cannot raise a dispute (the spec hides Disputes from subHosts); its host does."""

PAYMENT_HELD_STATES: frozenset[str] = frozenset({BookingPayment.HELD, BookingPayment.PAID})
"""Where the renter's money is held or taken: a pay-now request is approved only then, and is no
longer offered for payment."""
PAYABLE_STATES: frozenset[str] = frozenset({BookingPayment.NONE, BookingPayment.DUE, BookingPayment.CONFIRM})
"""Where the renter may still pay: nothing paid yet, a checkout not finished or failed, or a charge
the bank wants the renter to confirm."""

AWAITING_PAYMENT = (
    "The renter has not paid for this request yet. You can approve it once the payment is authorised, or reject it now."
)


def needs_online_payment(booking: Booking) -> bool:
    return booking.payment_preference == PaymentPreference.PAY_NOW and booking.total_amount > 0


def payment_held(booking: Booking) -> bool:
    return booking.payment_state in PAYMENT_HELD_STATES


def booking_awaiting_payment(booking: Booking) -> bool:
    """A pay-now request the renter has not paid yet: the host sees "Awaiting payment" and no Approve,
    it is not counted as pending, and the renter can pay it from the booking
    (``selectors.awaiting_payment_q`` is the same rule as a query)."""
    return booking.status == BookingStatus.PENDING and needs_online_payment(booking) and not payment_held(booking)


# --- Who may do what -------------------------------------------------------------------------------

BOOKING_TABS = ("all", "pending", "approved", "ongoing", "completed", "cancelled", "rejected", "disputed", "expired")


def booking_side(user) -> str:
    """The user's side of a booking: ``renter``, ``host`` (host and subHost) or ``staff``. The pages name
    the other party from it (the renter deals with the host, everyone else with the renter)."""
    if user.role == Role.RENTER:
        return "renter"
    if user.role in (Role.HOST, Role.SUB_HOST):
        return "host"
    return "staff"


def booking_tabs(user) -> list[str]:
    """The status tabs of the booking list. Every role that sees bookings sees every status: each
    one can hold that user's bookings (a renter's disputed booking, a host's expired request)."""
    return list(BOOKING_TABS)


def _is_renter(user, booking: Booking) -> bool:
    return user.role == Role.RENTER and user.pk == booking.renter_id


def _is_host_side(user, booking: Booking) -> bool:
    return user.role in (Role.HOST, Role.SUB_HOST) and acts_for_host(user, booking.host_id)


def answer_refusal(user, booking: Booking) -> DomainError | None:
    """Rejecting (and the first half of approving): the host side, while the request is pending."""
    if not _is_host_side(user, booking):
        return Forbidden("Only the space's host can approve or reject this booking.")
    if booking.status != BookingStatus.PENDING:
        return Conflict(f"This booking is already {booking.status}; only pending requests can be answered.")
    return None


def approve_refusal(user, booking: Booking) -> DomainError | None:
    """Approving also needs a pay-now request to be paid (authorised) first, so an approved booking
    is always paid for."""
    refusal = answer_refusal(user, booking)
    if refusal is not None:
        return refusal
    if needs_online_payment(booking) and not payment_held(booking):
        return Conflict(AWAITING_PAYMENT, data={"awaitingPayment": True})
    return None


def reject_refusal(user, booking: Booking) -> DomainError | None:
    return answer_refusal(user, booking)


def renter_cancel_refusal(user, booking: Booking, *, now: dt.datetime | None = None) -> DomainError | None:
    if not _is_renter(user, booking):
        return NotFound("Booking not found.")
    if booking.status not in RENTER_CANCELLABLE_STATUSES:
        return Conflict(f"This booking is {booking.status}; it can no longer be cancelled.")
    if booking.check_in <= (now or timezone.now()):
        return Conflict("The booking has already started; it can no longer be cancelled.")
    return None


def host_cancel_refusal(user, booking: Booking) -> DomainError | None:
    if not _is_host_side(user, booking):
        return Forbidden("Only the space's host can cancel this booking.")
    if booking.status not in HOST_CANCELLABLE_STATUSES:
        return Conflict(f"This booking is {booking.status}; only approved bookings can be cancelled by the host.")
    return None


def cancel_refusal(user, booking: Booking, *, now: dt.datetime | None = None) -> DomainError | None:
    """The renter cancels its pending or approved booking before check-in; the host side cancels an
    approved booking. Staff do not cancel bookings (a dispute ends with a refund instead)."""
    if user.role in (Role.HOST, Role.SUB_HOST):
        return host_cancel_refusal(user, booking)
    return renter_cancel_refusal(user, booking, now=now)


def _has_pending_extension(booking: Booking) -> bool:
    return any(extension.status == ExtensionStatus.PENDING for extension in booking.extensions.all())


def extend_refusal(user, booking: Booking, *, now: dt.datetime | None = None) -> DomainError | None:
    if not _is_renter(user, booking):
        return NotFound("Booking not found.")
    if booking.status not in ACTIVE_STATUSES:
        return Conflict("Only approved or ongoing bookings can be extended.")
    if booking.check_out <= (now or timezone.now()):
        return Conflict("This booking has already ended.")
    if _has_pending_extension(booking):
        return Conflict("You already asked to extend this booking; wait for the host's answer.")
    return None


def extension_answer_refusal(user, booking: Booking) -> DomainError | None:
    if not _is_host_side(user, booking):
        return Forbidden("Only the space's host can answer this extension request.")
    return None


def extension_decide_refusal(user, booking: Booking, extension, status: str) -> DomainError | None:
    """The host side approves or rejects a pending extension; approving needs the booking still active."""
    refusal = extension_answer_refusal(user, booking)
    if refusal is not None:
        return refusal
    if extension.status != ExtensionStatus.PENDING:
        return Conflict(f"This extension request is already {extension.status}.")
    if status == ExtensionStatus.APPROVED and booking.status not in ACTIVE_STATUSES:
        return Conflict("The booking is no longer active; the extension cannot be approved.")
    return None


def extension_pay_refusal(user, booking: Booking, extension) -> DomainError | None:
    """The renter pays the difference of an approved extension once the booking itself is paid."""
    if not _is_renter(user, booking):
        return NotFound("Booking not found.")
    if extension.status != ExtensionStatus.APPROVED:
        return Conflict("Only an approved extension can be paid.")
    if extension.paid:
        return Conflict("This extension is already paid.")
    if booking.status not in ACTIVE_STATUSES or booking.payment_state != BookingPayment.PAID:
        return Conflict("This booking is not active and paid; its extension cannot be paid.")
    return None


EXTENSION_ACTIONS = ("approve", "reject", "pay")


def extension_can(user, booking: Booking, extension) -> dict[str, bool]:
    """The ``can`` flags of one extension request for ``user``."""
    if user is None:
        return dict.fromkeys(EXTENSION_ACTIONS, False)
    return {
        "approve": extension_decide_refusal(user, booking, extension, ExtensionStatus.APPROVED) is None,
        "reject": extension_decide_refusal(user, booking, extension, ExtensionStatus.REJECTED) is None,
        "pay": extension_pay_refusal(user, booking, extension) is None,
    }


def pay_refusal(user, booking: Booking) -> DomainError | None:
    """The renter pays for its own pending request until its payment is held (a pay-at-the-space
    request may be paid online too)."""
    if user.role != Role.RENTER:
        return Forbidden("Only the renter of a booking can pay for it.")
    if user.pk != booking.renter_id:
        return NotFound("Booking not found.")
    # An approved booking whose saved card needs the renter's confirmation (the bank asked for it
    # when the host approved) is paid from the booking too.
    confirming = booking.status == BookingStatus.APPROVED and booking.payment_state == BookingPayment.CONFIRM
    if booking.status != BookingStatus.PENDING and not confirming:
        return Conflict(f"This booking is {booking.status}; it can no longer be paid.")
    if booking.payment_state not in PAYABLE_STATES:
        return Conflict("This booking is already paid.")
    return None


REVIEW_PERIOD = dt.timedelta(days=14)
"""Reviews are written within 14 days of check-out; then whatever was written is published."""


def review_reply_refusal(user, booking: Booking, review) -> DomainError | None:
    """The host side answers the renter's review of its space once, after it is revealed."""
    if user is None or not _is_host_side(user, booking):
        return NotFound("Review not found.")
    if review.revealed_at is None:
        return Conflict("You can reply once the review is published.")
    if review.reply:
        return Conflict("You already replied to this review.")
    return None


def renter_reviews_visible(user, booking: Booking) -> bool:
    """Hosts' reviews of a renter are shown to the host side of the renter's bookings and to staff."""
    return user is not None and (user.role in (Role.ADMIN, Role.MODERATOR) or _is_host_side(user, booking))


def review_period_ends(booking: Booking) -> dt.datetime:
    return booking.check_out + REVIEW_PERIOD


def review_refusal(user, booking: Booking, *, reviewed: bool, now: dt.datetime | None = None) -> DomainError | None:
    """After completion the renter reviews the space and the host side reviews the renter, once
    each, until the review period ends (double-blind: see ``reviews``). ``reviewed``: the caller's
    side already wrote its review."""
    renter = _is_renter(user, booking)
    if not (renter or _is_host_side(user, booking)):
        return NotFound("Booking not found.")
    if booking.status != BookingStatus.COMPLETED:
        return Conflict("You can review a booking once it is completed.")
    if (now or timezone.now()) >= review_period_ends(booking):
        return Conflict("The review period for this booking has ended.")
    if reviewed:
        return Conflict(
            "You already reviewed this booking." if renter else "This renter was already reviewed for this booking."
        )
    return None


def book_refusal(user) -> DomainError | None:
    """Only renter accounts ask to book a space (hosts, subHosts and staff do not book)."""
    if getattr(user, "role", None) != Role.RENTER:
        return Forbidden("Only renters can book spaces.")
    return None


def dispute_role_refusal(user) -> DomainError | None:
    if user.role not in DISPUTE_RAISER_ROLES:
        return Forbidden("Only the renter or the host of a booking can raise a dispute.")
    return None


def dispute_refusal(user, booking: Booking) -> DomainError | None:
    """The renter or the host (not a subHost) raises a dispute on an approved, ongoing or completed
    booking. (The disputes app also refuses a second open dispute on one booking.)"""
    refusal = dispute_role_refusal(user)
    if refusal is not None:
        return refusal
    if user.pk not in (booking.renter_id, booking.host_id):
        return NotFound("Booking not found.")
    if booking.status not in DISPUTABLE_STATUSES:
        return Conflict(
            f"This booking is {booking.status}; only approved, ongoing or completed bookings can be disputed."
        )
    if booking.dispute_settled_at is not None:
        return Conflict("A dispute about this booking was already decided; contact support to reopen it.")
    return None


def message_refusal(user, booking: Booking) -> DomainError | None:
    """The renter and the host side of a booking message each other about it."""
    if user.role not in (Role.RENTER, Role.HOST, Role.SUB_HOST):
        return Forbidden("Only renters and hosts exchange messages.")
    if not (_is_renter(user, booking) or _is_host_side(user, booking)):
        return NotFound("Booking not found.")
    other = booking.host if user.role == Role.RENTER else booking.renter
    if other.is_deleted:
        return NotFound("User not found.")
    return None


def _reviewed(user, booking: Booking) -> bool:
    """The caller's side has written its review of this booking."""
    related = "review" if _is_renter(user, booking) else "renter_review"
    try:
        return getattr(booking, related) is not None
    except (Booking.review.RelatedObjectDoesNotExist, Booking.renter_review.RelatedObjectDoesNotExist):
        return False


BOOKING_ACTIONS = ("approve", "reject", "cancel", "extend", "pay", "payExtension", "review", "dispute", "message")


def booking_can(user, booking: Booking, *, now: dt.datetime | None = None) -> dict[str, bool]:
    """The ``can`` flags of a booking for ``user``."""
    now = now or timezone.now()
    renter = _is_renter(user, booking)
    return {
        "approve": approve_refusal(user, booking) is None,
        "reject": reject_refusal(user, booking) is None,
        "cancel": cancel_refusal(user, booking, now=now) is None,
        "extend": extend_refusal(user, booking, now=now) is None,
        "pay": pay_refusal(user, booking) is None,
        # The renter pays the difference of an approved extension (POST /api/payment/checkout).
        "payExtension": renter
        and any(extension_pay_refusal(user, booking, e) is None for e in booking.extensions.all()),
        "review": booking.status == BookingStatus.COMPLETED
        and review_refusal(user, booking, reviewed=_reviewed(user, booking), now=now) is None,
        "dispute": dispute_refusal(user, booking) is None,
        "message": message_refusal(user, booking) is None,
    }


# --- Refunds ---------------------------------------------------------------------------------------


def refund_amount_for(booking: Booking, *, now: dt.datetime | None = None) -> Decimal:
    """What the renter gets back on cancelling now, by the listing's cancellation policy
    (``apps.listings.policies.REFUND_SCHEDULE``).

    A pending request is refunded in full (its payment was only authorised). An approved booking
    is refunded a share of its total by how long before check-in it is cancelled; nothing once
    check-in has passed.
    """
    now = now or timezone.now()
    if booking.status == BookingStatus.PENDING:
        return booking.total_amount
    hours_before = Decimal((booking.check_in - now).total_seconds()) / Decimal(3600)
    share = refund_share(booking.listing.cancellation_policy, hours_before)
    return pricing.money(booking.total_amount * share)


def calendar_links_reset_refusal(user) -> DomainError | None:
    """Only the host resets its calendar addresses: a sub-host's access is what a reset takes back."""
    if getattr(user, "role", None) != Role.HOST:
        return Forbidden("Only the host can reset the calendar links.")
    return None
