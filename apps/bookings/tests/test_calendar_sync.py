"""Imported calendars: real-world feed shapes served by a local HTTP server block exactly their
time (search by date, the availability calendar, the quote's slots, the booking request), bad
feeds and unsafe addresses change nothing, and the host hears of a conflict with a booking here."""

import datetime as dt
import socket
from zoneinfo import ZoneInfo

import pytest
from django.core import mail

from apps.bookings import services
from apps.bookings.calendars import fetch as fetch_module
from apps.bookings.calendars import sync
from apps.bookings.calendars.testing import FeedServer
from apps.bookings.factories import PricedEventListingFactory, weekday
from apps.bookings.models import Booking, CalendarStatus, ExternalBlock, ExternalCalendar
from apps.bookings.tasks import sync_due_calendars
from apps.notifications.models import Notification

pytestmark = pytest.mark.django_db

NY = ZoneInfo("America/New_York")
UTC_STAMP = "%Y%m%dT%H%M%SZ"
OPEN = {
    day: {"open": "07:00", "close": "22:00"}
    for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday")
}


@pytest.fixture
def server():
    with FeedServer() as feed_server:
        yield feed_server


@pytest.fixture
def listing(users):
    return PricedEventListingFactory(
        host=users["host"], title="Harbour Loft", time_zone="America/New_York", opening_hours=OPEN
    )


@pytest.fixture
def day():
    return weekday(10)


def local(day: dt.date, hour: int, minute: int = 0, tz=NY) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=tz)


