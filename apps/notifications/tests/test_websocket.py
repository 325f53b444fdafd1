"""The live socket over the real Redis channel layer (Channels' WebsocketCommunicator)."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client

from apps.accounts.services import tokens_for
from apps.notifications import counters
from apps.notifications.services import counters_changed, notify
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
PATH = "/ws/notifications/"
ORIGIN = (b"origin", b"http://testserver")


def run(coroutine_function):
    return async_to_sync(coroutine_function)()


async def open_socket(*, token=None, cookie=None, origin=ORIGIN):
    path = PATH + (f"?token={token}" if token is not None else "")
    headers = [origin] if origin else []
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=3)
    return communicator, connected


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def receive(communicator, timeout=3):
    return json.loads(await communicator.receive_from(timeout=timeout))


def test_booking_approval_reaches_renter_and_host_and_no_one_else(users):
    renter, host, outsider = users["renter"], users["host"], users["other_renter"]
    tokens = {name: tokens_for(users[name])["token"] for name in ("renter", "host", "other_renter")}

    @database_sync_to_async
    def approve_booking():
        with transaction.atomic():
            notify(user=renter, kind="bookingApproved", content="Your booking at Loft was approved.", link="/booking/1")
            notify(user=host, kind="paymentCaptured", content="Payment captured for Loft.", link="/payments")

    async def scenario():
        renter_socket, ok1 = await open_socket(token=tokens["renter"])
        host_socket, ok2 = await open_socket(cookie=await database_sync_to_async(session_cookie)(host))
        outsider_socket, ok3 = await open_socket(token=tokens["other_renter"])
        assert ok1 and ok2 and ok3
        await approve_booking()
        got_renter = await receive(renter_socket)
        got_host = await receive(host_socket)
        assert got_renter["event"] == "notification"
        assert got_renter["data"]["content"] == "Your booking at Loft was approved."
        assert got_renter["data"]["link"] == "/booking/1" and got_renter["data"]["read"] is False
        assert got_host["data"]["kind"] == "paymentCaptured"
        assert await outsider_socket.receive_nothing(timeout=0.5)
        assert await renter_socket.receive_nothing(timeout=0.2)
        for socket in (renter_socket, host_socket, outsider_socket):
            await socket.disconnect()

    run(scenario)
    assert outsider.notifications.count() == 0


def test_counter_change_reaches_host_and_its_sub_host_only(users):
    tokens = {name: tokens_for(users[name])["token"] for name in ("host", "sub_host", "other_host", "admin")}
    before = counters.registered_counters().get("pendingBookings")
    counters.register_counter("pendingBookings", lambda user: 7 if user.acting_host_id == users["host"].pk else 1)

    @database_sync_to_async
    def new_booking_request():
        with transaction.atomic():
            counters_changed(users=[users["host"]])

    async def scenario():
        sockets = {}
        for name, token in tokens.items():
            sockets[name], ok = await open_socket(token=token)
            assert ok
        await new_booking_request()
        for name in ("host", "sub_host"):
            got = await receive(sockets[name])
            assert got["event"] == "pendingCounter" and got["data"]["pendingBookings"] == 7
        assert await sockets["other_host"].receive_nothing(timeout=0.5)
        assert await sockets["admin"].receive_nothing(timeout=0.1)
        for socket in sockets.values():
            await socket.disconnect()

    try:
        run(scenario)
    finally:
        counters.unregister_counter("pendingBookings")
        if before:
            counters.register_counter("pendingBookings", before)


def test_staff_counter_change_reaches_admins_and_moderators(users):
    tokens = {name: tokens_for(users[name])["token"] for name in ("admin", "moderator", "host")}

    @database_sync_to_async
    def listing_submitted():
        with transaction.atomic():
            counters_changed(staff=True)

    async def scenario():
        sockets = {name: (await open_socket(token=token))[0] for name, token in tokens.items()}
        await listing_submitted()
        for name in ("admin", "moderator"):
            got = await receive(sockets[name])
            assert got["event"] == "pendingCounter" and set(got["data"]) == set(counters.COUNTER_NAMES)
        assert await sockets["host"].receive_nothing(timeout=0.4)
        for socket in sockets.values():
            await socket.disconnect()

    run(scenario)


def test_nothing_is_sent_when_the_transaction_rolls_back(users):
    token = tokens_for(users["renter"])["token"]

    @database_sync_to_async
    def failed_request():
        try:
            with transaction.atomic():
                notify(user=users["renter"], kind="bookingApproved", content="x")
                raise RuntimeError("the booking approval failed")
        except RuntimeError:
            pass

    async def scenario():
        socket, ok = await open_socket(token=token)
        assert ok
        await failed_request()
        assert await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()

    run(scenario)


@pytest.mark.parametrize("token", [None, "", "garbage", "a.b.c", "x" * 10000])
def test_anonymous_and_bad_tokens_are_refused(token):
    async def scenario():
        _, connected = await open_socket(token=token)
        assert not connected

    run(scenario)


def test_refresh_tokens_deleted_and_suspended_accounts_are_refused(users):
    refresh = tokens_for(users["renter"])["refreshToken"]
    deleted_token = tokens_for(users["other_renter"])["token"]
    users["other_renter"].is_deleted = True
    users["other_renter"].save()
    suspended_token = tokens_for(users["host"])["token"]
    users["host"].is_active = False
    users["host"].save()

    async def scenario():
        for token in (deleted_token, suspended_token, refresh):
            if token:
                _, connected = await open_socket(token=token)
                assert not connected

    run(scenario)


def test_foreign_origin_is_refused(users):
    token = tokens_for(users["renter"])["token"]

    async def scenario():
        _, connected = await open_socket(token=token, origin=(b"origin", b"https://evil.example"))
        assert not connected

    run(scenario)


def test_ping_and_bad_frames(users):
    token = tokens_for(users["renter"])["token"]

    async def scenario():
        socket, ok = await open_socket(token=token)
        assert ok
        await socket.send_to(text_data=json.dumps({"event": "ping"}))
        assert (await receive(socket))["event"] == "pong"
        for frame in ("{not json", "[]", json.dumps({"event": 5}), json.dumps({"event": "hack"}), "x" * 20000):
            await socket.send_to(text_data=frame)
            got = await receive(socket)
            assert got["event"] == "error" and got["data"]["message"]
        await socket.send_to(text_data=json.dumps({"event": "ping"}))
        assert (await receive(socket))["event"] == "pong"
        await socket.disconnect()

    run(scenario)
