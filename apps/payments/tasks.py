"""Periodic money work. Each task is idempotent: running it twice changes nothing more."""

from celery import shared_task

from . import subscriptions


@shared_task
def expire_subscriptions() -> int:
    """Premium memberships past their next billing date without a renewal become expired."""
    return subscriptions.subscriptions_expire_due()


@shared_task
def premium_listings_cleanup() -> list[int]:
    """Warn three days before, and ``PREMIUM_GRACE_DAYS`` after a cancellation soft-delete premium listings."""
    return list(subscriptions.premium_listings_due())
