"""The one websocket of a signed-in page (``/ws/notifications/``).

Server to page: ``{"event": "notification" | "pendingCounter" | "message" | "typing" | ..., "data": ...}``
sent to the user's groups (see realtime.py). Page to server: ``{"event": name, "data": {...}}`` for
the commands other apps register with ``register_live_command`` (chat: typing, delivered, read),
plus ``ping`` (answered with ``pong``). Each command's data is declared by a ``LiveCommand<Name>``
serializer (live_events.py), which validates it before its handler runs.
"""

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable

from channels.generic.websocket import AsyncWebsocketConsumer
from rest_framework.serializers import Serializer

from . import realtime
from .live_events import LiveCommandPing

logger = logging.getLogger(__name__)

LiveCommandHandler = Callable[[object, dict], Awaitable[None]]
COMMAND_PREFIX = "LiveCommand"
MAX_FRAME = 16 * 1024
# The login a socket was opened with is checked again at most this often, as it delivers or receives.
LOGIN_CHECK_SECONDS = 10.0
# Frames a page may send: a burst of 20, then 5 a second; the rest are dropped silently.
FRAME_BURST = 20
FRAMES_PER_SECOND = 5.0


def live_command_name(command: type[Serializer]) -> str:
    """``LiveCommandTyping`` names the command ``typing``."""
    name = command.__name__.removeprefix(COMMAND_PREFIX)
    return name[:1].lower() + name[1:]


_commands: dict[str, tuple[type[Serializer], LiveCommandHandler | None]] = {
    live_command_name(LiveCommandPing): (LiveCommandPing, None),
}


def register_live_command(command: type[Serializer], handler: LiveCommandHandler) -> None:
    """Let pages send ``{"event": name, "data": {...}}`` (``name`` from ``LiveCommand<Name>``): the data
    is validated with ``command``, then ``handler(user, validated data)`` is awaited."""
    _commands[live_command_name(command)] = (command, handler)


def live_commands() -> dict[str, type[Serializer]]:
    """Every command a page may send, by name, with the serializer of its data."""
    return {name: command for name, (command, _) in _commands.items()}


class NotificationConsumer(AsyncWebsocketConsumer):
    """A socket lives as long as the login it was opened with (the ``login`` the accounts middleware
    puts in the scope): it closes (4401) on a ``session.end`` event sent at logout, at the token's
    expiry, and when a re-check finds the login over (signed out, password changed, suspended)."""

    groups_joined: list[str]

    async def connect(self) -> None:
        user = self.scope.get("user")
        login = self.scope.get("login") or {}
        self.groups_joined = []
        self.expiry_task = None
        if (
            user is None
            or not user.is_authenticated
            or not user.is_active
            or user.is_deleted
            or login.get("check") is None
        ):
            await self.close(code=4401)
            return
        self.user = user
        self.login = login
        self.checked_at = time.monotonic()
        self.allowance, self.allowance_at = float(FRAME_BURST), time.monotonic()
        self.groups_joined = [*realtime.groups_for(user), *login.get("groups", [])]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        if login.get("expires_at"):
            self.expiry_task = asyncio.ensure_future(self._close_at(login["expires_at"]))

    async def disconnect(self, code) -> None:
        if self.expiry_task is not None:
            self.expiry_task.cancel()
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    async def _close_at(self, expires_at: float) -> None:
        await asyncio.sleep(max(0.0, expires_at - time.time()))
        await self._end()

    async def _end(self) -> None:
        """The login is over: leave the groups and close; the page signs in again."""
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []
        await self.close(code=4401)

    async def _signed_in(self) -> bool:
        expires_at = self.login.get("expires_at")
        if expires_at and time.time() >= expires_at:
            return False
        if time.monotonic() - self.checked_at < LOGIN_CHECK_SECONDS:
            return True
        signed_in = await self.login["check"]()
        self.checked_at = time.monotonic()
        return signed_in

    def _frame_allowed(self) -> bool:
        now = time.monotonic()
        self.allowance = min(float(FRAME_BURST), self.allowance + (now - self.allowance_at) * FRAMES_PER_SECOND)
        self.allowance_at = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    async def session_end(self, message: dict) -> None:
        """Logout of the login this socket belongs to (``realtime.end_sockets``)."""
        await self._end()

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if not self.groups_joined:
            return
        if not await self._signed_in():
            await self._end()
            return
        if not self._frame_allowed():
            return
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
        command, handler = _commands.get(event, (None, None))
        if command is LiveCommandPing:
            await self.send(text_data=json.dumps({"event": "pong", "data": {}}))
            return
        if command is None or handler is None or not isinstance(data, dict):
            await self._error(f"Unknown event {event[:40]!r} or data that is not an object.")
            return
        valid = command(data=data)
        if not valid.is_valid():
            await self._error(f"Send {next(iter(valid.errors))}.", event=event)
            return
        try:
            await handler(self.user, valid.validated_data)
        except Exception as exc:  # a refused client event answers an error frame; the socket stays open
            message = getattr(exc, "message", None) or "That could not be done."
            if not hasattr(exc, "message"):
                logger.exception("Websocket event %s failed", event)
            await self._error(message, event=event)

    async def _error(self, text: str, *, event: str = "") -> None:
        await self.send(text_data=json.dumps({"event": "error", "data": {"message": text, "for": event}}))

    async def push_event(self, message: dict) -> None:
        """A ``realtime.send_to_groups`` message: forward it to the page while the login holds."""
        if not self.groups_joined:
            return
        if not await self._signed_in():
            await self._end()
            return
        await self.send(text_data=json.dumps({"event": message["event"], "data": message["data"]}))
