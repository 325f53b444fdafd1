"""Services of a listing's imported calendars: add, remove, sync now, and the sync itself.

The fetch happens outside any transaction; the write is one transaction that holds the listing's
time lock alone (``services.listing_time_lock``), replaces the calendar's blocks by what the feed
holds now, and tells the host about bookings here that a new block overlaps. A feed that cannot be
fetched or read changes no block: the calendar shows "failing" with the reason and is tried again
later, less and less often.
"""

import datetime as dt
import time
from urllib.parse import urlsplit

from django.core.cache import cache
from django.db import connection, transaction
from django.db.backends.postgresql.psycopg_any import DateTimeTZRange
from django.utils import timezone

from apps.core.exceptions import InvalidInput, NotFound, RateLimited
from apps.core.filters import is_uuid
from apps.listings import search_cache
from apps.listings.models import Listing
from apps.listings.policies import edit_refusal
from apps.notifications.services import notify

from ..models import CalendarStatus, ExternalBlock, ExternalCalendar
from ..services.availability import listing_time_lock
from ..times import format_clock, format_date, zone_of
from .fetch import FetchError, fetch, normalize_url, resolve
from .parse import FeedError, parse_feed

# Beat looks every minute for due calendars; each is fetched again 8 minutes after its last try,
# so every calendar is fresh to within 10 minutes even with a minute of queueing.
REFRESH_EVERY = dt.timedelta(minutes=8)
MAX_BACKOFF = dt.timedelta(hours=1)
MAX_CALENDARS_PER_LISTING = 10
NAME_MAX = 80
CONFLICTS_NOTIFIED = 5


