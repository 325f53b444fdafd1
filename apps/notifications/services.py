"""Notifications: creating them (``notify``) and the user's own read / seen / delete actions."""

import logging
import uuid

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from apps.core.addresses import is_public
from apps.core.effects import effect_enqueue
from apps.core.exceptions import InvalidInput
from apps.core.mail import queue_templated_mail

from .kinds import KINDS, channels_for
from .models import Notification

logger = logging.getLogger(__name__)

CONTENT_MAX = 1000
LINK_MAX = 500


def notification_payload(notification: Notification) -> dict:
    """The API shape of one notification (the list item, and the websocket event's data)."""
    return {
        "_id": str(notification.id),
        "content": notification.content,
        "type": notification.type,
        "kind": notification.kind,
        "link": notification.link,
        "read": notification.read,
        "seen": notification.seen,
        "createdAt": notification.created_at.isoformat().replace("+00:00", "Z"),
    }


def _absolute(link: str) -> str:
    return link if link.startswith(("http://", "https://")) else settings.SITE_URL + "/" + link.lstrip("/")


def notify(*, user, kind: str, content: str, link: str = "") -> Notification | None:
    """Tell ``user`` that something happened, on the channels their settings allow for ``kind``.

    Creates the in-app row (returned; None when the user turned in-app off for this kind or the
    account is gone) and queues, in the caller's transaction, the live event to open pages, the
    e-mail and the browser push (effects the worker carries out and retries until done; see
    ``apps/core/effects.py``). ``link`` is a site path such as ``/booking-detail/<id>``. An
    unknown ``kind`` is a programming error and raises ValueError.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}; add it to apps/notifications/kinds.py")
    if user is None or getattr(user, "is_deleted", False):
        return None
    content = str(content)[:CONTENT_MAX]
    link = str(link or "")[:LINK_MAX]
    channels = channels_for(user.notification_settings, kind)
    key = uuid.uuid4().hex

    notification = None
    if channels["inApp"]:
        notification = Notification.objects.create(
            user_id=user.pk, kind=kind, type=KINDS[kind].type, content=content, link=link
        )
        key = str(notification.pk)
        effect_enqueue(
            "notifications.live",
            {"user_ids": [str(user.pk)], "event": "notification", "data": notification_payload(notification)},
            key=f"notification-live:{key}",
        )

    if channels["email"] and user.email:
        queue_templated_mail(
            to=user.email,
            template="notification",
            context={
                "name": user.first_name,
                "content": content,
                "link": _absolute(link) if link else settings.SITE_URL,
                "label": KINDS[kind].label,
                "site_url": settings.SITE_URL,
            },
            key=f"notification-mail:{key}",
        )

    if channels["push"]:
        effect_enqueue(
            "notifications.push",
            {
                "user_id": str(user.pk),
                "payload": {"title": KINDS[kind].label, "body": content, "url": link or "/notifications", "kind": kind},
            },
            key=f"notification-push:{key}",
        )
    return notification


# --- The user's own notifications ---------------------------------------------------------------


def _own(user) -> QuerySet[Notification]:
    return Notification.objects.filter(user=user, is_deleted=False)


@transaction.atomic
def notification_mark_read(*, notification: Notification) -> Notification:
    if not notification.read or not notification.seen:
        notification.read = notification.seen = True
        notification.read_at = notification.read_at or timezone.now()
        notification.save(update_fields=["read", "seen", "read_at"])
    return notification


@transaction.atomic
def notification_mark_all_read(*, user) -> int:
    return _own(user).filter(read=False).update(read=True, seen=True, read_at=timezone.now())


@transaction.atomic
def notification_update(*, notification: Notification, read: bool | None = None, seen: bool | None = None):
    """Set read and/or seen. Unreading also unsees nothing; reading implies seen."""
    if read is None and seen is None:
        raise InvalidInput("Send read or seen.", errors={"read": ["Send read or seen."]})
    fields = []
    if seen is not None:
        notification.seen = seen
        fields.append("seen")
    if read is not None:
        notification.read = read
        notification.read_at = (notification.read_at or timezone.now()) if read else None
        fields += ["read", "read_at"]
        if read and not notification.seen:
            notification.seen = True
            fields.append("seen")
    notification.save(update_fields=list(dict.fromkeys(fields)))
    return notification


@transaction.atomic
def notification_delete(*, notification: Notification) -> None:
    notification.is_deleted = True
    notification.save(update_fields=["is_deleted"])


def live_event(groups, event: str, data) -> None:
    """Queue ``{"event": event, "data": data}`` for the open pages in ``groups`` (sent once the
    current transaction commits, retried while the channel layer is down)."""
    effect_enqueue(
        "notifications.groups",
        {"groups": list(dict.fromkeys(groups)), "event": event, "data": data},
        key=f"live:{uuid.uuid4().hex}",
    )


# --- Live counter updates ------------------------------------------------------------------------


def counters_changed(*, users=(), staff: bool = False) -> None:
    """Queue fresh pending counters for open pages (sent once the current transaction commits).

    ``users``: the people whose counts moved (a host's count also reaches its subHosts);
    ``staff``: True when a count that admins and moderators see moved (pending listings,
    verification or payout requests, disputes).
    """
    user_ids = [str(getattr(user, "pk", user)) for user in users]
    effect_enqueue("notifications.counters", {"user_ids": user_ids, "staff": staff}, key=f"counters:{uuid.uuid4().hex}")


# --- Browser push subscriptions --------------------------------------------------------------------


def _b64url_bytes(value: str) -> bytes | None:
    import base64
    import binascii

    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def _endpoint_allowed(endpoint: str) -> bool:
    """Push services are public https URLs; plain http to this machine only in development and tests."""
    import ipaddress
    from urllib.parse import urlsplit

    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    local = host == "localhost" or (address is not None and address.is_loopback)
    if settings.DEBUG or settings.TESTING:
        return parts.scheme == "https" or (parts.scheme == "http" and local)
    if parts.scheme != "https" or local:
        return False
    return address is None or is_public(address)


@transaction.atomic
def push_subscribe(*, user, endpoint: str, p256dh: str, auth: str, user_agent: str = ""):
    """Save this browser's subscription for ``user`` (a browser signed in to another account moves over)."""
    from .models import PushSubscription

    errors = {}
    if not _endpoint_allowed(endpoint):
        errors["endpoint"] = ["The push endpoint must be an https URL of a push service."]
    key = _b64url_bytes(p256dh)
    if key is None or len(key) != 65 or key[0] != 4:
        errors["keys.p256dh"] = ["keys.p256dh must be the browser's P-256 public key (base64url)."]
    secret = _b64url_bytes(auth)
    if secret is None or len(secret) != 16:
        errors["keys.auth"] = ["keys.auth must be the 16-byte secret of the subscription (base64url)."]
    if errors:
        raise InvalidInput(next(iter(errors.values()))[0], errors=errors)
    subscription, created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "user_agent": user_agent[:300]},
    )
    return subscription, created


@transaction.atomic
def push_unsubscribe(*, user, endpoint: str) -> int:
    from .models import PushSubscription

    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted
