"""Time-driven booking changes, run by Celery beat. Each is idempotent: it only moves bookings
that are still due, one locked row at a time, so running twice (or concurrently) changes nothing more."""

from celery import shared_task

from . import reviews, services


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
