"""Chat events pages send over the one socket (/ws/notifications/): typing, delivered, read."""

from channels.db import database_sync_to_async

from apps.core.exceptions import InvalidInput
from apps.notifications.consumers import register_client_event

from . import selectors, services


def _id(data: dict, name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or len(value) > 64:
        raise InvalidInput(f"Send {name}.")
    return value


@database_sync_to_async
def _typing(user, data: dict) -> None:
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
