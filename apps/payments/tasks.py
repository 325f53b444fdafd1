"""Periodic money work. Each task is idempotent: running it twice changes nothing more."""

from celery import shared_task

from . import services, subscriptions


@shared_task
def expire_subscriptions() -> int:
    """Premium memberships past their next billing date without a renewal become expired."""
    return subscriptions.subscriptions_expire_due()


@shared_task
def premium_listings_cleanup() -> list[int]:
    """Warn three days before, and ``PREMIUM_GRACE_DAYS`` after a cancellation soft-delete premium listings."""
    return list(subscriptions.premium_listings_due())


@shared_task(name="payments.expire_unpaid")
def expire_unpaid() -> int:
    """Approved bookings whose renter did not confirm the payment by its deadline expire."""
    return services.payments_expire_unpaid()