def utc(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime(UTC_STAMP)


def ics(*lines: str) -> bytes:
    return ("\r\n".join(lines) + "\r\n").encode()


def google_feed(day: dt.date) -> bytes:
    """Google Calendar's secret address: UTC times, X-WR-TIMEZONE, a cancelled and a free event."""
    return ics(
        "BEGIN:VCALENDAR",
        "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
        "VERSION:2.0",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "X-WR-CALNAME:Loft (Google)",
        "X-WR-TIMEZONE:America/New_York",
        "BEGIN:VEVENT",
        f"DTSTART:{utc(local(day, 10))}",
        f"DTEND:{utc(local(day, 12))}",
        "DTSTAMP:20261101T000000Z",
        "UID:7kukuqrfedlm2f9t7k3iu3b8jp@google.com",
        "SUMMARY:Team workshop",
        "STATUS:CONFIRMED",
        "TRANSP:OPAQUE",
        "END:VEVENT",
        "BEGIN:VEVENT",
        f"DTSTART:{utc(local(day, 15))}",
        f"DTEND:{utc(local(day, 17))}",
        "DTSTAMP:20261101T000000Z",
        "UID:cancelled1@google.com",
        "SUMMARY:Called off",
        "STATUS:CANCELLED",
        "END:VEVENT",
        "BEGIN:VEVENT",
        f"DTSTART:{utc(local(day, 18))}",
        f"DTEND:{utc(local(day, 20))}",
        "DTSTAMP:20261101T000000Z",
        "UID:free1@google.com",
        "SUMMARY:Reminder only",
        "TRANSP:TRANSPARENT",
        "END:VEVENT",
        "END:VCALENDAR",
    )


def outlook_feed(day: dt.date) -> bytes:
    """Outlook's published calendar: a Windows zone name defined by its own VTIMEZONE (Pacific)."""
    start = local(day, 10).astimezone(ZoneInfo("America/Los_Angeles"))
    return ics(
        "BEGIN:VCALENDAR",
        "METHOD:PUBLISH",
        "PRODID:Microsoft Exchange Server 2010",
        "VERSION:2.0",
        "X-WR-CALNAME:Calendar",
        "BEGIN:VTIMEZONE",
        "TZID:Pacific Standard Time",
        "BEGIN:STANDARD",
        "DTSTART:16010101T020000",
        "TZOFFSETFROM:-0700",
        "TZOFFSETTO:-0800",
        "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=1SU;BYMONTH=11",
        "END:STANDARD",
        "BEGIN:DAYLIGHT",
        "DTSTART:16010101T020000",
        "TZOFFSETFROM:-0800",
        "TZOFFSETTO:-0700",
        "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=2SU;BYMONTH=3",
        "END:DAYLIGHT",
        "END:VTIMEZONE",
        "BEGIN:VEVENT",
        "UID:040000008200E00074C5B7101A82E00800000000",
        "SUMMARY:Busy",
        f"DTSTART;TZID=Pacific Standard Time:{start.strftime('%Y%m%dT%H%M%S')}",
        f"DTEND;TZID=Pacific Standard Time:{(start + dt.timedelta(hours=2)).strftime('%Y%m%dT%H%M%S')}",
        "CLASS:PUBLIC",
        "PRIORITY:5",
        "DTSTAMP:20261101T000000Z",
        "TRANSP:OPAQUE",
        "STATUS:CONFIRMED",
        "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
        "END:VEVENT",
        "END:VCALENDAR",
    )


def airbnb_feed(day: dt.date) -> bytes:
    """Airbnb's export: all-day events, no zone."""
    return ics(
        "BEGIN:VCALENDAR",
        "PRODID;X-RICAL-TZSOURCE=TZINFO:-//Airbnb Inc//Hosting Calendar 1.0//EN",
        "CALSCALE:GREGORIAN",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        f"DTEND;VALUE=DATE:{(day + dt.timedelta(days=1)).strftime('%Y%m%d')}",
        f"DTSTART;VALUE=DATE:{day.strftime('%Y%m%d')}",
        "UID:1418fb94e984-b0d0ad0c3bb2b7e4f4e0bbcf2b1a1f3a@airbnb.com",
        "SUMMARY:Reserved",
        "END:VEVENT",
        "END:VCALENDAR",
    )


def apple_feed(day: dt.date) -> bytes:
    """Apple Calendar's export: Europe/Berlin with VTIMEZONE, a weekly event whose second week is
    excepted (EXDATE)."""
    berlin = ZoneInfo("Europe/Berlin")
    start = local(day, 10).astimezone(berlin)
    second = start + dt.timedelta(days=7)
    return ics(
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Apple Inc.//macOS 14.0//EN",
        "CALSCALE:GREGORIAN",
        "BEGIN:VTIMEZONE",
        "TZID:Europe/Berlin",
        "BEGIN:DAYLIGHT",
        "TZOFFSETFROM:+0100",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
        "DTSTART:19810329T020000",
        "TZNAME:CEST",
        "TZOFFSETTO:+0200",
        "END:DAYLIGHT",
        "BEGIN:STANDARD",
        "TZOFFSETFROM:+0200",
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
        "DTSTART:19961027T030000",
        "TZNAME:CET",
        "TZOFFSETTO:+0100",
        "END:STANDARD",
        "END:VTIMEZONE",
        "BEGIN:VEVENT",
        "CREATED:20261101T090000Z",
        "UID:8A3F5C2E-1B4D-4E6F-9A8B-7C6D5E4F3A2B",
        f"DTSTART;TZID=Europe/Berlin:{start.strftime('%Y%m%dT%H%M%S')}",
        f"DTEND;TZID=Europe/Berlin:{(start + dt.timedelta(hours=2)).strftime('%Y%m%dT%H%M%S')}",
        "RRULE:FREQ=WEEKLY;COUNT=3",
        f"EXDATE;TZID=Europe/Berlin:{second.strftime('%Y%m%dT%H%M%S')}",
        "SUMMARY:Weekly yoga",
        "DTSTAMP:20261101T090000Z",
        "SEQUENCE:1",
        "END:VEVENT",
        "END:VCALENDAR",
    )


def floating_feed(day: dt.date) -> bytes:
    """Times with no zone: read in the listing's zone."""
    return ics(
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Host website//EN",
        "BEGIN:VEVENT",
        "UID:site-1",
        f"DTSTART:{day.strftime('%Y%m%d')}T100000",
        "DURATION:PT2H",
        "SUMMARY:Private event",
        "END:VEVENT",
        "END:VCALENDAR",
    )


def add_feed(clients, listing, url, name="Other site", actor="host"):
    """Add the feed as the host would; the API client runs the on-commit work (the first sync)."""
    return clients[actor].post(f"/api/listing/{listing.pk}/calendars", {"name": name, "url": url})


def request_booking(clients, listing, day, start="10:00 AM", end="12:00 PM"):
    data = {
        "listingId": str(listing.pk),
        "checkInDate": day.strftime("%d-%m-%Y"),
        "checkOutDate": day.strftime("%d-%m-%Y"),
        "startTime": start,
        "endTime": end,
        "guests": 2,
    }
    return clients["renter"].post("/api/booking/create", data)


def quote_available(clients, listing, day, start, end) -> bool:
    data = {
        "listingId": str(listing.pk),
        "checkInDate": day.strftime("%d-%m-%Y"),
        "checkOutDate": day.strftime("%d-%m-%Y"),
        "startTime": start,
        "endTime": end,
        "guests": 2,
    }
    response = clients["renter"].post("/api/booking/quote/event-booking-details", data)
    assert response.status_code == 200, response.content
    return response.json()["data"]["available"]


def occupied(clients, listing, day) -> list[str]:
    response = clients["renter"].get(
        f"/api/listing/get-availability/{listing.pk}", {"from": day.isoformat(), "days": 21}
    )
    assert response.status_code == 200, response.content
    return response.json()["data"]["occupiedDates"]


def found_on(api, day) -> set[str]:
    response = api.get(
        "/api/listing/property-listing", {"filters[startDate]": day.isoformat(), "filters[endDate]": day.isoformat()}
    )
    assert response.status_code == 200, response.content
    return {item["title"] for item in response.json()["data"]["listings"]}


def spans(listing) -> list[tuple[dt.datetime, dt.datetime]]:
    return [(b.period.lower, b.period.upper) for b in ExternalBlock.objects.filter(listing=listing).order_by("period")]


@pytest.mark.parametrize(
    ("shape", "feed"),
    [("google", google_feed), ("outlook", outlook_feed), ("apple", apple_feed), ("floating", floating_feed)],
)
def test_a_timed_feed_blocks_exactly_its_hours(shape, feed, server, clients, listing, day, api):
    server.feeds[f"/{shape}.ics"] = feed(day)
    assert found_on(api, day) == {"Harbour Loft"}

    response = add_feed(clients, listing, server.url(f"/{shape}.ics"))

    assert response.status_code == 201, response.content
    calendar = ExternalCalendar.objects.get(listing=listing)
    assert calendar.status == CalendarStatus.OK, calendar.last_error
    assert spans(listing)[0] == (local(day, 10), local(day, 12))
    # The booking request into the block is refused and nothing is held.
    refused = request_booking(clients, listing, day, "10:00 AM", "12:00 PM")
    assert refused.status_code == 409
    assert refused.json()["message"] == services.CALENDAR_CONFLICT
    refused = request_booking(clients, listing, day, "11:30 AM", "01:30 PM")
    assert refused.status_code == 409
    assert not Booking.objects.exists()
    # The slot pickers, the availability calendar and the dated search say the same.
    assert quote_available(clients, listing, day, "10:00 AM", "12:00 PM") is False
    assert quote_available(clients, listing, day, "12:00 PM", "02:00 PM") is True
    assert day.isoformat() in occupied(clients, listing, day)
    assert found_on(api, day) == set()
    # Right after the block is free (the cancelled and free events block nothing).
    assert request_booking(clients, listing, day, "03:00 PM", "08:00 PM").status_code == 201
    assert request_booking(clients, listing, day, "12:00 PM", "02:00 PM").status_code == 201


def test_an_airbnb_all_day_event_blocks_the_listing_s_whole_local_day(server, clients, listing, day, api):
    server.feeds["/airbnb.ics"] = airbnb_feed(day)
    add_feed(clients, listing, server.url("/airbnb.ics"))

    assert spans(listing) == [(local(day, 0), local(day + dt.timedelta(days=1), 0))]
    assert request_booking(clients, listing, day, "07:00 PM", "09:00 PM").status_code == 409
    assert occupied(clients, listing, day) == [day.isoformat()]
    assert found_on(api, day) == set()
    following = day + dt.timedelta(days=1) if day.weekday() != 5 else day + dt.timedelta(days=2)
    assert request_booking(clients, listing, following, "07:00 AM", "09:00 AM").status_code == 201


def test_a_weekly_event_with_an_exception_blocks_each_week_but_the_excepted_one(server, clients, listing, day):
    server.feeds["/apple.ics"] = apple_feed(day)
    add_feed(clients, listing, server.url("/apple.ics"))

    weeks = [day, day + dt.timedelta(days=7), day + dt.timedelta(days=14)]
    blocked_days = {lower.astimezone(NY).date() for lower, _ in spans(listing)}
    assert blocked_days == {weeks[0], weeks[2]}
    assert ExternalCalendar.objects.get(listing=listing).event_count == 2
    assert request_booking(clients, listing, weeks[1], "10:00 AM", "12:00 PM").status_code == 201
    # The third week is blocked at the same Berlin wall time, whatever New York's clock says then.
    third = spans(listing)[1]
    assert (
        request_booking(
            clients,
            listing,
            weeks[2],
            third[0].astimezone(NY).strftime("%I:%M %p"),
            third[1].astimezone(NY).strftime("%I:%M %p"),
        ).status_code
        == 409
    )


def test_role_matrix_for_the_calendars_of_a_listing(server, clients, listing, day):
    server.feeds["/g.ics"] = google_feed(day)
    add_feed(clients, listing, server.url("/g.ics"))
    expected = {
        "anonymous": 401,
        "renter": 403,
        "other_renter": 403,
        "host": 200,
        "sub_host": 200,
        "other_host": 404,
        "moderator": 403,
        "admin": 403,
    }
    for actor, status in expected.items():
        response = clients[actor].get(f"/api/listing/{listing.pk}/calendars")
        assert response.status_code == status, (actor, response.content)
    data = clients["sub_host"].get(f"/api/listing/{listing.pk}/calendars").json()["data"]
    port = server.port
    assert data == [
        {
            "_id": str(ExternalCalendar.objects.get().pk),
            "name": "Other site",
            "url": f"http://127.0.0.1:{port}/…",
            "status": "ok",
            "lastSyncedAt": data[0]["lastSyncedAt"],
            "lastError": "",
            "eventCount": 1,
        }
    ]
    calendar = ExternalCalendar.objects.get()
    for actor in ("anonymous", "renter", "other_host", "moderator", "admin"):
        path = f"/api/listing/{listing.pk}/calendars/{calendar.pk}"
        assert clients[actor].delete(path).status_code in (401, 403, 404)
        assert clients[actor].post(path + "/sync").status_code in (401, 403, 404)
        assert clients[actor].post(
            f"/api/listing/{listing.pk}/calendars", {"name": "x", "url": server.url("/g.ics")}
        ).status_code in (401, 403, 404)
    assert ExternalCalendar.objects.count() == 1
    assert ExternalBlock.objects.count() == 1


def test_sync_now_applies_a_changed_feed_and_removing_the_feed_frees_its_time(server, clients, listing, day):
    server.feeds["/g.ics"] = airbnb_feed(day)
    add_feed(clients, listing, server.url("/g.ics"), actor="sub_host")
    calendar = ExternalCalendar.objects.get()
    later = day + dt.timedelta(days=2) if day.weekday() < 4 else day + dt.timedelta(days=3)
    server.feeds["/g.ics"] = airbnb_feed(later)

    response = clients["host"].post(f"/api/listing/{listing.pk}/calendars/{calendar.pk}/sync")

    assert response.status_code == 202
    assert [lower.astimezone(NY).date() for lower, _ in spans(listing)] == [later]
    assert request_booking(clients, listing, day).status_code == 201
    assert request_booking(clients, listing, later).status_code == 409

    response = clients["host"].delete(f"/api/listing/{listing.pk}/calendars/{calendar.pk}")

    assert response.status_code == 200
    assert not ExternalBlock.objects.exists()
    assert request_booking(clients, listing, later).status_code == 201


def test_sync_now_is_limited_per_listing_and_per_host(server, clients, users, listing, day, monkeypatch):
    monkeypatch.setattr(sync.time, "time", lambda: 1_800_000_010.0)  # all in one minute, whatever the machine's pace
    server.feeds["/g.ics"] = airbnb_feed(day)
    add_feed(clients, listing, server.url("/g.ics"))
    calendar = ExternalCalendar.objects.get()
    fetched = server.hits["/g.ics"]
    answers = [
        clients["host"].post(f"/api/listing/{listing.pk}/calendars/{calendar.pk}/sync").status_code for _ in range(40)
    ]
    assert answers[:3] == [202] * 3 and set(answers[3:]) == {429}
    assert server.hits["/g.ics"] - fetched <= 3  # 40 clicks, at most 3 fetches of the third party's address
    # The host's other listings share the host's budget: 10 a minute in all.
    others = []
    for n in range(4):
        other = PricedEventListingFactory(host=users["host"])
        server.feeds[f"/o{n}.ics"] = airbnb_feed(day)
        add_feed(clients, other, server.url(f"/o{n}.ics"))
        feed = ExternalCalendar.objects.get(listing=other)
        others += [clients["host"].post(f"/api/listing/{other.pk}/calendars/{feed.pk}/sync") for _ in range(3)]
    codes = [answer.status_code for answer in others]
    assert codes.count(202) == 7 and codes.count(429) == 5, codes
    refused = others[-1]
    assert refused.json()["message"].startswith("Calendars were synced many times in the last minute.")
    assert 1 <= int(refused["Retry-After"]) <= 60


def test_an_unchanged_feed_is_fetched_conditionally(server, clients, listing, day):
    server.feeds["/g.ics"] = google_feed(day)
    add_feed(clients, listing, server.url("/g.ics"))
    calendar = ExternalCalendar.objects.get()
    assert calendar.etag
    before = spans(listing)

    sync.calendar_sync(calendar_id=calendar.pk)

    assert server.not_modified["/g.ics"] == 1
    assert spans(listing) == before
    calendar.refresh_from_db()
    assert calendar.status == CalendarStatus.OK and calendar.event_count == 1


def test_beat_queues_only_the_calendars_that_are_due(server, clients, listing, day):
    server.feeds["/g.ics"] = google_feed(day)
    add_feed(clients, listing, server.url("/g.ics"))
    calendar = ExternalCalendar.objects.get()
    assert calendar.next_attempt_at - calendar.last_synced_at == sync.REFRESH_EVERY <= dt.timedelta(minutes=10)
    hits = server.hits["/g.ics"]

    assert sync_due_calendars() == 0
    ExternalCalendar.objects.update(next_attempt_at=calendar.last_synced_at)
    assert sync_due_calendars() == 1

    assert server.hits["/g.ics"] == hits + 1
    # A deleted listing's calendars are not fetched any more.
    ExternalCalendar.objects.update(next_attempt_at=calendar.last_synced_at)
    type(listing).objects.filter(pk=listing.pk).update(is_deleted=True)
    assert sync_due_calendars() == 0


def test_a_new_block_over_a_booking_here_tells_the_host(
    server, clients, listing, day, users, django_capture_on_commit_callbacks
):
    server.feeds["/g.ics"] = ics("BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//EN", "END:VCALENDAR")
    add_feed(clients, listing, server.url("/g.ics"))
    booking_id = request_booking(clients, listing, day, "11:00 AM", "01:00 PM").json()["data"]["_id"]
    mail.outbox.clear()
    server.feeds["/g.ics"] = google_feed(day)

    with django_capture_on_commit_callbacks(execute=True):
        sync.calendar_sync(calendar_id=ExternalCalendar.objects.get().pk)

    note = Notification.objects.get(user=users["host"], kind="calendarConflict")
    assert '"Other site" blocks Harbour Loft' in note.content
    assert note.link == f"/booking-detail/{booking_id}"
    assert any("Harbour Loft" in message.body for message in mail.outbox)
    # The booking is kept; the block is imported (the host settles it).
    assert Booking.objects.get(pk=booking_id).status == "pending"
    assert len(spans(listing)) == 1
    # A second sync of the same feed does not tell again.
    sync.calendar_sync(calendar_id=ExternalCalendar.objects.get().pk)
    assert Notification.objects.filter(kind="calendarConflict").count() == 1


# --- Bad feeds: "failing" with the reason, the last good blocks kept --------------------------------

SOON = (dt.date.today() + dt.timedelta(days=30)).strftime("%Y%m%d")
BAD_FEEDS = {
    "html": (b"<!doctype html><html><body>Sign in</body></html>", "does not answer an iCal calendar"),
    "garbage": (b"BEGIN:VCALENDAR\r\nthis is not ical\r\n", "not valid iCal"),
    "too-many": (
        ics(
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            *[
                line
                for n in range(5001)
                for line in ("BEGIN:VEVENT", f"UID:{n}", "DTSTART;VALUE=DATE:20300101", "END:VEVENT")
            ],
            "END:VCALENDAR",
        ),
        "more than 5,000 events",
    ),
    "too-big": (
        b"BEGIN:VCALENDAR\r\n" + b"X-PAD:" + b"a" * (1024 * 1024) + b"\r\nEND:VCALENDAR\r\n",
        "larger than 1 MB",
    ),
    "bad-rule": (
        ics(
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "BEGIN:VEVENT",
            "UID:r",
            f"DTSTART:{SOON}T100000Z",
            f"DTEND:{SOON}T110000Z",
            "RRULE:FREQ=SOMETIMES",
            "END:VEVENT",
            "END:VCALENDAR",
        ),
        "not valid",
    ),
}


@pytest.mark.parametrize("kind", [*BAD_FEEDS, "missing", "server-error", "slow"])
def test_a_bad_feed_shows_failing_and_keeps_the_last_good_blocks(kind, server, clients, listing, day, monkeypatch):
    server.feeds["/g.ics"] = google_feed(day)
    add_feed(clients, listing, server.url("/g.ics"))
    calendar = ExternalCalendar.objects.get()
    before = spans(listing)
    if kind in BAD_FEEDS:
        server.feeds["/g.ics"], reason = BAD_FEEDS[kind]
    elif kind == "missing":
        del server.feeds["/g.ics"]
        reason = "answered 404"
    elif kind == "server-error":
        server.statuses["/g.ics"] = 500
        reason = "answered 500"
    else:
        monkeypatch.setattr(fetch_module, "TIMEOUT_SECONDS", 0.3)
        server.delays["/g.ics"] = 1
        reason = "longer than 0.3 seconds"

    sync.calendar_sync(calendar_id=calendar.pk)

    calendar.refresh_from_db()
    assert calendar.status == CalendarStatus.FAILING
    assert reason in calendar.last_error
    assert calendar.failures == 1
    assert spans(listing) == before
    assert calendar.event_count == 1
    shown = clients["host"].get(f"/api/listing/{listing.pk}/calendars").json()["data"][0]
    assert shown["status"] == "failing" and reason in shown["lastError"]
    assert request_booking(clients, listing, day).status_code == 409


def test_a_server_dripping_its_answer_is_cut_off_at_the_deadline(server, clients, listing, day, monkeypatch):
    """Each byte arrives well within a read's timeout, but the answer as a whole may not take
    longer than the deadline: headers and body together."""
    server.feeds["/g.ics"] = google_feed(day)
    add_feed(clients, listing, server.url("/g.ics"))
    calendar = ExternalCalendar.objects.get()
    before = spans(listing)
    monkeypatch.setattr(fetch_module, "TIMEOUT_SECONDS", 1)
    server.drips["/g.ics"] = 0.05  # the whole answer would take about a minute

    sync.calendar_sync(calendar_id=calendar.pk)

    calendar.refresh_from_db()
    assert calendar.status == CalendarStatus.FAILING
    assert "took longer than 1 seconds" in calendar.last_error
    assert spans(listing) == before


def test_a_failing_feed_backs_off_and_recovers(server, clients, listing, day):
    server.feeds["/g.ics"] = google_feed(day)
    add_feed(clients, listing, server.url("/g.ics"))
    calendar = ExternalCalendar.objects.get()
    server.statuses["/g.ics"] = 503
    now = calendar.last_synced_at
    waits = []
    for step in range(1, 5):
        moment = now + dt.timedelta(hours=step)
        sync.calendar_sync(calendar_id=calendar.pk, now=moment)
        calendar.refresh_from_db()
        waits.append(calendar.next_attempt_at - moment)
    assert waits == [dt.timedelta(minutes=8), dt.timedelta(minutes=16), dt.timedelta(minutes=32), dt.timedelta(hours=1)]
    del server.statuses["/g.ics"]
    sync.calendar_sync(calendar_id=calendar.pk)
    calendar.refresh_from_db()
    assert (calendar.status, calendar.failures, calendar.last_error) == ("ok", 0, "")


# --- Unsafe addresses ----------------------------------------------------------------------------


@pytest.fixture
def production_fetch(settings):
    settings.CALENDAR_ALLOW_LOCAL = False


@pytest.fixture
def fake_dns(monkeypatch):
    """calendar.example resolves to a public address, inside.example and rebind.example to private ones."""
    answers = {
        "calendar.example": "93.184.215.14",
        "inside.example": "10.1.2.3",
        "metadata.example": "169.254.169.254",
        "rebind.example": "127.0.0.1",
    }
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in answers:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/feed.ics",
        "https://127.0.0.1/feed.ics",
        "https://localhost/feed.ics",
        "https://[::1]/feed.ics",
        "https://10.0.0.5/feed.ics",
        "https://192.168.1.1/feed.ics",
        "https://169.254.169.254/latest/meta-data/",
        "https://[fd00:ec2::254]/feed.ics",
        "https://[::ffff:127.0.0.1]/feed.ics",
        # IPv6 forms that carry an IPv4 address: IPv4-compatible, NAT64 (both prefixes), 6to4, Teredo.
        "https://[::a9fe:a9fe]/feed.ics",
        "https://[::10.0.0.1]/feed.ics",
        "https://[64:ff9b::a9fe:a9fe]/feed.ics",
        "https://[64:ff9b::7f00:1]/feed.ics",
        "https://[64:ff9b:1::a9fe:a9fe]/feed.ics",
        "https://[2002:a9fe:a9fe::]/feed.ics",
        "https://[2002:7f00:1::1]/feed.ics",
        "https://100.64.0.1/feed.ics",
        "https://0.0.0.0/feed.ics",
        "https://inside.example/feed.ics",
        "https://metadata.example/feed.ics",
        "https://rebind.example/feed.ics",
        "http://calendar.example/feed.ics",
        "file:///etc/passwd",
        "ftp://calendar.example/feed.ics",
        "gopher://calendar.example/",
        "https://user:secret@calendar.example/feed.ics",
        "not a url",
    ],
)
def test_unsafe_addresses_are_refused_when_added(url, production_fetch, fake_dns, clients, listing):
    response = clients["host"].post(f"/api/listing/{listing.pk}/calendars", {"name": "Other", "url": url})

    assert response.status_code == 400, response.content
    assert response.json()["errors"]["url"]
    assert not ExternalCalendar.objects.exists()


