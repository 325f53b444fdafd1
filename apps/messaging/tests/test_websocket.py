"""Chat over the live socket, on the real Redis channel layer."""

import json
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from apps.accounts.services import tokens_for
from apps.messaging.models import Message
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def open_socket(token):
    communicator = WebsocketCommunicator(
        application, f"/ws/notifications/?token={token}", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await communicator.connect(timeout=3)
    assert connected
    return communicator


async def next_event(socket, name, timeout=3):
    """The next frame with event ``name`` (message notifications may arrive in between)."""
    while True:
        frame = json.loads(await socket.receive_from(timeout=timeout))
        if frame["event"] == name:
            return frame


async def drain(socket, timeout=0.3) -> list[str]:
    events = []
    while not await socket.receive_nothing(timeout=timeout):
        events.append(json.loads(await socket.receive_from())["event"])
    return events


def test_message_typing_delivery_and_read_reach_the_right_sockets(clients, users):
    conversation_id = clients["renter"].post("/api/chat/start", {"userId": str(users["host"].pk)}, format="json")
    conversation_id = conversation_id.json()["data"]["_id"]
    tokens = {
        name: tokens_for(users[name])["token"] for name in ("renter", "host", "sub_host", "other_host", "other_renter")
    }
    send = database_sync_to_async(
        lambda: clients["renter"].post(f"/api/chat/send/{conversation_id}", {"text": "Hello 👋"}, format="json")
    )

    async def scenario():
        sockets = {name: await open_socket(token) for name, token in tokens.items()}
        response = await send()
        assert response.status_code == 201
        message_id = response.json()["data"]["_id"]
        for name in ("renter", "host", "sub_host"):
            frame = await next_event(sockets[name], "message")
            assert frame["data"]["message"]["text"] == "Hello 👋"
            assert frame["data"]["conversationId"] == conversation_id
        for name in ("other_host", "other_renter"):
            assert "message" not in await drain(sockets[name])

        # Typing from the host side reaches the renter only.
        await sockets["host"].send_to(
            text_data=json.dumps({"event": "typing", "data": {"conversationId": conversation_id}})
        )
        typing = await next_event(sockets["renter"], "typing")
        assert typing["data"]["isTyping"] is True and typing["data"]["userId"] == str(users["host"].pk)
        for name in ("host", "sub_host", "other_host", "other_renter"):
            assert "typing" not in await drain(sockets[name], timeout=0.2)

        # The sub-host's page received the message: the renter's pages learn it was delivered.
        await sockets["sub_host"].send_to(
            text_data=json.dumps({"event": "delivered", "data": {"messageId": message_id}})
        )
        delivered = await next_event(sockets["renter"], "delivered")
        assert delivered["data"]["messageId"] == message_id

        # Reading over the socket tells both sides.
        await sockets["host"].send_to(
            text_data=json.dumps({"event": "read", "data": {"conversationId": conversation_id}})
        )
        read = await next_event(sockets["renter"], "read")
        assert read["data"]["by"] == "host"

        # An outsider cannot type into, acknowledge or read someone else's conversation.
        for event, data in (
            ("typing", {"conversationId": conversation_id}),
            ("delivered", {"messageId": message_id}),
            ("read", {"conversationId": conversation_id}),
            ("typing", {"conversationId": "'; DROP TABLE x; --"}),
            ("typing", {}),
        ):
            await sockets["other_host"].send_to(text_data=json.dumps({"event": event, "data": data}))
            error = await next_event(sockets["other_host"], "error")
            assert error["data"]["message"]
        assert await drain(sockets["renter"]) == []
        for socket in sockets.values():
            await socket.disconnect()

    async_to_sync(scenario)()
    message = Message.objects.get()
    assert message.delivered_at and message.read_at


def test_a_malformed_command_is_refused_before_its_handler(users, monkeypatch):
    """The socket validates a command's data with its LiveCommand serializer: what does not match it is
    answered with an error naming the field, and the chat's handler never runs."""
    from apps.messaging import services

    ran = []
    monkeypatch.setattr(services, "conversation_mark_read", lambda **kwargs: ran.append(kwargs))
    monkeypatch.setattr(services, "message_mark_delivered", lambda **kwargs: ran.append(kwargs))
    monkeypatch.setattr(services, "typing_signal", lambda **kwargs: ran.append(kwargs))
    token = tokens_for(users["renter"])["token"]

    async def scenario():
        socket = await open_socket(token)
        for event, data, field in (
            ("typing", {"isTyping": True}, "conversationId"),
            ("typing", {"conversationId": str(uuid.uuid4()), "isTyping": "maybe"}, "isTyping"),
            ("typing", {"conversationId": "c1"}, "conversationId"),
            ("delivered", {"messageId": "m" * 65}, "messageId"),
            ("read", {}, "conversationId"),
        ):
            await socket.send_to(text_data=json.dumps({"event": event, "data": data}))
            error = await next_event(socket, "error")
            assert error["data"] == {"message": f"Send {field}.", "for": event}
        await socket.disconnect()

    async_to_sync(scenario)()
    assert ran == []
