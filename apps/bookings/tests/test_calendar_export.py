"""The feeds other calendars read: RFC 5545 with each listing's VTIMEZONE, stable UIDs, a SEQUENCE
that grows with each change, cancelled bookings marked CANCELLED; one per listing and one per host."""

from urllib.parse import urlsplit

import icalendar
import pytest
from django.core import signing

from apps.bookings import services
from apps.bookings.calendars.export import HOST_ICAL_SALT, host_ical_token, listing_ical_token
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.bookings.models import ExternalBlock, ExternalCalendar

pytestmark = pytest.mark.django_db


def read(api, path) -> icalendar.Calendar:
    response = api.get(path)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/calendar")
    return icalendar.Calendar.from_ical(response.content)


def events(calendar) -> dict[str, icalendar.Event]:
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def test_the_listing_feed_follows_a_booking_from_request_to_cancellation(api, users):
    listing = PricedEventListingFactory(host=users["host"], time_zone="Asia/Kolkata", title="Andheri Rooftop")
    booking = booking_make(renter=users["renter"], listing=listing, day=weekday(12))
    path = f"/api/listing/calendar/{listing_ical_token(listing)}.ics"
    uid = f"{booking.pk}@spacemarket"

    feed = read(api, path)
    assert [str(tz["TZID"]) for tz in feed.walk("VTIMEZONE")] == ["Asia/Kolkata"]
    event = events(feed)[uid]
    assert (event["STATUS"], event["SEQUENCE"]) == ("TENTATIVE", 0)
    assert event["DTSTART"].params["TZID"] == "Asia/Kolkata"
    assert event["DTSTART"].dt == booking.check_in

    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    event = events(read(api, path))[uid]
    assert (event["STATUS"], event["SEQUENCE"]) == ("CONFIRMED", 1)

    services.booking_cancel_by_host(booking_id=booking.pk, actor=users["host"], reason="Roof repairs")
    event = events(read(api, path))[uid]
    assert (event["STATUS"], event["SEQUENCE"]) == ("CANCELLED", 2)


def test_the_host_feed_holds_every_listing_with_each_zone_and_no_imported_event(api, clients, users):
    mumbai = PricedEventListingFactory(host=users["host"], time_zone="Asia/Kolkata", title="Andheri Rooftop")
    york = PricedEventListingFactory(host=users["host"], time_zone="America/New_York", title="Harbour Loft")
    elsewhere = PricedEventListingFactory(host=users["other_host"], title="Not theirs")
    mine = [booking_make(renter=users["renter"], listing=listing, day=weekday(12)) for listing in (mumbai, york)]
    booking_make(renter=users["renter"], listing=elsewhere, day=weekday(12))
    calendar = ExternalCalendar.objects.create(listing=york, name="Airbnb", url="https://calendar.example/a.ics")
    ExternalBlock.objects.create(
        calendar=calendar, listing=york, uid="x", period=(mine[1].check_out, mine[1].check_out.replace(year=2099))
    )

    answer = clients["sub_host"].get("/api/host/calendar-url")
    assert answer.status_code == 200
    assert clients["renter"].get("/api/host/calendar-url").status_code == 403
    path = "/api/host/calendar/" + answer.json()["data"]["url"].split("/api/host/calendar/", 1)[1]
    feed = read(api, path)

    assert sorted(str(tz["TZID"]) for tz in feed.walk("VTIMEZONE")) == ["America/New_York", "Asia/Kolkata"]
    assert set(events(feed)) == {f"{booking.pk}@spacemarket" for booking in mine}
    # The address is the same each time it is asked for (a host pasted it into a calendar), and an
    # address given out before, signed with a timestamp, still opens the feed.
    assert clients["host"].get("/api/host/calendar-url").json()["data"]["url"].endswith(path)
    assert path == f"/api/host/calendar/{host_ical_token(users['host'])}.ics"
    earlier = signing.dumps(str(users["host"].pk), salt=HOST_ICAL_SALT)
    assert set(events(read(api, f"/api/host/calendar/{earlier}.ics"))) == set(events(feed))
    assert api.get("/api/host/calendar/forged.ics").status_code == 404
    # A listing's own token does not open the host's feed.
    assert api.get(f"/api/host/calendar/{listing_ical_token(mumbai)}.ics").status_code == 404


def test_the_host_calendar_shows_imported_events_with_their_source(clients, users):
    listing = PricedEventListingFactory(host=users["host"], title="Harbour Loft", time_zone="America/New_York")
    calendar = ExternalCalendar.objects.create(listing=listing, name="Peerspace", url="https://calendar.example/a.ics")
    day = weekday(12)
    import datetime as dt
    from zoneinfo import ZoneInfo

    start = dt.datetime.combine(day, dt.time(10), tzinfo=ZoneInfo("America/New_York"))
    ExternalBlock.objects.create(
        calendar=calendar, listing=listing, uid="a", period=(start, start + dt.timedelta(hours=2)), summary="Shoot"
    )
    query = {"from": day.isoformat(), "to": day.isoformat()}

    imported = clients["sub_host"].get("/api/booking/calendar", query).json()["data"]["imported"]

    assert [(row["calendarName"], row["title"], row["summary"]) for row in imported] == [
        ("Peerspace", "Harbour Loft", "Shoot")
    ]
    assert clients["other_host"].get("/api/booking/calendar", query).json()["data"]["imported"] == []
    assert clients["renter"].get("/api/booking/calendar", query).json()["data"]["imported"] == []


def test_the_host_resets_its_calendar_links_and_the_old_ones_stop_working(api, clients, users):
    listing = PricedEventListingFactory(host=users["host"])
    booking_make(renter=users["renter"], listing=listing)
    host_link = clients["sub_host"].get("/api/host/calendar-url").json()["data"]
    listing_link = clients["sub_host"].get(f"/api/listing/calendar-url/{listing.pk}").json()["data"]["url"]
    assert host_link["can"] == {"reset": False}  # the sub-host reads the links, the host resets them
    old = [urlsplit(host_link["url"]).path, urlsplit(listing_link).path]
    assert [api.get(path).status_code for path in old] == [200, 200]

    refused = clients["sub_host"].post("/api/host/calendar-url/reset")
    assert refused.status_code == 403 and refused.json()["message"] == "Only the host can reset the calendar links."
    assert [api.get(path).status_code for path in old] == [200, 200]  # nothing changed

    assert clients["host"].get("/api/host/calendar-url").json()["data"]["can"] == {"reset": True}
    reset = clients["host"].post("/api/host/calendar-url/reset")
    assert reset.status_code == 200, reset.content
    assert reset.json()["message"] == "Calendar links reset. The links shared before no longer work."
    # Every address given out before is gone: the host's feed and each listing's.
    assert [api.get(path).status_code for path in old] == [404, 404]
    new_host = urlsplit(reset.json()["data"]["url"]).path
    new_listing = urlsplit(
        clients["sub_host"].get(f"/api/listing/calendar-url/{listing.pk}").json()["data"]["url"]
    ).path
    assert new_host not in old and new_listing not in old
    assert [api.get(path).status_code for path in (new_host, new_listing)] == [200, 200]
    # A token made with the id alone, as before any reset, no longer opens the feed either.
    bare = signing.Signer(salt=HOST_ICAL_SALT).sign(str(users["host"].pk))
    assert api.get(f"/api/host/calendar/{bare}.ics").status_code == 404
