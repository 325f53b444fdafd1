"""A socket ends with its login: logout sends a close event, the token's expiry closes it, and a
delivery re-checks the login (issue 24, 6). Also: a page's frames are rate limited."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.test import Client

from apps.accounts.authentication import LOGIN_CLAIM, PASSWORD_CLAIM, password_version
from apps.accounts.factories import PASSWORD
from apps.accounts.services import tokens_for
from apps.notifications import consumers, realtime
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def open_socket(path="/ws/notifications/", cookie: str | None = None):
    headers = [(b"origin", b"http://testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=3)
    assert connected
    return communicator


async def closed(socket, timeout=3) -> bool:
    """True when the server closed the socket (with 4401) before any further event."""
    try:
        output = await socket.receive_output(timeout=timeout)
    except TimeoutError:
        return False
    return output["type"] == "websocket.close" and output.get("code") == 4401


def push(user):
    realtime.send_to_users([user.pk], "notification", {"title": "Ping"}, strict=True)


def test_logout_closes_the_sockets_of_that_token_login(api, users):
    user = users["renter"]
    tokens = tokens_for(user)
    other = tokens_for(user)  # a second login (another device) stays open

    async def scenario():
        socket = await open_socket(f"/ws/notifications/?token={tokens['token']}")
        second = await open_socket(f"/ws/notifications/?token={other['token']}")
        response = await database_sync_to_async(api.post)(
            "/api/user/logout",
            {"refreshToken": tokens["refreshToken"]},
            format="json",
            HTTP_AUTHORIZATION=f"Bearer {tokens['token']}",
        )
        assert response.status_code == 200
        assert await closed(socket)
        await database_sync_to_async(push)(user)
        frame = json.loads(await second.receive_from(timeout=3))
        assert frame["event"] == "notification"
        await second.disconnect()

    async_to_sync(scenario)()


def test_logout_closes_the_sockets_of_that_browser_session(users):
    user = users["renter"]
    browser = Client()
    browser.force_login(user)
    session_key = browser.cookies["sessionid"].value

    async def scenario():
        socket = await open_socket(cookie=f"sessionid={session_key}")
        await database_sync_to_async(push)(user)
        assert json.loads(await socket.receive_from(timeout=3))["event"] == "notification"
        response = await database_sync_to_async(browser.post)("/api/user/logout", {}, content_type="application/json")
        assert response.status_code == 200
        assert await closed(socket)

    async_to_sync(scenario)()


def test_a_socket_closes_when_its_token_expires_without_any_delivery(users):
    from rest_framework_simplejwt.tokens import RefreshToken

    user = users["renter"]
    refresh = RefreshToken.for_user(user)
    refresh[LOGIN_CLAIM] = refresh["jti"]
    refresh[PASSWORD_CLAIM] = password_version(user)
    access = refresh.access_token
    access.set_exp(lifetime=timedelta(seconds=2))

    async def scenario():
        socket = await open_socket(f"/ws/notifications/?token={access}")
        assert await closed(socket, timeout=5)

    async_to_sync(scenario)()


def test_a_delivery_after_the_login_ended_elsewhere_closes_instead(users, monkeypatch):
    monkeypatch.setattr(consumers, "LOGIN_CHECK_SECONDS", 0.0)
    user = users["renter"]
    browser = Client()
    browser.force_login(user)
    session_key = browser.cookies["sessionid"].value
    token = tokens_for(user)["token"]

    async def scenario():
        by_cookie = await open_socket(cookie=f"sessionid={session_key}")
        by_token = await open_socket(f"/ws/notifications/?token={token}")
        # The session is gone (signed out on the server) and the password changed (the token is stale).
        await database_sync_to_async(Session.objects.filter(session_key=session_key).delete)()

        def change_password():
            user.set_password(PASSWORD + "x")
            user.save(update_fields=["password"])

        await database_sync_to_async(change_password)()
        await database_sync_to_async(push)(user)
        assert await closed(by_cookie)
        assert await closed(by_token)

    async_to_sync(scenario)()


def test_frames_beyond_the_burst_are_dropped(users):
    token = tokens_for(users["renter"])["token"]

    async def scenario():
        socket = await open_socket(f"/ws/notifications/?token={token}")
        for _ in range(consumers.FRAME_BURST + 30):
            await socket.send_to(text_data=json.dumps({"event": "ping", "data": {}}))
        pongs = 0
        while not await socket.receive_nothing(timeout=0.5):
            pongs += json.loads(await socket.receive_from())["event"] == "pong"
        assert consumers.FRAME_BURST <= pongs < consumers.FRAME_BURST + 30
        await socket.disconnect()

    async_to_sync(scenario)()
