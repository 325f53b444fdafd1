"""Chat commands pages send over the one socket (/ws/notifications/): typing, delivered, read. The
socket validates each command's data with its ``LiveCommand<Name>`` serializer (live_events.py)
before the handler here runs."""

from channels.db import database_sync_to_async
from django.core.cache import cache

from apps.notifications.consumers import register_live_command

from . import selectors, services
from .live_events import LiveCommandDelivered, LiveCommandRead, LiveCommandTyping

TYPING_EVERY_SECONDS = 2


@database_sync_to_async
def _typing(user, data: dict) -> None:
    # One typing signal per user and conversation every 2 seconds; the others are dropped silently,
    # before any query (a page sends one per keystroke). The key is the id as the command's
    # serializer parsed it: every spelling of one id (case, dashes, braces, a urn:uuid: prefix) is
    # the same conversation and shares one limit.
    conversation_id = data["conversationId"]
    key = f"messaging:typing:{user.pk}:{conversation_id}"
    if not cache.add(key, 1, timeout=TYPING_EVERY_SECONDS):
        return
    conversation = selectors.conversation_get_for(user=user, id=conversation_id)
    services.typing_signal(user=user, conversation=conversation, is_typing=data["isTyping"])


@database_sync_to_async
def _delivered(user, data: dict) -> None:
    message = selectors.message_get_for(user=user, id=data["messageId"])
    services.message_mark_delivered(user=user, message=message)


@database_sync_to_async
def _read(user, data: dict) -> None:
    conversation = selectors.conversation_get_for(user=user, id=data["conversationId"])
    services.conversation_mark_read(user=user, conversation=conversation)


async def typing(user, data: dict) -> None:
    await _typing(user, data)


async def delivered(user, data: dict) -> None:
    await _delivered(user, data)


async def read(user, data: dict) -> None:
    await _read(user, data)


def register() -> None:
    register_live_command(LiveCommandTyping, typing)
    register_live_command(LiveCommandDelivered, delivered)
    register_live_command(LiveCommandRead, read)
