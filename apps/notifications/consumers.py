"""The one websocket of a signed-in page (``/ws/notifications/``).

Server to page: ``{"event": "notification" | "pendingCounter" | "message" | "typing" | ..., "data": ...}``
sent to the user's groups (see realtime.py). Page to server: ``{"event": name, "data": {...}}`` for
the events other apps register with ``register_client_event`` (chat: typing, delivered, read),
plus ``ping`` (answered with ``pong``).
"""

import json
import logging
from collections.abc import Awaitable, Callable

from channels.generic.websocket import AsyncWebsocketConsumer

from . import realtime

logger = logging.getLogger(__name__)

ClientEventHandler = Callable[[object, dict], Awaitable[None]]
_client_events: dict[str, ClientEventHandler] = {}
MAX_FRAME = 16 * 1024


def register_client_event(name: str, handler: ClientEventHandler) -> None:
    """Let pages send ``{"event": name, "data": {...}}``; ``handler(user, data)`` is awaited."""
    _client_events[name] = handler


class NotificationConsumer(AsyncWebsocketConsumer):
    groups_joined: list[str]

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.groups_joined = []
        if user is None or not user.is_authenticated or not user.is_active or user.is_deleted:
            await self.close(code=4401)
            return
        self.user = user
        self.groups_joined = realtime.groups_for(user)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME:
            await self._error("Send JSON text frames of at most 16 KB.")
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self._error("Send valid JSON.")
            return
        if not isinstance(message, dict) or not isinstance(message.get("event"), str):
            await self._error('Send {"event": name, "data": {...}}.')
            return
        event, data = message["event"], message.get("data") or {}
        if event == "ping":
            await self.send(text_data=json.dumps({"event": "pong", "data": {}}))
            return
        handler = _client_events.get(event)
        if handler is None or not isinstance(data, dict):
            await self._error(f"Unknown event {event[:40]!r} or data that is not an object.")
            return
        try:
            await handler(self.user, data)
        except Exception as exc:  # a refused client event answers an error frame; the socket stays open
            message = getattr(exc, "message", None) or "That could not be done."
            if not hasattr(exc, "message"):
                logger.exception("Websocket event %s failed", event)
            await self._error(message, event=event)

    async def _error(self, text: str, *, event: str = "") -> None:
        await self.send(text_data=json.dumps({"event": "error", "data": {"message": text, "for": event}}))

    async def push_event(self, message: dict) -> None:
        """A ``realtime.send_to_groups`` message: forward it to the page."""
        await self.send(text_data=json.dumps({"event": message["event"], "data": message["data"]}))