def masked_url(url: str) -> str:
    """The address shown back: its host only (the path of a private feed is its password)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    rest = parts.path.strip("/") or parts.query
    return f"{parts.scheme}://{host}/" + ("…" if rest else "")


def backoff(failures: int) -> dt.timedelta:
    """After 1, 2, 3... failures in a row: 8, 16, 32 minutes, then every hour."""
    return min(REFRESH_EVERY * (2 ** max(failures - 1, 0)), MAX_BACKOFF)


def calendar_listing_for(user, listing_id) -> Listing:
    listing = Listing.objects.filter(pk=listing_id).select_related("host").first() if is_uuid(listing_id) else None
    if listing is None:
        raise NotFound("Listing not found.")
    refusal = edit_refusal(user, listing)
    if refusal:
        raise refusal
    return listing


def calendar_list_for(*, user, listing_id) -> list[ExternalCalendar]:
    listing = calendar_listing_for(user, listing_id)
    return list(ExternalCalendar.objects.filter(listing=listing).order_by("created_at", "id"))


def calendar_get_for(*, user, listing_id, calendar_id) -> ExternalCalendar:
    listing = calendar_listing_for(user, listing_id)
    calendar = (
        ExternalCalendar.objects.filter(listing=listing, pk=calendar_id).first() if is_uuid(calendar_id) else None
    )
    if calendar is None:
        raise NotFound("Calendar not found.")
    return calendar


def _enqueue(calendar_id) -> None:
    from .. import tasks

    transaction.on_commit(lambda: tasks.sync_calendar.delay(str(calendar_id)))


@transaction.atomic
def calendar_add(*, user, listing_id, name: str, url: str) -> ExternalCalendar:
    """Import a feed into the listing; its first sync is queued at once."""
    listing = calendar_listing_for(user, listing_id)
    name = (name or "").strip()
    if not name:
        raise InvalidInput("Give the calendar a name.", errors={"name": ["Give the calendar a name."]})
    if len(name) > NAME_MAX:
        message = f"The name can be at most {NAME_MAX} characters."
        raise InvalidInput(message, errors={"name": [message]})
    try:
        url = normalize_url(url)
        if len(url) > 2000:
            raise FetchError("The calendar's address is too long.")
        parts = urlsplit(url)
        resolve(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    except FetchError as exc:
        raise InvalidInput(str(exc), errors={"url": [str(exc)]}) from None
    calendars = ExternalCalendar.objects.select_for_update().filter(listing=listing)
    existing = list(calendars.values_list("url", flat=True))
    if url in existing:
        message = "This calendar is already imported into the listing."
        raise InvalidInput(message, errors={"url": [message]})
    if len(existing) >= MAX_CALENDARS_PER_LISTING:
        message = f"A listing can import at most {MAX_CALENDARS_PER_LISTING} calendars."
        raise InvalidInput(message, errors={"url": [message]})
    calendar = ExternalCalendar.objects.create(listing=listing, name=name, url=url, next_attempt_at=timezone.now())
    _enqueue(calendar.pk)
    return calendar


@transaction.atomic
def calendar_remove(*, user, listing_id, calendar_id) -> None:
    """Remove the calendar and free the time its events blocked."""
    calendar = calendar_get_for(user=user, listing_id=listing_id, calendar_id=calendar_id)
    listing_time_lock(calendar.listing_id, shared=False)
    had_blocks = calendar.blocks.exists()
    calendar.delete()
    if had_blocks:
        search_cache.dates_changed()
        transaction.on_commit(search_cache.dates_changed)


# "Sync now" fetches a third party's address each time: a few a minute per listing and per host
# are what a person asks for; more would make the site a tool to hammer someone else's server.
SYNC_NOW_PER_LISTING_MINUTE = 3
SYNC_NOW_PER_HOST_MINUTE = 10


def _sync_now_allowed(listing: Listing) -> None:
    now = time.time()
    wait = max(1, 60 - int(now % 60))
    minute = int(now // 60)
    for key, limit in (
        (f"calendar-sync-now:listing:{listing.pk}:{minute}", SYNC_NOW_PER_LISTING_MINUTE),
        (f"calendar-sync-now:host:{listing.host_id}:{minute}", SYNC_NOW_PER_HOST_MINUTE),
    ):
        cache.add(key, 0, timeout=120)
        if cache.incr(key) > limit:
            raise RateLimited(
                f"Calendars were synced many times in the last minute. Please wait {wait} seconds.", retry_after=wait
            )


@transaction.atomic
def calendar_request_sync(*, user, listing_id, calendar_id) -> ExternalCalendar:
    """Sync now: queued at once (a worker picks it up within seconds), a few times a minute at most."""
    calendar = calendar_get_for(user=user, listing_id=listing_id, calendar_id=calendar_id)
    _sync_now_allowed(calendar.listing)
    ExternalCalendar.objects.filter(pk=calendar.pk).update(next_attempt_at=timezone.now())
    _enqueue(calendar.pk)
    return calendar


def calendars_claim_due(*, now: dt.datetime | None = None, limit: int = 5000) -> list[str]:
    """The calendars due for a fetch (of listings not deleted), each pushed back by ``REFRESH_EVERY`` so the next beat does not
    queue it again while it waits for a worker (its sync sets the real next time)."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            ExternalCalendar.objects.select_for_update(skip_locked=True)
            .filter(next_attempt_at__lte=now, listing__is_deleted=False)
            .order_by("next_attempt_at")
            .values_list("pk", flat=True)[:limit]
        )
        ExternalCalendar.objects.filter(pk__in=due).update(next_attempt_at=now + REFRESH_EVERY)
    return [str(pk) for pk in due]


def _fail(calendar: ExternalCalendar, message: str, now: dt.datetime) -> None:
    failures = calendar.failures + 1
    ExternalCalendar.objects.filter(pk=calendar.pk).update(
        status=CalendarStatus.FAILING,
        last_error=message[:500],
        failures=failures,
        next_attempt_at=now + backoff(failures),
    )


def calendar_sync(*, calendar_id, now: dt.datetime | None = None) -> ExternalCalendar | None:
    """Fetch the feed and apply it. Safe to run twice or concurrently (the write is locked and
    replaces the blocks by the feed's). None when the calendar was removed meanwhile."""
    now = now or timezone.now()
    calendar = ExternalCalendar.objects.select_related("listing").filter(pk=calendar_id).first()
    if calendar is None:
        return None
    tz = zone_of(calendar.listing)
    try:
        result = fetch(calendar.url, etag=calendar.etag, last_modified=calendar.last_modified)
        blocks = None if result.body is None else parse_feed(result.body, tz=tz, now=now)
    except (FetchError, FeedError) as exc:
        _fail(calendar, str(exc), now)
        return ExternalCalendar.objects.filter(pk=calendar_id).first()
    ok = {
        "status": CalendarStatus.OK,
        "last_error": "",
        "failures": 0,
        "last_synced_at": now,
        "next_attempt_at": now + REFRESH_EVERY,
    }
    if blocks is None:  # 304 Not Modified: the blocks we hold are the feed's
        ExternalCalendar.objects.filter(pk=calendar.pk).update(**ok)
        return ExternalCalendar.objects.filter(pk=calendar_id).first()
    with transaction.atomic():
        calendar = ExternalCalendar.objects.select_for_update().select_related("listing").filter(pk=calendar_id).first()
        if calendar is None:
            return None
        listing_time_lock(calendar.listing_id, shared=False)
        created = _replace_blocks(calendar, blocks)
        if created:
            _announce_conflicts(calendar, created)
        ExternalCalendar.objects.filter(pk=calendar.pk).update(
            **ok, etag=result.etag, last_modified=result.last_modified, event_count=len(blocks)
        )
    return ExternalCalendar.objects.filter(pk=calendar_id).first()


