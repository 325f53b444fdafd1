"""Many renters racing for one slot, each in its own transaction on its own connection."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.bookings.models import Booking, Occupancy
from apps.core.testing import ApiClient
from apps.listings.factories import ListingFactory, OfficeListingFactory
from apps.listings.models import OfferingKind

from .conftest import payload

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

RACERS = 16


def race(bodies: list[dict], renters: list) -> list:
    barrier = threading.Barrier(len(bodies))

    def attempt(index: int):
        client = ApiClient().as_user(renters[index])
        try:
            barrier.wait(timeout=30)
            return client.post("/api/booking/create", bodies[index], format="json")
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(bodies)) as pool:
        return list(pool.map(attempt, range(len(bodies))))


def test_exactly_one_renter_wins_an_exclusive_slot():
    listing = ListingFactory(minimum_days=1, guest=50)
    renters = [UserFactory(role=Role.RENTER) for _ in range(RACERS)]
    responses = race([payload(listing) for _ in range(RACERS)], renters)
    codes = sorted(r.status_code for r in responses)
    assert codes.count(201) == 1, codes
    assert codes.count(409) == RACERS - 1, codes
    for response in responses:
        if response.status_code == 409:
            assert response.json()["message"] == (
                "This time is no longer available. Someone else booked it; please choose another time."
            )
    assert Booking.objects.count() == 1
    assert Occupancy.objects.filter(active=True).count() == 1


def test_seats_are_never_oversold():
    listing = OfficeListingFactory(offerings=[OfferingKind.HOT_DESK])
    desk = listing.space_offerings.get()
    desk.seats = 3
    desk.minimum_period = 1
    desk.save()
    renters = [UserFactory(role=Role.RENTER) for _ in range(RACERS)]
    bodies = [payload(listing, spaceOffering=str(desk.pk), seats=1) for _ in range(RACERS)]
    responses = race(bodies, renters)
    codes = [r.status_code for r in responses]
    assert codes.count(201) == 3, codes
    assert codes.count(409) == RACERS - 3, codes
    assert Booking.objects.count() == 3
