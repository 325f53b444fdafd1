"""Rules of money: when a booking's payment is captured, and the premium membership's grace.

- ``CAPTURE_BOOKING_STATUSES``: an authorised (held) payment is captured once its booking is
  accepted by the host: approved, ongoing or completed. A payment authorised after the host
  already answered (the renter paid late) is captured at once for those statuses, and released
  for a rejected, expired or cancelled booking (``RELEASE_BOOKING_STATUSES``).
- ``PREMIUM_GRACE_DAYS`` (defined in ``apps.core.policies``, the lowest layer, so the cms default
  terms can name it too): a cancelled premium membership's premium listings are soft-deleted this
  many days after the cancellation, unless the host buys premium again before then. Every text
  that names the delay is written from it (``premium_terms``).
"""

from apps.bookings.models import BookingStatus
from apps.core.policies import PREMIUM_GRACE_DAYS

CAPTURE_BOOKING_STATUSES: frozenset[str] = frozenset(
    {BookingStatus.APPROVED, BookingStatus.ONGOING, BookingStatus.COMPLETED}
)
RELEASE_BOOKING_STATUSES: frozenset[str] = frozenset(
    {BookingStatus.REJECTED, BookingStatus.EXPIRED, BookingStatus.CANCELLED}
)

DELETION_WARNING_DAYS_BEFORE = 3


def captures(booking_status: str) -> bool:
    """True when a held payment for a booking in ``booking_status`` is to be captured."""
    return booking_status in CAPTURE_BOOKING_STATUSES


def grace_text() -> str:
    return f"Premium listings are deleted {PREMIUM_GRACE_DAYS} days after the membership is cancelled."


def premium_terms() -> str:
    return f"The premium membership is billed annually and the amount is non refundable. {grace_text()}"