def _replace_blocks(calendar: ExternalCalendar, blocks) -> list[int]:
    """Make the calendar's blocks the feed's; the ids of the blocks that are new (or moved)."""
    current = {
        uid: (pk, period.lower, period.upper, summary)
        for pk, uid, period, summary in calendar.blocks.values_list("pk", "uid", "period", "summary")
    }
    wanted = {block.uid: block for block in blocks}
    stale = [
        pk
        for uid, (pk, lower, upper, _) in current.items()
        if uid not in wanted or (wanted[uid].start, wanted[uid].end) != (lower, upper)
    ]
    fresh = [
        block
        for uid, block in wanted.items()
        if uid not in current or (block.start, block.end) != (current[uid][1], current[uid][2])
    ]
    renamed = [
        (current[uid][0], block.summary)
        for uid, block in wanted.items()
        if uid in current and current[uid][0] not in stale and block.summary != current[uid][3]
    ]
    if stale:
        ExternalBlock.objects.filter(pk__in=stale).delete()
    made = ExternalBlock.objects.bulk_create(
        [
            ExternalBlock(
                calendar=calendar,
                listing_id=calendar.listing_id,
                uid=block.uid,
                period=DateTimeTZRange(block.start, block.end, "[)"),
                summary=block.summary,
            )
            for block in fresh
        ],
        batch_size=1000,
    )
    for pk, summary in renamed:
        ExternalBlock.objects.filter(pk=pk).update(summary=summary)
    if stale or made:
        # The search with dates answers from a cache keyed by a dates version: retire it now and
        # once the import commits (a search between the two would store the old answer again).
        search_cache.dates_changed()
        transaction.on_commit(search_cache.dates_changed)
    return [block.pk for block in made]


CONFLICTS_SQL = """
SELECT DISTINCT ON (o.booking_id) o.booking_id, lower(b.period), upper(b.period)
FROM bookings_occupancy o
JOIN bookings_externalblock b ON b.listing_id = o.listing_id AND b.period && o.hold
WHERE o.listing_id = %s AND o.active AND b.id = ANY(%s)
ORDER BY o.booking_id, lower(b.period)
"""


def _announce_conflicts(calendar: ExternalCalendar, block_ids: list[int]) -> None:
    """A new block over time a booking here already holds: the host hears it (bell and mail), with
    a link to the booking, so they can settle it; the booking is not changed."""
    from ..models import Booking

    with connection.cursor() as cursor:
        cursor.execute(CONFLICTS_SQL, [calendar.listing_id, block_ids])
        rows = cursor.fetchall()
    if not rows:
        return
    listing = calendar.listing
    tz = zone_of(listing)
    bookings = Booking.objects.in_bulk([row[0] for row in rows])
    for booking_id, start, end in rows[:CONFLICTS_NOTIFIED]:
        when = f"{format_date(start, tz)} {format_clock(start, tz)} to {format_date(end, tz)} {format_clock(end, tz)}"
        notify(
            user=listing.host,
            kind="calendarConflict",
            content=(
                f'"{calendar.name}" blocks {listing.title} on {when} ({tz.key}), over a booking made here. '
                "Keep the booking or cancel it; the other calendar's event is not changed."
            ),
            link=f"/booking-detail/{bookings[booking_id].pk}",
        )
    if len(rows) > CONFLICTS_NOTIFIED:
        notify(
            user=listing.host,
            kind="calendarConflict",
            content=f'"{calendar.name}" also overlaps {len(rows) - CONFLICTS_NOTIFIED} more bookings at {listing.title}.',
            link="/calender",
        )
