"""A booking's times are wall-clock times where the space is (the listing's IANA time zone).

The demo's Andheri Rooftop Venue is in Mumbai: booked 10:00 AM to 4:00 PM it holds 10:00 to 16:00
Asia/Kolkata (04:30 to 10:30 UTC), and every place that shows the booking says so and names IST.
Clocks are frozen on fixed dates so the cases never depend on the day the tests run.
"""

import datetime as dt
import re
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail

from apps.bookings import services
from apps.bookings.calendars.export import listing_ical_token
from apps.bookings.factories import PricedEventListingFactory
from apps.bookings.models import Booking, Occupancy
from apps.core.exceptions import InvalidInput
from apps.notifications.models import Notification

pytestmark = pytest.mark.django_db

KOLKATA = ZoneInfo("Asia/Kolkata")
NOW = dt.datetime(2027, 1, 10, 12, 0, tzinfo=dt.UTC)  # a Sunday in January (no daylight saving in India)
DAY = dt.date(2027, 1, 20)  # a Wednesday


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def andheri(users):
    """The demo's Mumbai venue: open 9 AM to 10 PM, paid at the space (no online payment needed)."""
    return PricedEventListingFactory(
        host=users["host"],
        title="Andheri Rooftop Venue",
        city="Mumbai",
        state="MH",
        country="India",
        latitude=Decimal("19.119700"),
        longitude=Decimal("72.846900"),
        opening_hours={day: {"open": "09:00", "close": "22:00"} for day in ("monday", "tuesday", "wednesday")},
        payment_preference="payLater",
    )


def _request(client, listing, day=DAY, start="10:00 AM", end="04:00 PM"):
    body = {
        "listingId": str(listing.pk),
        "checkInDate": day.strftime("%d-%m-%Y"),
        "checkOutDate": day.strftime("%d-%m-%Y"),
        "startTime": start,
        "endTime": end,
        "guests": 4,
    }
    return client.post("/api/booking/create", body, format="json")


def test_the_mumbai_listing_takes_its_zone_from_its_city(andheri):
    assert andheri.time_zone == "Asia/Kolkata"


