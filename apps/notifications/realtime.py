"""Sending events to the open pages of users through the Channels layer (Redis).

Every signed-in socket joins ``user.<id>``; staff sockets also join ``staff``. Events are plain
dicts with a ``type`` the consumer maps to a handler (``notification.new`` -> ``notification_new``)
and an ``event`` name plus ``data`` that the page receives as JSON.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

STAFF_GROUP = "staff"


def user_group(user_id) -> str:
    return f"user.{user_id}"


def send_to_groups(groups, event: str, data) -> None:
    """Deliver ``{"event": event, "data": data}`` to every socket in ``groups``; never raises."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "push.event", "event": event, "data": data}
    try:
        for group in dict.fromkeys(groups):
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # the page simply misses a live update; the data is in the database
        logger.warning("Could not send %s to open pages", event, exc_info=True)


def send_to_users(user_ids, event: str, data) -> None:
    send_to_groups([user_group(user_id) for user_id in user_ids], event, data)
