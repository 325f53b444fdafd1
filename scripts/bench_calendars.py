"""Bench of the calendar sync (issue 27): 1,000 imported feeds served by a local HTTP server, synced by
a Celery worker of 2 processes (prefork, as production runs the worker), and the time from a changed
feed to a refused booking.

Measures, on the database of ``DATABASE_URL`` (``make bench``: ``spacemarket_bench``):

- first sync of every feed (fetch, parse with icalendar and recurring-ical-events, write the blocks):
  feeds per second;
- a second round where every feed answers 304 Not Modified (the steady state of beat's refresh);
- the time from a feed changing to a booking request into its new event being refused, with "Sync
  now" (the task queued at once), over ``BENCH_CAL_TRIALS`` trials.

Writes the "## Calendar sync" section of docs/performance-notes.md and of docs/performance.md (where
``scripts/bench.py`` puts the notes, so its next rebuild keeps it). Knobs: BENCH_CAL_FEEDS (1000),
BENCH_CAL_EVENTS (events per feed, 30), BENCH_CAL_TRIALS (10), BENCH_WORKER ("-c 2").
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The development profile (what `make run` uses): feeds on 127.0.0.1 over http are allowed there.
os.environ["DJANGO_ENV"] = "development"
os.environ["DEBUG"] = "0"
os.environ["CALENDAR_ALLOW_LOCAL"] = "1"
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

FEEDS = int(os.environ.get("BENCH_CAL_FEEDS", "1000"))
EVENTS = int(os.environ.get("BENCH_CAL_EVENTS", "30"))
TRIALS = int(os.environ.get("BENCH_CAL_TRIALS", "10"))
WORKER = os.environ.get("BENCH_WORKER", "-c 2")
PER_LISTING = 10  # a listing imports at most 10 calendars
SECTION = "## Calendar sync (`scripts/bench_calendars.py`)"
NY = ZoneInfo("America/New_York")
WORKER_LOG = Path(tempfile.gettempdir()) / f"bench-calendars-worker-{os.getpid()}.log"


def feed(index: int, first: dt.date, extra: list[tuple[dt.datetime, dt.datetime]] = ()) -> bytes:
    """A realistic feed: all-day (Airbnb-like), timed UTC (Google-like) and a weekly series with an
    exception (Apple-like), ``EVENTS`` events in all, spread over the next months."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Bench//EN", "X-WR-TIMEZONE:America/New_York"]
    for n in range(EVENTS):
        day = first + dt.timedelta(days=(index * 7 + n * 11) % 300)
        uid = f"bench-{index}-{n}"
        if n % 3 == 0:
            lines += [
                "BEGIN:VEVENT",
                f"UID:{uid}",
                f"DTSTART;VALUE=DATE:{day:%Y%m%d}",
                f"DTEND;VALUE=DATE:{day + dt.timedelta(days=1):%Y%m%d}",
                "SUMMARY:Reserved",
                "END:VEVENT",
            ]
        elif n % 3 == 1:
            start = dt.datetime.combine(day, dt.time(9 + n % 8), tzinfo=NY).astimezone(dt.UTC)
            lines += [
                "BEGIN:VEVENT",
                f"UID:{uid}",
                f"DTSTART:{start:%Y%m%dT%H%M%SZ}",
                f"DTEND:{start + dt.timedelta(hours=2):%Y%m%dT%H%M%SZ}",
                "SUMMARY:Workshop",
                "END:VEVENT",
            ]
        else:
            lines += [
                "BEGIN:VEVENT",
                f"UID:{uid}",
                f"DTSTART;TZID=America/New_York:{day:%Y%m%d}T180000",
                f"DTEND;TZID=America/New_York:{day:%Y%m%d}T200000",
                "RRULE:FREQ=WEEKLY;COUNT=4",
                f"EXDATE;TZID=America/New_York:{day + dt.timedelta(days=7):%Y%m%d}T180000",
                "SUMMARY:Weekly class",
                "END:VEVENT",
            ]
    for k, (start, end) in enumerate(extra):
        lines += [
            "BEGIN:VEVENT",
            f"UID:changed-{index}-{k}",
            f"DTSTART:{start.astimezone(dt.UTC):%Y%m%dT%H%M%SZ}",
            f"DTEND:{end.astimezone(dt.UTC):%Y%m%dT%H%M%SZ}",
            "SUMMARY:Booked elsewhere",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return ("\r\n".join(lines) + "\r\n").encode()


LOAD_AT_START = os.getloadavg()[0]


def main() -> int:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    import django

    django.setup()
    from django.conf import settings
    from django.db import transaction

    from apps.accounts.factories import UserFactory
    from apps.accounts.models import Role
    from apps.bookings import services, tasks
    from apps.bookings.calendars.testing import FeedServer
    from apps.bookings.factories import PricedEventListingFactory
    from apps.bookings.models import ExternalCalendar
    from apps.core.exceptions import Conflict
    from config import instance

    every_day = {d: {"open": "07:00", "close": "22:00"} for d in ("monday", "tuesday", "wednesday", "thursday")}
    every_day |= {d: {"open": "07:00", "close": "22:00"} for d in ("friday", "saturday", "sunday")}
    first = dt.datetime.now(NY).date() + dt.timedelta(days=2)
    stamp = f"{os.getpid()}-{int(time.time())}"
    with FeedServer() as server:
        host = UserFactory(role=Role.HOST, email=f"bench.calendars.{stamp}@example.com")
        renter = UserFactory(role=Role.RENTER, email=f"bench.renter.{stamp}@example.com")
        listings = [
            PricedEventListingFactory(
                host=host,
                title=f"Bench calendars {n}",
                slug=f"bench-calendars-{stamp}-{n}",
                time_zone="America/New_York",
                opening_hours=every_day,
                minimum_days=1,
                payment_preference="payLater",
            )
            for n in range((FEEDS + PER_LISTING - 1) // PER_LISTING)
        ]
        calendars = []
        for index in range(FEEDS):
            path = f"/feed-{index}.ics"
            server.feeds[path] = feed(index, first)
            calendars.append(
                ExternalCalendar(listing=listings[index // PER_LISTING], name=f"Feed {index}", url=server.url(path))
            )
        ExternalCalendar.objects.bulk_create(calendars)
        ids = [str(c.pk) for c in calendars]
        feed_bytes = statistics.mean(len(body) for body in server.feeds.values())
        print(f"{FEEDS} feeds of {EVENTS} events ({feed_bytes / 1024:.1f} KB each) on {len(listings)} listings")

        worker = subprocess.Popen(
            [
                str(ROOT / ".venv/bin/celery"),
                "-A",
                "config",
                "worker",
                "-l",
                "warning",
                *WORKER.split(),
                *instance.worker_arguments(settings.INSTANCE_NAME, node=f"bench-calendars-{os.getpid()}"),
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env={**os.environ},
            stdout=WORKER_LOG.open("w"),
            stderr=subprocess.STDOUT,
        )
        try:
            # Warm the worker's processes (imports, connections) before measuring.
            tasks.sync_calendar.apply_async((ids[0],))
            tasks.sync_calendar.apply_async((ids[1],))
            wait(lambda: ExternalCalendar.objects.filter(pk__in=ids[:2], last_synced_at__isnull=False).count() == 2)
            rounds = {}
            for label in ("first sync (200, parse, write)", "refresh (304 Not Modified)"):
                since = dt.datetime.now(dt.UTC)
                started = time.monotonic()
                for calendar_id in ids:
                    tasks.sync_calendar.apply_async((calendar_id,))
                wait(
                    lambda since=since: (
                        ExternalCalendar.objects.filter(pk__in=ids, last_synced_at__gte=since).count() == FEEDS
                    ),
                    limit=1800,
                )
                elapsed = time.monotonic() - started
                rounds[label] = (elapsed, FEEDS / elapsed)
                print(f"{label}: {FEEDS} feeds in {elapsed:.1f}s, {FEEDS / elapsed:.1f} feeds/s", flush=True)
            failing = ExternalCalendar.objects.filter(pk__in=ids, status="failing").count()
            not_modified = sum(server.not_modified.values())

            # A feed changes; "Sync now" queues it; a renter's request into the new event is refused.
            latencies = []
            for trial in range(TRIALS):
                index = trial * PER_LISTING
                listing = listings[index // PER_LISTING]
                day = first + dt.timedelta(days=301 + trial)
                start = dt.datetime.combine(day, dt.time(10), tzinfo=NY)
                end = start + dt.timedelta(hours=2)
                server.feeds[f"/feed-{index}.ics"] = feed(index, first, extra=[(start, end)])
                changed = time.monotonic()
                tasks.sync_calendar.apply_async((ids[index],))
                while True:
                    try:
                        with transaction.atomic():
                            services.booking_request(
                                renter=renter,
                                listing_id=listing.pk,
                                check_in_date=day,
                                check_out_date=day,
                                start_time=dt.time(10),
                                end_time=dt.time(12),
                                guests=2,
                            )
                            transaction.set_rollback(True)  # free: try again (nothing kept)
                    except Conflict as refusal:
                        assert refusal.message == services.CALENDAR_CONFLICT, refusal.message
                        break
                    if time.monotonic() - changed > 60:
                        raise RuntimeError("the changed feed was not applied within 60 s")
                    time.sleep(0.01)
                latencies.append((time.monotonic() - changed) * 1000)
            print(f"changed feed to refused booking: {', '.join(f'{ms:.0f}' for ms in latencies)} ms", flush=True)
        finally:
            worker.terminate()
            worker.wait(timeout=30)
    write_section(rounds, latencies, feed_bytes, failing, not_modified)
    return 0


def wait(condition, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out; see {WORKER_LOG}")
        time.sleep(0.2)


def write_section(rounds, latencies, feed_bytes, failing, not_modified) -> None:
    load = os.getloadavg()
    ordered = sorted(latencies)
    lines = [
        SECTION,
        "",
        f"Run of {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, load average {LOAD_AT_START:.1f} at the start and {load[0]:.1f} at the end, "
        f"{os.cpu_count()} cores. {FEEDS:,} feeds of {EVENTS} events each ({feed_bytes / 1024:.1f} KB; all-day, "
        "timed UTC and weekly series with an exception) from a local `http.server`, on listings of 10 feeds "
        f"each, synced by one Celery worker `{WORKER}` (prefork) from the instance's queues.",
        "",
        "| round | feeds | seconds | feeds/s |",
        "|---|---:|---:|---:|",
        *(f"| {label} | {FEEDS:,} | {elapsed:.1f} | {rate:.1f} |" for label, (elapsed, rate) in rounds.items()),
        "",
        f"Feeds failing after the rounds: {failing}; 304 answers in the refresh round: {not_modified:,}.",
        "",
        f'Changed feed to refused booking ("Sync now", {len(latencies)} trials): p50 '
        f"{statistics.median(ordered):.0f} ms, max {ordered[-1]:.0f} ms. The booking request polls every 10 ms "
        "through `services.booking_request` (rolled back when it succeeds) until it answers the 409 "
        '"This time is blocked by the host\'s calendar". Without "Sync now", beat\'s refresh bounds the gap '
        "by `REFRESH_EVERY` (8 minutes) plus its one-minute tick.",
        "",
        "At these rates, beat's refresh of every feed every 8 minutes keeps one worker of 2 processes busy "
        f"{FEEDS / rounds['refresh (304 Not Modified)'][1] / 480 * 100:.1f}% of the time for {FEEDS:,} unchanged "
        f"feeds and {FEEDS / rounds['first sync (200, parse, write)'][1] / 480 * 100:.1f}% if every feed changed "
        "each time.",
        "",
    ]
    text_block = "\n".join(lines)
    notes = ROOT / "docs" / "performance-notes.md"
    notes.write_text(replace_section(notes.read_text() if notes.exists() else "", text_block))
    # docs/performance.md holds the notes before "## Front end" (scripts/bench.py): put it there too.
    path = ROOT / "docs" / "performance.md"
    text = path.read_text() if path.exists() else "# Performance\n"
    if SECTION in text:
        text = replace_section(text, text_block)
    else:
        at = text.find("\n## Front end")
        text = (
            (text[:at].rstrip() + "\n\n" + text_block + text[at:]) if at >= 0 else text.rstrip() + "\n\n" + text_block
        )
    path.write_text(text.rstrip() + "\n")
    print(f"Wrote the calendar sync section of {notes} and {path}")


def replace_section(text: str, block: str) -> str:
    if SECTION not in text:
        return text.rstrip() + "\n\n" + block.rstrip() + "\n"
    head, _, rest = text.partition(SECTION)
    following = rest.find("\n## ")
    return head.rstrip() + "\n\n" + block.rstrip() + "\n" + (rest[following:] if following >= 0 else "")


if __name__ == "__main__":
    raise SystemExit(main())
