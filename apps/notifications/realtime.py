"""Sending events to the open pages of users through the Channels layer (Redis).

Every signed-in socket joins ``user.<id>``; an admin's or moderator's also joins ``role.<role>``;
a host's and its subHosts' also join ``team.<host id>`` (they share the host's counters). Events are plain
dicts with a ``type`` the consumer maps to a handler (``notification.new`` -> ``notification_new``)
and an ``event`` name plus ``data`` that the page receives as JSON.
"""

import logging

from channels.layers import get_channel_layer

from apps.core.eventloop import run_async

logger = logging.getLogger(__name__)


def user_group(user_id) -> str:
    return f"user.{user_id}"


def role_group(role: str) -> str:
    return f"role.{role}"


def team_group(host_id) -> str:
    return f"team.{host_id}"


def groups_for(user) -> list[str]:
    """The groups a signed-in user's socket joins."""
    groups = [user_group(user.pk)]
    if user.role in ("admin", "moderator"):
        groups.append(role_group(user.role))
    if user.acting_host_id is not None:
        groups.append(team_group(user.acting_host_id))
    return groups


def send_to_groups(groups, event: str, data, *, strict: bool = False) -> None:
    """Deliver ``{"event": event, "data": data}`` to every socket in ``groups``. Never raises unless
    ``strict`` (the outbox's effects are strict, so a channel layer that is down is retried)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "push.event", "event": event, "data": data}
    try:
        # One event loop (and one Redis connection) for all the groups, not one per group.
        run_async(_send_all, layer, list(dict.fromkeys(groups)), message)
    except Exception:  # the page simply misses a live update; the data is in the database
        if strict:
            raise
        logger.warning("Could not send %s to open pages", event, exc_info=True)


async def _send_all(layer, groups: list[str], message: dict) -> None:
    """Every group_send of one event in one call from synchronous code (one loop, one connection)."""
    for group in groups:
        await layer.group_send(group, message)


def end_sockets(groups) -> None:
    """Close the sockets in ``groups`` (a login's or a browser session's, at logout)."""
    layer = get_channel_layer()
    if layer is None or not groups:
        return
    try:
        run_async(_send_all, layer, list(dict.fromkeys(groups)), {"type": "session.end"})
    except Exception:  # the sockets still close at their next delivery, when the login is checked again
        logger.warning("Could not close the sockets of a login", exc_info=True)


def send_to_users(user_ids, event: str, data, *, strict: bool = False) -> None:
    send_to_groups([user_group(user_id) for user_id in user_ids], event, data, strict=strict)
