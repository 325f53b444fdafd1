"""Rules of bookings (apps/bookings/policies.py) and the role matrix of a booking's ``can`` flags.

For every actor and every action: the flags the API sends are the expected ones, and the service
refuses exactly what a flag denies; a refused write changes nothing.
"""

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.bookings import policies, services
from apps.bookings.models import Booking, BookingPayment, BookingStatus, ExtendBooking, RenterReview, Review
from apps.bookings.reviews.services import review_add
from apps.bookings.services.lifecycle import booking_transition
from apps.core.exceptions import DomainError
from apps.core.statemachine import history
from apps.disputes import services as disputes
from apps.disputes.models import Dispute
from apps.messaging import services as messaging
from apps.messaging.models import Conversation
from apps.payments import services as payments
from apps.payments.models import Payment

from .conftest import make_booking

pytestmark = pytest.mark.django_db

ACTORS = ("renter", "other_renter", "host", "sub_host", "other_host", "moderator", "admin")
NONE = dict.fromkeys(policies.BOOKING_ACTIONS, False)


def _flags(**allowed) -> dict[str, bool]:
    return {**NONE, **allowed}


EXPECTED = {
    BookingStatus.PENDING: {
        "renter": _flags(cancel=True, pay=True, message=True),
        "host": _flags(approve=True, reject=True, message=True),
        "sub_host": _flags(approve=True, reject=True, message=True),
    },
    BookingStatus.APPROVED: {
        "renter": _flags(cancel=True, extend=True, dispute=True, message=True),
        "host": _flags(cancel=True, dispute=True, message=True),
        "sub_host": _flags(cancel=True, message=True),
    },
    BookingStatus.COMPLETED: {
        "renter": _flags(review=True, dispute=True, message=True),
        # Double-blind reviews: the host side reviews the renter too.
        "host": _flags(review=True, dispute=True, message=True),
        "sub_host": _flags(review=True, message=True),
    },
}


def _booking_in(status: str, users, listing) -> Booking:
    booking = make_booking(users["renter"], listing)
    if status in (BookingStatus.APPROVED, BookingStatus.COMPLETED):
        services.booking_update_status(booking_id=booking.pk, actor=users["host"], status=BookingStatus.APPROVED)
    if status == BookingStatus.COMPLETED:
        booking_transition(booking.pk, BookingStatus.COMPLETED)
    return Booking.objects.get(pk=booking.pk)


def _act(action: str, user, booking: Booking) -> None:
    """The write behind each flag, as the API calls it."""
    if action == "approve":
        services.booking_update_status(booking_id=booking.pk, actor=user, status=BookingStatus.APPROVED)
    elif action == "reject":
        services.booking_update_status(booking_id=booking.pk, actor=user, status=BookingStatus.REJECTED, reason="No")
    elif action == "cancel":
        if user.role == "renter":
            services.booking_cancel_by_renter(booking_id=booking.pk, renter=user, reason="Plans changed")
        else:
            services.booking_cancel_by_host(booking_id=booking.pk, actor=user, reason="Closed that day")
    elif action == "extend":
        services.extension_request(booking_id=booking.pk, renter=user, hours=1)
    elif action == "pay":
        payments.payment_checkout_start(user=user, booking_id=str(booking.pk))
    elif action == "payExtension":
        extension = booking.extensions.first()
        payments.payment_checkout_start(
            user=user, booking_id=str(booking.pk), extension_id=str(extension.pk) if extension else str(uuid.uuid4())
        )
    elif action == "review":
        review_add(user=user, listing_id=booking.listing_id, booking_id=booking.pk, review="Great", rating=5)
    elif action == "dispute":
        disputes.dispute_raise(user=user, booking_id=booking.pk, reason="The room was locked.")
    elif action == "message":
        messaging.conversation_start(user=user, booking_id=booking.pk)


def _state(booking: Booking) -> tuple:
    booking.refresh_from_db()
    return (
        booking.status,
        booking.updated_at,
        len(history(booking)),
        ExtendBooking.objects.filter(booking=booking).count(),
        Review.objects.filter(booking=booking).count(),
        RenterReview.objects.filter(booking=booking).count(),
        Dispute.objects.filter(booking=booking).count(),
        Payment.objects.filter(booking=booking).count(),
        Conversation.objects.count(),
    )


