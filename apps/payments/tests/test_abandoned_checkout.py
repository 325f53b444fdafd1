"""A renter who left the checkout before paying can ask for the same time again: the new request
replaces the renter's own unpaid one, while other renters and paid requests keep their holds."""

import pytest

from apps.bookings.factories import PricedEventListingFactory, weekday
from apps.bookings.models import Booking, BookingStatus, Occupancy
from apps.bookings.services.lifecycle import REPLACED_REASON
from apps.core.statemachine import history
from apps.listings.models import PaymentPreference
from apps.notifications.models import Notification

from .conftest import pay_locally

pytestmark = pytest.mark.usefixtures("local_gateway")


@pytest.fixture
def listing(users):
    return PricedEventListingFactory(host=users["host"], payment_preference=PaymentPreference.PAY_NOW)


def body(listing, **extra) -> dict:
    day = weekday(30).strftime("%d-%m-%Y")
    data = {
        "listingId": str(listing.pk),
        "checkInDate": day,
        "checkOutDate": day,
        "startTime": "10:00 AM",
        "endTime": "02:00 PM",
        "guests": 4,
    }
    return data | extra


def quote_available(client, listing) -> bool:
    response = client.post("/api/booking/quote/event-booking-details", body(listing), format="json")
    assert response.status_code == 200, response.content
    return response.json()["data"]["available"]


def test_the_same_renter_asks_again_after_leaving_the_checkout_and_the_old_request_is_replaced(clients, listing):
    first = clients["renter"].post("/api/booking/create", body(listing), format="json")
    assert first.status_code == 201, first.content
    # Back on the listing page, the renter's own unpaid request does not make the time "taken"...
    assert quote_available(clients["renter"], listing) is True
    # ...for anyone else it is taken.
    assert quote_available(clients["other_renter"], listing) is False

    again = clients["renter"].post("/api/booking/create", body(listing, guests=6), format="json")
    assert again.status_code == 201, again.content
    old = Booking.objects.get(pk=first.json()["data"]["_id"])
    new = Booking.objects.get(pk=again.json()["data"]["_id"])
    assert old.status == BookingStatus.EXPIRED and new.status == BookingStatus.PENDING and new.guests == 6
    assert history(old)[-1].reason == REPLACED_REASON
    assert list(Occupancy.objects.filter(active=True, listing_id=listing.pk).values_list("booking_id", flat=True)) == [
        new.pk
    ]
    # Nobody is told about a request that was never paid.
    assert not Notification.objects.filter(content__icontains="expired").exists()


def test_another_renter_still_finds_the_time_taken(clients, listing):
    assert clients["renter"].post("/api/booking/create", body(listing), format="json").status_code == 201
    refused = clients["other_renter"].post("/api/booking/create", body(listing), format="json")
    assert refused.status_code == 409
    assert Booking.objects.filter(listing=listing).count() == 1


def test_a_paid_request_is_not_replaced(api, clients, users, listing):
    first = clients["renter"].post("/api/booking/create", body(listing), format="json")
    booking = Booking.objects.get(pk=first.json()["data"]["_id"])
    pay_locally(api, clients["renter"], booking)
    assert quote_available(clients["renter"], listing) is False
    again = clients["renter"].post("/api/booking/create", body(listing), format="json")
    assert again.status_code == 409
    booking.refresh_from_db()
    assert booking.status == BookingStatus.PENDING
    assert Booking.objects.filter(listing=listing).count() == 1


def test_a_pay_later_request_asked_again_is_cancelled_and_the_host_told_why(clients, users):
    listing = PricedEventListingFactory(host=users["host"], payment_preference=PaymentPreference.PAY_LATER)
    first = clients["renter"].post("/api/booking/create", body(listing), format="json")
    assert first.status_code == 201, first.content
    again = clients["renter"].post("/api/booking/create", body(listing), format="json")
    assert again.status_code == 201, again.content
    old = Booking.objects.get(pk=first.json()["data"]["_id"])
    assert old.status == BookingStatus.CANCELLED
    told = Notification.objects.filter(user=users["host"], content__contains=REPLACED_REASON)
    assert told.count() == 1
