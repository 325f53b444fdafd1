"""Rules of money: when a booking's payment is captured, who sees money, payouts.

- ``CAPTURE_BOOKING_STATUSES``: an authorised (held) payment is captured once its booking is
  accepted by the host: approved, ongoing or completed. A payment authorised after the host
  already answered (the renter paid late) is captured at once for those statuses, and released
  for a rejected, expired or cancelled booking (``RELEASE_BOOKING_STATUSES``).

The premium membership's rules (its grace days, its terms) are the premium app's (``apps.premium.policies``).
"""

from django.db.models import Sum

from apps.accounts.models import Role
from apps.bookings.models import BookingPayment, BookingStatus
from apps.core.exceptions import Conflict, DomainError, Forbidden, InvalidInput

from .models import ZERO, Earning, PaymentStatus, Payout, PayoutStatus

CAPTURE_BOOKING_STATUSES: frozenset[str] = frozenset(
    {BookingStatus.APPROVED, BookingStatus.ONGOING, BookingStatus.COMPLETED}
)
RELEASE_BOOKING_STATUSES: frozenset[str] = frozenset(
    {BookingStatus.REJECTED, BookingStatus.EXPIRED, BookingStatus.CANCELLED}
)


# Where a booking's payment stands, in the booking's words, for each status of the payment.
BOOKING_PAYMENT: dict[str, str] = {
    PaymentStatus.PENDING: BookingPayment.DUE,
    PaymentStatus.FAILED: BookingPayment.DUE,
    PaymentStatus.AUTHORIZED: BookingPayment.HELD,
    PaymentStatus.COMPLETED: BookingPayment.PAID,
    PaymentStatus.ACTION_REQUIRED: BookingPayment.CONFIRM,
    PaymentStatus.RELEASED: BookingPayment.CLOSED,
    PaymentStatus.REFUNDED: BookingPayment.CLOSED,
}


def captures(booking_status: str) -> bool:
    """True when a held payment for a booking in ``booking_status`` is to be captured."""
    return booking_status in CAPTURE_BOOKING_STATUSES


# --- Who sees money -------------------------------------------------------------------------------

# Every role but the moderator pays or is paid (spec 2.3): checkouts and the premium membership.
MONEY_ROLES = frozenset({Role.ADMIN, Role.HOST, Role.SUB_HOST, Role.RENTER})
# Who reads money records (payments, invoices, payouts): not the moderator, and not a subHost, whose
# menus hide the Payments and Disputes groups (least privilege, docs/security.md "Round two").
MONEY_RECORD_ROLES = MONEY_ROLES - {Role.SUB_HOST}


def sees_payments(user) -> bool:
    """True when the user may read a booking's payment record and the host's money records."""
    return getattr(user, "role", None) in MONEY_RECORD_ROLES


# --- Payouts -------------------------------------------------------------------------------------


def requests_payouts(user) -> bool:
    """Only the host itself asks to be paid; its subHosts see the Payout page read-only."""
    return user.role == Role.HOST


def sees_payout_balance(user) -> bool:
    """The host side has a balance; the admin has none of its own (it sees every host's payouts)."""
    return user.role in (Role.HOST, Role.SUB_HOST)


def sees_every_host(user) -> bool:
    """The admin's payment and payout lists hold every host's rows (with a Host column)."""
    return user.role == Role.ADMIN


def payout_available(host_id) -> object:
    """The host's earnings not yet in a payout (the queryset a request claims)."""
    return Earning.objects.filter(host_id=host_id, payout__isnull=True, amount__gt=0)


def payout_request_refusal(user) -> DomainError | None:
    """Why ``user`` may not ask to be paid now: not the host, a request waiting, or nothing available."""
    if not requests_payouts(user):
        return Forbidden("Only the host can request a payout.")
    if Payout.objects.filter(host=user, status=PayoutStatus.ONHOLD).exists():
        return Conflict("You already have a payout request waiting for approval.")
    if (payout_available(user.pk).aggregate(total=Sum("amount"))["total"] or ZERO) <= ZERO:
        return InvalidInput("You have no available balance to pay out.")
    return None
