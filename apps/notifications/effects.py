"""How notifications reach people, as outbox effects (queued by ``services.notify`` and
``services.counters_changed`` in the transaction of the change; see ``apps/core/effects.py``)."""

from django.contrib.auth import get_user_model
from django.utils import timezone

from apps.core.effects import effect_enqueue, effect_handler
from apps.core.roles import Role

from . import realtime
from .counters import pending_counters
from .models import PushSubscription
from .push import SubscriptionGone, send_push


@effect_handler("notifications.live", reaches_pages=True)
def live_event(*, user_ids: list[str], event: str, data, key: str) -> None:
    """The event to the user's open pages (a page that is not open reads it from the list later)."""
    realtime.send_to_users(user_ids, event, data, strict=True)


@effect_handler("notifications.groups", reaches_pages=True)
def live_event_to_groups(*, groups: list[str], event: str, data, key: str) -> None:
    realtime.send_to_groups(groups, event, data, strict=True)


@effect_handler("notifications.push")
def push_to_user(*, user_id: str, payload: dict, key: str) -> None:
    """Fan a push out to each of the user's browsers: one effect per browser, retried on its own."""
    for subscription_id in PushSubscription.objects.filter(user_id=user_id).values_list("id", flat=True):
        effect_enqueue(
            "notifications.push_one",
            {"subscription_id": str(subscription_id), "payload": payload},
            key=f"{key}:{subscription_id}",
        )


@effect_handler("notifications.push_one")
def push_to_browser(*, subscription_id: str, payload: dict, key: str) -> str:
    """Send to one browser. Gone (404/410): forget the subscription. Other failures raise, so the
    outbox retries with backoff."""
    subscription = PushSubscription.objects.filter(id=subscription_id).first()
    if subscription is None:
        return "missing"
    try:
        send_push(subscription.info(), payload)
    except SubscriptionGone:
        subscription.delete()
        return "removed"
    PushSubscription.objects.filter(id=subscription_id).update(last_success_at=timezone.now())
    return "sent"


@effect_handler("notifications.counters", reaches_pages=True)
def counters_to_open_pages(*, user_ids: list[str], staff: bool, key: str) -> None:
    User = get_user_model()
    if staff:
        # One admin and one moderator stand for their role: staff counts depend on the role only.
        for role in (Role.ADMIN, Role.MODERATOR):
            sample = User.objects.filter(role=role, is_deleted=False).first()
            if sample is not None:
                realtime.send_to_groups(
                    [realtime.role_group(role)], "pendingCounter", pending_counters(sample), strict=True
                )
    for user in User.objects.filter(pk__in=user_ids, is_deleted=False):
        if user.role == Role.RENTER:
            continue
        group = realtime.team_group(user.acting_host_id) if user.is_host_side else realtime.user_group(user.pk)
        realtime.send_to_groups([group], "pendingCounter", pending_counters(user), strict=True)