@pytest.mark.parametrize("status", list(EXPECTED))
@pytest.mark.parametrize("actor", ACTORS)
def test_the_api_sends_each_actor_its_can_flags(status, actor, users, clients, event_listing):
    booking = _booking_in(status, users, event_listing)
    expected = EXPECTED[status].get(actor, NONE)
    response = clients[actor].get(f"/api/booking/booking/{booking.pk}")
    if response.status_code == 404:
        # Those who cannot see the booking may do nothing to it.
        assert expected == NONE
        assert policies.booking_can(users[actor], booking) == NONE
        return
    assert response.status_code == 200, response.content
    assert response.json()["data"]["can"] == expected
    rows = clients[actor].get("/api/booking/get-all").json()["data"]["bookings"]
    assert [row["can"] for row in rows if row["_id"] == str(booking.pk)] == [expected]


@pytest.mark.parametrize("status", list(EXPECTED))
@pytest.mark.parametrize("action", policies.BOOKING_ACTIONS)
@pytest.mark.parametrize("actor", ACTORS)
def test_services_refuse_exactly_what_can_denies(status, action, actor, users, event_listing):
    booking = _booking_in(status, users, event_listing)
    user = users[actor]
    allowed = EXPECTED[status].get(actor, NONE)[action]
    assert policies.booking_can(user, Booking.objects.get(pk=booking.pk))[action] is allowed
    before = _state(booking)
    if allowed:
        _act(action, user, booking)
        assert _state(booking) != before
    else:
        with pytest.raises(DomainError):
            _act(action, user, booking)
        assert _state(booking) == before


def test_an_unpaid_pay_now_request_cannot_be_approved_but_can_be_rejected(users, event_listing):
    event_listing.payment_preference = "payNow"
    event_listing.save(update_fields=["payment_preference"])
    booking = make_booking(users["renter"], event_listing)
    can = policies.booking_can(users["host"], booking)
    assert can["approve"] is False and can["reject"] is True
    assert policies.booking_can(users["renter"], booking)["pay"] is True
    booking.payment_state = BookingPayment.HELD
    assert policies.booking_can(users["host"], booking)["approve"] is True
    assert policies.booking_can(users["renter"], booking)["pay"] is False


def test_renter_cannot_cancel_once_check_in_passed(users, event_listing):
    booking = _booking_in(BookingStatus.APPROVED, users, event_listing)
    later = booking.check_in + dt.timedelta(minutes=1)
    assert policies.renter_cancel_refusal(users["renter"], booking, now=later) is not None
    assert policies.booking_can(users["renter"], booking, now=later)["cancel"] is False


def test_status_sets():
    assert BookingStatus.DISPUTED in policies.HOLDING_STATUSES
    assert BookingStatus.CANCELLED not in policies.HOLDING_STATUSES
    assert policies.UPCOMING_STATUSES < policies.HOLDING_STATUSES
    assert policies.ACTIVE_STATUSES < policies.CONFIRMED_STATUSES < policies.HOLDING_STATUSES
    assert BookingStatus.PENDING not in policies.CONFIRMED_STATUSES


@pytest.mark.parametrize(
    ("policy", "hours", "expected"),
    [("flexible", 30, "100.00"), ("flexible", 2, "50.00"), ("moderate", 30, "50.00"), ("strict", 30, "0.00")],
)
def test_refund_amount_by_policy(users, event_listing, policy, hours, expected):
    event_listing.cancellation_policy = policy
    event_listing.save(update_fields=["cancellation_policy"])
    booking = _booking_in(BookingStatus.APPROVED, users, event_listing)
    booking.total_amount = Decimal("100.00")
    now = booking.check_in - dt.timedelta(hours=hours)
    assert policies.refund_amount_for(booking, now=now) == Decimal(expected)
    assert policies.refund_amount_for(booking, now=booking.check_in + dt.timedelta(hours=1)) == Decimal("0.00")
    assert timezone.is_aware(now)
