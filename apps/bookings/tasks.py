"""Time-driven booking changes, run by Celery beat. Each is idempotent: it only moves bookings
that are still due, one locked row at a time, so running twice (or concurrently) changes nothing more."""

from celery import shared_task

from . import services
from .reviews import services as reviews


@shared_task(name="bookings.expire_requests")
def expire_requests() -> int:
    return services.bookings_expire_due()


@shared_task(name="bookings.start_bookings")
def start_bookings() -> int:
    return services.bookings_start_due()


@shared_task(name="bookings.complete_bookings")
def complete_bookings() -> int:
    return services.bookings_complete_due()


@shared_task(name="bookings.reveal_reviews")
def reveal_reviews() -> int:
    return reviews.reviews_reveal_due()


# A fetch has its own deadline (10 s, calendars/fetch.py); the task's limits hold whatever else
# might run long (a huge feed's parsing), so a worker is never held for minutes.
SYNC_SOFT_LIMIT_SECONDS, SYNC_HARD_LIMIT_SECONDS = 60, 90


@shared_task(
    name="bookings.sync_calendar",
    ignore_result=True,
    soft_time_limit=SYNC_SOFT_LIMIT_SECONDS,
    time_limit=SYNC_HARD_LIMIT_SECONDS,
)
def sync_calendar(calendar_id: str) -> None:
    """Fetch one imported calendar and apply it (idempotent: the blocks become the feed's); on its
    own queue (config/instance.calendars_queue)."""
    from .calendars import sync

    sync.calendar_sync(calendar_id=calendar_id)


@shared_task(name="bookings.sync_due_calendars", ignore_result=True)
def sync_due_calendars() -> int:
    """Beat, every minute: queue a fetch of every calendar that is due."""
    from .calendars import sync

    due = sync.calendars_claim_due()
    for calendar_id in due:
        sync_calendar.delay(calendar_id)
    return len(due)