def test_webcal_is_read_as_https(production_fetch, fake_dns, clients, listing):
    response = clients["host"].post(
        f"/api/listing/{listing.pk}/calendars", {"name": "Peerspace", "url": "webcal://calendar.example/abc/secret.ics"}
    )

    assert response.status_code == 201, response.content
    assert ExternalCalendar.objects.get().url == "https://calendar.example/abc/secret.ics"
    assert response.json()["data"]["url"] == "https://calendar.example/…"


def test_a_redirect_to_a_private_address_is_refused_and_changes_nothing(server, clients, listing, day, settings):
    server.feeds["/g.ics"] = google_feed(day)
    add_feed(clients, listing, server.url("/g.ics"))
    calendar = ExternalCalendar.objects.get()
    before = spans(listing)
    for target in ("http://169.254.169.254/latest/meta-data/", "https://10.0.0.1/feed.ics"):
        server.redirects["/g.ics"] = target
        sync.calendar_sync(calendar_id=calendar.pk)
        calendar.refresh_from_db()
        assert calendar.status == CalendarStatus.FAILING
        assert "private network" in calendar.last_error or "https://" in calendar.last_error
        assert spans(listing) == before
    # With the development allowance off, even the local server itself is refused.
    del server.redirects["/g.ics"]
    settings.CALENDAR_ALLOW_LOCAL = False
    sync.calendar_sync(calendar_id=calendar.pk)
    calendar.refresh_from_db()
    assert calendar.status == CalendarStatus.FAILING and spans(listing) == before


