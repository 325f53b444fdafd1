"""One event loop for a run of synchronous code that sends many async calls (the Channels layer).

``async_to_sync`` called from a thread with no event loop makes a new loop for each call, and the
Redis channel layer opens a new connection per loop: a worker task that sends five live events pays
for five loops and five connections. Inside ``one_event_loop()`` every ``run_async`` of the thread
runs on the same private loop, so the layer opens its connection once; the loop (and with it the
layer's connections) is closed when the block ends.

Where an outer loop already serves the thread (a ``sync_to_async`` thread of daphne or of an async
test) the block changes nothing: ``run_async`` then uses ``async_to_sync``, which hands the call to
that outer loop and its existing connection.

A thread whose own loop is running (synchronous code called from inside a coroutine, or beside
Playwright's sync API, which keeps a loop running on the test's thread) can neither block on that
loop nor use ``async_to_sync`` ("You cannot use AsyncToSync in the same thread as an async event
loop"): ``run_async`` then runs the call on a loop of its own on a helper thread and waits for it.
``run_async`` is the one way synchronous code calls the Channels layer, right in every case.
"""

import asyncio
import concurrent.futures
import os
import threading
from collections.abc import Awaitable, Callable
from contextlib import contextmanager
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync


class _Local(threading.local):
    loop: asyncio.AbstractEventLoop | None = None
    kept: asyncio.AbstractEventLoop | None = None


_local = _Local()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _outer_loop() -> bool:
    """True when this thread already has a loop to run coroutines on (running, or asgiref's main loop)."""
    if _running_loop() is not None:
        return True
    # asgiref's loop for this thread counts only while it runs (one left behind by an earlier call
    # that ended is stale: async_to_sync would make a new loop per call).
    main = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return (
        main is not None
        and main.is_running()
        and getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid()
    )


@contextmanager
def one_event_loop(*, keep: bool = False):
    """Run every ``run_async`` of this thread inside the block on one loop (nested blocks join the outer one).

    ``keep``: the loop, and with it the layer's open connections, stays for the thread's next
    ``keep`` block instead of being closed (a worker's tasks: each would otherwise connect to
    Redis again, about 1.5 ms). The kept loop only ever runs inside such a block.
    """
    if _local.loop is not None or _outer_loop():
        yield
        return
    loop = _local.kept if keep and _local.kept is not None and not _local.kept.is_closed() else None
    loop = loop or asyncio.new_event_loop()
    _local.loop = loop
    try:
        yield
    finally:
        _local.loop = None
        if keep:
            _local.kept = loop
        else:
            loop.close()  # channels_redis closes the connections it opened on this loop


def run_async(fn: Callable[..., Awaitable[Any]], *args, **kwargs) -> Any:
    """Call the coroutine function ``fn`` from synchronous code and return its result, whatever serves
    the thread: a loop running on it (the call then runs on the helper thread's loop), this thread's
    ``one_event_loop`` block, asgiref's outer loop, or nothing (a loop for this call)."""
    running = _running_loop()
    if running is not None:
        return _helper().run(fn, args, kwargs, caller=running)
    loop = _local.loop
    if loop is None:
        return async_to_sync(fn)(*args, **kwargs)
    return loop.run_until_complete(fn(*args, **kwargs))


class _HelperThread:
    """One daemon thread running one loop, for calls from threads whose own loop is busy running.
    Its loop stays, so the Channels layer keeps its connection from one call to the next."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="run-async-helper", daemon=True)
        self.thread.start()

    def run(self, fn: Callable[..., Awaitable[Any]], args, kwargs, *, caller: asyncio.AbstractEventLoop) -> Any:
        if caller is self.loop:  # called from a coroutine on this very loop: waiting here would block it
            with concurrent.futures.ThreadPoolExecutor(1) as one_off:
                return one_off.submit(asyncio.run, fn(*args, **kwargs)).result()
        return asyncio.run_coroutine_threadsafe(fn(*args, **kwargs), self.loop).result()


_helper_lock = threading.Lock()
_helper_thread: _HelperThread | None = None


def _helper() -> _HelperThread:
    global _helper_thread  # one per process, started on first need
    with _helper_lock:
        # A forked child (a prefork worker) has the object but not the thread: it starts its own.
        if _helper_thread is None or _helper_thread.pid != os.getpid():
            _helper_thread = _HelperThread()
        return _helper_thread
