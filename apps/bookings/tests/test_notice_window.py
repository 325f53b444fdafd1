"""The host's minimum notice and booking window: the booking API, the availability calendar and search honour them."""

import datetime as dt

import pytest
from django.utils import timezone

from apps.bookings.models import Booking
from apps.bookings.times import LOCAL_TZ

from .conftest import payload, weekday

pytestmark = pytest.mark.django_db

CREATE = "/api/booking/create"


def test_a_booking_inside_the_minimum_notice_is_refused_and_nothing_is_held(clients, event_listing):
    event_listing.minimum_notice_hours = 24 * 30
    event_listing.save()
    response = clients["renter"].post(CREATE, payload(event_listing, day=weekday(3)), format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["message"] == "This space needs 720 hours of notice before a booking starts."
    assert body["errors"]["startTime"] == [body["message"]]
    assert not Booking.objects.exists()
    # the quote the booking widget asks for says the same
    quote = clients["renter"].post("/api/booking/quote/event-booking-details", payload(event_listing, day=weekday(3)))
    assert quote.status_code == 400 and "notice" in quote.json()["message"]
    # far enough ahead it is accepted
    response = clients["renter"].post(CREATE, payload(event_listing, day=weekday(40)), format="json")
    assert response.status_code == 201, response.content


def test_a_booking_beyond_the_booking_window_is_refused(clients, event_listing):
    event_listing.booking_window_days = 10
    event_listing.save()
    response = clients["renter"].post(CREATE, payload(event_listing, day=weekday(20)), format="json")
    assert response.status_code == 400
    assert response.json()["message"] == "This space can be booked at most 10 days ahead."
    assert not Booking.objects.exists()
    assert clients["renter"].post(CREATE, payload(event_listing, day=weekday(5)), format="json").status_code == 201


def test_the_availability_calendar_offers_only_days_within_notice_and_window(clients, event_listing):
    event_listing.minimum_notice_hours = 72
    event_listing.booking_window_days = 14
    event_listing.opening_hours = {}
    event_listing.save()
    response = clients["renter"].get(f"/api/listing/get-availability/{event_listing.pk}?days=30")
    data = response.json()["data"]
    today = timezone.now().astimezone(LOCAL_TZ).date()
    available = [dt.date.fromisoformat(day) for day in data["availableDates"]]
    assert min(available) == today + dt.timedelta(days=3)
    assert max(available) == today + dt.timedelta(days=14)
    assert data["bookableFrom"] == (today + dt.timedelta(days=3)).isoformat()
    assert data["bookableUntil"] == (today + dt.timedelta(days=14)).isoformat()


def test_search_by_dates_leaves_out_listings_the_rules_keep_from_those_dates(clients, users, event_listing):
    day = weekday(20)
    query = f"/api/listing/property-listing?filters[startDate]={day.isoformat()}&filters[endDate]={day.isoformat()}"
    found = lambda: [item["_id"] for item in clients["anonymous"].get(query).json()["data"]["listings"]]  # noqa: E731
    assert str(event_listing.pk) in found()
    event_listing.booking_window_days = 7
    event_listing.save()
    assert str(event_listing.pk) not in found()
    event_listing.booking_window_days = 365
    event_listing.minimum_notice_hours = 24 * 60
    event_listing.save()
    assert str(event_listing.pk) not in found()
    event_listing.minimum_notice_hours = 24
    event_listing.save()
    assert str(event_listing.pk) in found()


def test_the_quote_the_widget_asks_for_refuses_a_time_inside_the_buffer(clients, users, event_listing):
    from .conftest import make_booking

    event_listing.buffer_minutes = 60
    event_listing.save()
    day = weekday(6)
    make_booking(users["other_renter"], event_listing, day=day, start=dt.time(10), end=dt.time(12))
    quote = "/api/booking/quote/event-booking-details"
    close = clients["renter"].post(quote, payload(event_listing, day=day, start="12:30 PM", end="03:00 PM"))
    assert close.status_code == 200 and close.json()["data"]["available"] is False
    later = clients["renter"].post(quote, payload(event_listing, day=day, start="01:00 PM", end="03:00 PM"))
    assert later.json()["data"]["available"] is True
    refused = clients["renter"].post(CREATE, payload(event_listing, day=day, start="12:30 PM", end="03:00 PM"))
    assert refused.status_code == 409
    assert Booking.objects.filter(renter=users["renter"]).count() == 0
