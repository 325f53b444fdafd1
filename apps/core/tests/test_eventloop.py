import asyncio

from asgiref.sync import async_to_sync, sync_to_async

from apps.core.eventloop import one_event_loop, run_async


async def _current_loop():
    return asyncio.get_running_loop()


def test_calls_inside_the_block_share_one_loop_which_is_closed_after():
    with one_event_loop():
        first = run_async(_current_loop)
        with one_event_loop():  # a nested block joins the outer one
            second = run_async(_current_loop)
        assert first is second
        assert not first.is_closed()
    assert first.is_closed()


def test_calls_outside_a_block_each_get_their_own_loop():
    assert run_async(_current_loop) is not run_async(_current_loop)


def test_a_thread_served_by_an_outer_loop_keeps_using_it():
    def in_worker_thread():
        with one_event_loop():
            return run_async(_current_loop)

    async def outer():
        return asyncio.get_running_loop(), await sync_to_async(in_worker_thread)()

    outer_loop, used = async_to_sync(outer)()
    assert used is outer_loop


def test_a_kept_loop_serves_the_next_kept_block_and_only_those():
    import threading

    seen = {}

    def worker_thread():
        with one_event_loop(keep=True):
            seen["first"] = run_async(_current_loop)
        with one_event_loop(keep=True):
            seen["second"] = run_async(_current_loop)
        with one_event_loop():  # a plain block still gets a loop of its own, closed after
            seen["plain"] = run_async(_current_loop)
        seen["outside"] = run_async(_current_loop)

    thread = threading.Thread(target=worker_thread)
    thread.start()
    thread.join()
    assert seen["first"] is seen["second"] and not seen["first"].is_closed()
    assert seen["plain"] is not seen["first"] and seen["plain"].is_closed()
    assert seen["outside"] is not seen["first"]
    seen["first"].close()


# --- Live sends through the Channels layer, whatever serves the calling thread -------------------

from channels.layers import get_channel_layer  # noqa: E402

from apps.notifications import realtime  # noqa: E402


def _listen(group: str):
    """A channel in ``group`` on the real (Redis) layer; returns a function that reads its next message."""
    layer = get_channel_layer()

    async def join():
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        return channel

    channel = async_to_sync(join)()

    async def receive():
        return await asyncio.wait_for(layer.receive(channel), timeout=10)

    return lambda: async_to_sync(receive)()


def test_a_live_send_from_plain_sync_code_reaches_the_group():
    received = _listen("eventloop.plain")
    realtime.send_to_groups(["eventloop.plain"], "ping", {"n": 1}, strict=True)
    assert received()["data"] == {"n": 1}


def test_a_live_send_from_a_worker_block_reaches_the_group():
    received = _listen("eventloop.block")
    with one_event_loop():
        realtime.send_to_groups(["eventloop.block"], "ping", {"n": 2}, strict=True)
    assert received()["data"] == {"n": 2}


def test_a_live_send_from_a_thread_whose_loop_is_running_reaches_the_group():
    """Synchronous code on a thread whose own loop runs (Playwright's sync API in the browser tests,
    or a coroutine calling sync code): async_to_sync would refuse; the send still goes out."""
    received = _listen("eventloop.running")

    async def sync_code_inside_a_running_loop():
        realtime.send_to_groups(["eventloop.running"], "ping", {"n": 3}, strict=True)
        with one_event_loop(keep=True):  # the worker's block changes nothing there
            realtime.send_to_groups(["eventloop.running"], "ping", {"n": 4}, strict=True)

    asyncio.run(sync_code_inside_a_running_loop())
    assert [received()["data"], received()["data"]] == [{"n": 3}, {"n": 4}]


def test_run_async_from_a_coroutine_on_the_helpers_own_loop_does_not_wait_on_itself():
    async def inner():
        return "inner"

    async def outer():  # on the helper's loop, sync code calls run_async again
        return run_async(inner)

    async def on_a_running_loop():
        return run_async(outer)

    assert asyncio.run(on_a_running_loop()) == "inner"
