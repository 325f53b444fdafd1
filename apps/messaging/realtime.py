"""Chat events pages send over the one socket (/ws/notifications/): typing, delivered, read."""

from channels.db import database_sync_to_async
from django.core.cache import cache

from apps.core.exceptions import InvalidInput
from apps.notifications.consumers import register_client_event

from . import selectors, services


def _id(data: dict, name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or len(value) > 64:
        raise InvalidInput(f"Send {name}.")
    return value


TYPING_EVERY_SECONDS = 2


@database_sync_to_async
def _typing(user, data: dict) -> None:
    # One typing signal per user and conversation every 2 seconds; the others are dropped silently,
    # before any query (a page sends one per keystroke).
    key = f"messaging:typing:{user.pk}:{_id(data, 'conversationId')}"
    if not cache.add(key, 1, timeout=TYPING_EVERY_SECONDS):
        return
    conversation = selectors.conversation_get_for(user=user, id=_id(data, "conversationId"))
    services.typing_signal(user=user, conversation=conversation, is_typing=data.get("isTyping", True) is not False)


@database_sync_to_async
def _delivered(user, data: dict) -> None:
    message = selectors.message_get_for(user=user, id=_id(data, "messageId"))
    services.message_mark_delivered(user=user, message=message)


@database_sync_to_async
def _read(user, data: dict) -> None:
    conversation = selectors.conversation_get_for(user=user, id=_id(data, "conversationId"))
    services.conversation_mark_read(user=user, conversation=conversation)


async def typing(user, data: dict) -> None:
    await _typing(user, data)


async def delivered(user, data: dict) -> None:
    await _delivered(user, data)


async def read(user, data: dict) -> None:
    await _read(user, data)


def register() -> None:
    register_client_event("typing", typing)
    register_client_event("delivered", delivered)
    register_client_event("read", read)