def test_a_mumbai_booking_holds_mumbai_time_and_every_view_names_ist(
    frozen, clients, users, andheri, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = _request(clients["renter"], andheri)
    assert response.status_code == 201, response.content
    data = response.json()["data"]

    # Held: 10:00 to 16:00 in Mumbai, which is 04:30 to 10:30 UTC.
    booking = Booking.objects.get(pk=data["_id"])
    assert booking.check_in == dt.datetime(2027, 1, 20, 4, 30, tzinfo=dt.UTC)
    assert booking.check_out == dt.datetime(2027, 1, 20, 10, 30, tzinfo=dt.UTC)
    hold = Occupancy.objects.get(booking=booking).hold
    assert hold.lower.astimezone(KOLKATA).time() == dt.time(10)
    assert booking.payment_details["totalHours"] == "6"

    # The API answers in the listing's zone and names it.
    assert (data["checkInDate"], data["startTime"], data["endTime"]) == ("20-01-2027", "10:00 AM", "04:00 PM")
    assert data["timeZone"] == "Asia/Kolkata" and data["timeZoneName"] == "IST"
    assert data["listingId"]["timeZone"] == "Asia/Kolkata"
    detail = clients["host"].get(f"/api/booking/booking/{booking.pk}").json()["data"]
    assert (detail["startTime"], detail["timeZoneName"]) == ("10:00 AM", "IST")

    # The host's notification and e-mail say 10:00 AM IST.
    note = Notification.objects.get(user=users["host"], kind="bookingRequested")
    assert "20-01-2027 10:00 AM IST" in note.content
    mails = [m for m in mail.outbox if users["host"].email in m.to]
    assert mails and "20-01-2027 10:00 AM IST" in mails[-1].body

    # The availability calendar is in the listing's zone unless asked otherwise.
    availability = clients["renter"].get(f"/api/listing/get-availability/{andheri.pk}?from=2027-01-18&days=5")
    body = availability.json()["data"]
    assert body["timeZone"] == "Asia/Kolkata" and body["pendingDates"] == ["2027-01-20"]

    # The iCal feed: the space's wall clock with its zone (and that zone's VTIMEZONE), the times named.
    feed = clients["anonymous"].get(f"/api/listing/calendar/{listing_ical_token(andheri)}.ics").content.decode()
    feed = feed.replace("\r\n ", "")  # unfold long lines (RFC 5545, 3.1)
    assert "X-WR-TIMEZONE:Asia/Kolkata" in feed and "TZID:Asia/Kolkata" in feed
    assert "DTSTART;TZID=Asia/Kolkata:20270120T100000" in feed and "DTEND;TZID=Asia/Kolkata:20270120T160000" in feed
    assert "20-01-2027 10:00 AM IST to 20-01-2027 04:00 PM IST (Asia/Kolkata)" in feed.replace("\r\n", "\n")


def test_opening_hours_are_checked_on_the_space_s_clock(frozen, clients, andheri):
    # 8:30 AM in Mumbai is before opening (it would be 7 PM in New York, inside the hours there).
    response = _request(clients["renter"], andheri, start="08:30 AM", end="12:00 PM")
    assert response.status_code == 400
    assert response.json()["errors"]["startTime"] == [
        "Choose a time within opening hours on 20-01-2027 (09:00 AM to 10:00 PM IST)."
    ]
    assert not Booking.objects.exists()
    assert _request(clients["renter"], andheri, start="09:00 AM", end="10:00 PM").status_code == 201


def test_start_completion_and_expiry_follow_the_space_s_clock(frozen, users, andheri):
    booking = services.booking_request(
        renter=users["renter"],
        listing_id=andheri.pk,
        check_in_date=DAY,
        check_out_date=DAY,
        start_time=dt.time(10),
        end_time=dt.time(16),
    )
    # The request expires 72 hours after it was made (check-in is later than that).
    assert booking.expires_at == NOW + services.REQUEST_TTL
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    ten_am_mumbai = dt.datetime(2027, 1, 20, 10, tzinfo=KOLKATA)
    assert services.bookings_start_due(now=ten_am_mumbai - dt.timedelta(minutes=1)) == 0
    assert services.bookings_start_due(now=ten_am_mumbai) == 1
    four_pm_mumbai = dt.datetime(2027, 1, 20, 16, tzinfo=KOLKATA)
    assert services.bookings_complete_due(now=four_pm_mumbai - dt.timedelta(minutes=1)) == 0
    assert services.bookings_complete_due(now=four_pm_mumbai) == 1
    booking.refresh_from_db()
    assert booking.status == "completed"


def test_a_request_for_a_time_already_past_in_mumbai_is_refused(users, andheri):
    # 10:00 AM in Mumbai has passed at 05:00 UTC, though it is only midnight in New York.
    past = dt.datetime(2027, 1, 20, 5, 0, tzinfo=dt.UTC)
    with time_machine.travel(past, tick=False), pytest.raises(InvalidInput) as refused:
        services.booking_request(
            renter=users["renter"],
            listing_id=andheri.pk,
            check_in_date=DAY,
            check_out_date=DAY,
            start_time=dt.time(10),
            end_time=dt.time(16),
        )
    assert "past" in str(refused.value)
    assert not Booking.objects.exists()


def test_approving_after_check_in_in_mumbai_says_the_date_has_passed(frozen, clients, users, andheri):
    booking_id = _request(clients["renter"], andheri).json()["data"]["_id"]
    with time_machine.travel(dt.datetime(2027, 1, 20, 4, 29, tzinfo=dt.UTC), tick=False):  # 9:59 AM in Mumbai
        _, message = services.booking_update_status(booking_id=booking_id, actor=users["host"], status="approved")
    assert message == "Booking approved successfully."
    booking_id = _request(clients["renter"], andheri, start="05:00 PM", end="07:00 PM").json()["data"]["_id"]
    with time_machine.travel(dt.datetime(2027, 1, 20, 11, 31, tzinfo=dt.UTC), tick=False):  # 5:01 PM in Mumbai
        _, message = services.booking_update_status(booking_id=booking_id, actor=users["host"], status="approved")
    assert message == "Booking approved. Note: the booking date has already passed."


def test_an_extension_ends_on_the_space_s_clock(frozen, clients, users, andheri):
    booking_id = _request(clients["renter"], andheri).json()["data"]["_id"]
    services.booking_update_status(booking_id=booking_id, actor=users["host"], status="approved")
    response = clients["renter"].post(f"/api/booking/extend/{booking_id}", {"additionalHours": 2}, format="json")
    assert response.status_code == 201, response.content
    host_view = clients["host"].get(f"/api/booking/booking/{booking_id}").json()["data"]["extendBooking"][0]
    assert (host_view["startTime"], host_view["endTime"], host_view["timeZoneName"]) == ("04:00 PM", "06:00 PM", "IST")
    note = Notification.objects.filter(user=users["host"], kind="extensionRequested").get()
    assert re.search(r"until 20-01-2027 06:00 PM IST", note.content)
