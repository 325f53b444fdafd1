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
