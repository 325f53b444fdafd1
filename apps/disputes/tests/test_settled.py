"""A dispute decided with a partial refund on a booking still to come leaves it approved: not
"Completed", no review, and no second dispute offered."""

import datetime as dt
from decimal import Decimal

import pytest

from apps.bookings import services as bookings
from apps.bookings.factories import booking_make
from apps.bookings.models import Booking
from apps.disputes.models import Dispute
from apps.payments.models import Payment
from apps.payments.tests.conftest import pay_locally

pytestmark = pytest.mark.usefixtures("local_gateway")


@pytest.fixture
def future_booking(api, clients, users, listing, django_capture_on_commit_callbacks):
    booking = booking_make(renter=users["renter"], listing=listing)
    pay_locally(api, clients["renter"], booking)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    booking.refresh_from_db()
    assert booking.status == "approved" and booking.check_in > dt.datetime.now(dt.UTC)
    return booking


def test_a_partial_refund_on_a_future_booking_leaves_it_approved_and_not_disputable_again(
    clients, future_booking, django_capture_on_commit_callbacks
):
    raised = clients["renter"].post(
        "/api/dispute/create",
        {"bookingId": str(future_booking.pk), "reason": "The host changed the room."},
        format="multipart",
    )
    assert raised.status_code == 201, raised.content
    dispute = Dispute.objects.get(booking=future_booking)
    with django_capture_on_commit_callbacks(execute=True):
        decided = clients["admin"].patch(
            f"/api/dispute/update-status/{dispute.pk}", {"status": "approved", "refundAmount": "10.00"}, format="json"
        )
    assert decided.status_code == 200, decided.content
    assert Payment.objects.get(booking=future_booking).refunded_amount == Decimal("10.00")

    data = clients["renter"].get(f"/api/booking/booking/{future_booking.pk}").json()["data"]
    assert data["status"] == "approved"
    assert data["can"]["review"] is False and data["can"]["dispute"] is False
    again = clients["renter"].post(
        "/api/dispute/create", {"bookingId": str(future_booking.pk), "reason": "Once more."}, format="multipart"
    )
    assert again.status_code == 409
    assert Dispute.objects.filter(booking=future_booking).count() == 1
    assert Booking.objects.get(pk=future_booking.pk).status == "approved"
