"""The dashboard calendar (month or range, blocked dates for hosts) and a listing's bookings summary."""

import datetime as dt

import pytest

from apps.core.testing import check_role_matrix

from .conftest import make_booking, weekday

pytestmark = pytest.mark.django_db


def test_calendar_by_range_shows_each_role_its_bookings_and_hosts_their_blocked_dates(clients, users, event_listing):
    day = weekday(10)
    booking = make_booking(users["renter"], event_listing, day=day)
    event_listing.blocked_dates = [day + dt.timedelta(days=1)]
    event_listing.save()
    url = f"/api/booking/calendar?from={day.isoformat()}&to={(day + dt.timedelta(days=6)).isoformat()}"
    seen = {}
    for actor in ("renter", "other_renter", "host", "sub_host", "other_host", "admin", "moderator"):
        response = clients[actor].get(url)
        assert response.status_code == 200, response.content
        seen[actor] = response.json()["data"]
    ids = {actor: [event["_id"] for event in data["bookings"]] for actor, data in seen.items()}
    assert ids["renter"] == ids["host"] == ids["sub_host"] == ids["admin"] == ids["moderator"] == [str(booking.pk)]
    assert ids["other_renter"] == [] and ids["other_host"] == []
    event = seen["host"]["bookings"][0]
    assert event["link"] == f"/booking-detail/{booking.pk}" and event["listingId"] == str(event_listing.pk)
    blocked = [(row["listingId"], row["date"]) for row in seen["host"]["blocked"]]
    assert blocked == [(str(event_listing.pk), (day + dt.timedelta(days=1)).isoformat())]
    assert seen["sub_host"]["blocked"] == seen["host"]["blocked"]
    assert seen["other_host"]["blocked"] == [] and seen["renter"]["blocked"] == [] and seen["admin"]["blocked"] == []
    assert clients["anonymous"].get(url).status_code == 401


def test_calendar_refuses_bad_ranges(clients):
    response = clients["host"].get("/api/booking/calendar?from=2030-01-10&to=2030-01-01")
    assert response.status_code == 400 and "to" in response.json()["errors"]
    assert clients["host"].get("/api/booking/calendar?from=2030-01-01&to=2030-06-01").status_code == 400
    assert clients["host"].get("/api/booking/calendar?from=nope&to=2030-01-01").status_code == 400
    assert clients["host"].get("/api/booking/calendar?month=2030-13").status_code == 400
    assert clients["host"].get("/api/booking/calendar?month=2030-01&listingId=x").status_code == 400


def test_listing_bookings_summary_for_owner_and_staff_only(clients, users, event_listing):
    make_booking(users["renter"], event_listing, day=weekday(10))
    url = f"/api/booking/listing-summary/{event_listing.pk}"
    statuses = check_role_matrix(
        clients,
        "get",
        url,
        allowed={"host", "sub_host", "admin", "moderator"},
        hidden_status=(403, 404),
    )
    assert statuses["other_host"] == 404 and statuses["renter"] == 404
    data = clients["host"].get(url).json()["data"]
    assert data["total"] == 1 and sum(data["counts"].values()) == 1
    assert len(data["upcoming"]) == 1 and data["upcoming"][0]["checkInDate"] == weekday(10).strftime("%d-%m-%Y")