def test_more_than_three_redirects_are_refused(server, clients, listing, day):
    server.feeds["/g.ics"] = google_feed(day)
    for n in range(4):
        server.redirects[f"/r{n}"] = f"/r{n + 1}" if n < 3 else "/g.ics"
    add_feed(clients, listing, server.url("/r0"))

    calendar = ExternalCalendar.objects.get()
    assert calendar.status == CalendarStatus.FAILING
    assert "more than 3 times" in calendar.last_error
    assert not ExternalBlock.objects.exists()
    server.redirects["/r1"] = "/g.ics"
    sync.calendar_sync(calendar_id=calendar.pk)
    assert ExternalBlock.objects.count() == 1


def test_an_event_already_going_on_blocks_its_remaining_time_and_runaway_rules_are_refused():
    import datetime as dt

    from apps.bookings.calendars.parse import FeedError, parse_feed

    now = dt.datetime.now(dt.UTC)
    started = (now - dt.timedelta(days=5)).date()
    ongoing = ics(
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        "UID:long-stay",
        f"DTSTART;VALUE=DATE:{started:%Y%m%d}",
        f"DTEND;VALUE=DATE:{started + dt.timedelta(days=10):%Y%m%d}",
        "END:VEVENT",
        "END:VCALENDAR",
    )
    assert [block.uid for block in parse_feed(ongoing, tz=NY)] == [f"long-stay|{local(started, 0):%Y%m%d}T050000Z"]
    for rule in ("FREQ=MINUTELY", "FREQ=HOURLY", "FREQ=SECONDLY;COUNT=10"):
        runaway = ics(
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "BEGIN:VEVENT",
            "UID:r",
            f"DTSTART:{now:%Y%m%dT%H%M%SZ}",
            "DURATION:PT1M",
            f"RRULE:{rule}",
            "END:VEVENT",
            "END:VCALENDAR",
        )
        with pytest.raises(FeedError, match="more often than hourly"):
            parse_feed(runaway, tz=NY)


