"""Chat sends over the API and typing frames are rate limited (issue 24, 13)."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.accounts.services import tokens_for
from apps.messaging import realtime as chat_realtime
from apps.messaging.live_events import LiveCommandTyping
from apps.messaging.models import Message
from config.asgi import application


def _start(clients, users) -> str:
    response = clients["renter"].post("/api/chat/start", {"userId": str(users["host"].pk)}, format="json")
    return response.json()["data"]["_id"]


@pytest.mark.django_db
def test_chat_sends_are_limited_per_user(clients, users):
    conversation = _start(clients, users)
    statuses = [
        clients["renter"].post(f"/api/chat/send/{conversation}", {"text": f"m{i}"}, format="json").status_code
        for i in range(35)
    ]
    assert statuses[:30] == [201] * 30
    assert set(statuses[30:]) == {429}
    refused = clients["renter"].post(f"/api/chat/send/{conversation}", {"text": "again"}, format="json")
    assert refused.json()["message"] and "Retry-After" in refused
    assert Message.objects.filter(conversation_id=conversation).count() == 30
    # Another user's limit is their own.
    assert clients["host"].post(f"/api/chat/send/{conversation}", {"text": "hi"}, format="json").status_code == 201


@pytest.mark.django_db
def test_typing_signals_are_dropped_within_two_seconds_without_a_query(clients, users):
    conversation = _start(clients, users)
    sent = []
    original = chat_realtime.services.typing_signal
    chat_realtime.services.typing_signal = lambda **kwargs: sent.append(kwargs)
    # The handler receives the data as the socket validated it.
    command = LiveCommandTyping(data={"conversationId": conversation})
    assert command.is_valid()
    typing_command = command.validated_data
    try:
        with CaptureQueriesContext(connection) as queries:
            for _ in range(50):
                chat_realtime._typing.func(users["host"], typing_command)
    finally:
        chat_realtime.services.typing_signal = original
    assert len(sent) == 1
    assert len(queries) <= 3  # the first signal's lookups only


@pytest.mark.django_db
def test_every_spelling_of_a_conversation_id_shares_one_typing_limit(clients, users):
    conversation = _start(clients, users)
    plain = conversation.replace("-", "")
    spellings = [
        conversation,
        conversation.upper(),
        plain,
        plain.upper(),
        f"{{{conversation}}}",
        f"{{{plain.upper()}}}",
        f"urn:uuid:{conversation}",
        f"urn:uuid:{conversation.upper()}",
    ]
    sent = []
    original = chat_realtime.services.typing_signal
    chat_realtime.services.typing_signal = lambda **kwargs: sent.append(kwargs)
    try:
        for spelling in spellings:
            command = LiveCommandTyping(data={"conversationId": spelling})
            assert command.is_valid()
            chat_realtime._typing.func(users["host"], command.validated_data)
    finally:
        chat_realtime.services.typing_signal = original
    assert len(sent) == 1
    assert str(sent[0]["conversation"].pk) == conversation


@pytest.mark.django_db(transaction=True)
def test_typing_frames_over_the_socket_reach_the_other_side_once(clients, users):
    conversation = _start(clients, users)
    host_token, renter_token = tokens_for(users["host"])["token"], tokens_for(users["renter"])["token"]

    async def scenario():
        sockets = []
        for token in (host_token, renter_token):
            socket = WebsocketCommunicator(
                application, f"/ws/notifications/?token={token}", headers=[(b"origin", b"http://testserver")]
            )
            assert (await socket.connect(timeout=3))[0]
            sockets.append(socket)
        host, renter = sockets
        for _ in range(15):
            await host.send_to(text_data=json.dumps({"event": "typing", "data": {"conversationId": conversation}}))
        typing = 0
        while not await renter.receive_nothing(timeout=0.5):
            typing += json.loads(await renter.receive_from())["event"] == "typing"
        assert typing == 1
        for socket in sockets:
            await socket.disconnect()

    async_to_sync(scenario)()
