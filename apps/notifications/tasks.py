"""Background delivery: browser pushes. Tasks take ids, reload state and are safe to run twice."""

import logging

from celery import shared_task
from django.utils import timezone

from .models import PushSubscription
from .push import PushFailed, SubscriptionGone, send_push

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def push_notify_user(*, user_id: str, payload: dict) -> None:
    """Fan a push out to each of the user's browsers, one retryable task per subscription."""
    for subscription_id in PushSubscription.objects.filter(user_id=user_id).values_list("id", flat=True):
        try:
            push_send.delay(subscription_id=str(subscription_id), payload=payload)
        except Exception:
            logger.warning("Could not deliver a push to subscription %s", subscription_id, exc_info=True)


@shared_task(bind=True, ignore_result=True, max_retries=5, default_retry_delay=30)
def push_send(self, *, subscription_id: str, payload: dict) -> str:
    """Send to one subscription. Gone (404/410): delete it. Other failures: retry with backoff."""
    subscription = PushSubscription.objects.filter(id=subscription_id).first()
    if subscription is None:
        return "missing"
    try:
        send_push(subscription.info(), payload)
    except SubscriptionGone:
        subscription.delete()
        return "removed"
    except PushFailed as exc:
        if self.request.is_eager:  # no broker to retry through (tests, development without a worker)
            logger.warning("Push to %s failed: %s", subscription_id, exc)
            return "failed"
        raise self.retry(exc=exc, countdown=30 * 2**self.request.retries) from exc
    PushSubscription.objects.filter(id=subscription_id).update(last_success_at=timezone.now())
    return "sent"