@pytest.mark.parametrize(
    "rule",
    [
        "FREQ=DAILY;BYHOUR={hours};BYMINUTE={minutes}",
        "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR={hours};BYMINUTE={minutes}",
        "FREQ=HOURLY;UNTIL=20991231T000000Z;BYMINUTE={minutes}",
    ],
)
def test_a_repeat_rule_that_multiplies_by_its_parts_stops_at_the_cap_as_it_expands(rule, monkeypatch):
    """A 400-byte feed making 1,440 occurrences a day is refused once the cap is passed: the feed
    is expanded a span at a time, each span sized to make at most about the cap, not 120 days of it."""
    from apps.bookings.calendars import parse
    from apps.bookings.calendars.parse import FeedError, parse_feed

    expanded = []
    block = parse._block
    monkeypatch.setattr(parse, "_block", lambda event, tz: expanded.append(1) or block(event, tz))
    hours, minutes = ",".join(map(str, range(24))), ",".join(map(str, range(60)))
    start = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)
    bomb = ics(
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        "UID:bomb",
        f"DTSTART:{start:%Y%m%dT%H%M00Z}",
        "DURATION:PT30S",
        "RRULE:" + rule.format(hours=hours, minutes=minutes),
        "END:VEVENT",
        "END:VCALENDAR",
    )
    assert len(bomb) < 500
    with pytest.raises(FeedError, match="more than 5,000 events"):
        parse_feed(bomb, tz=NY)
    assert len(expanded) <= 2 * parse.MAX_EVENTS + 1440
