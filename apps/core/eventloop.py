"""One event loop for a run of synchronous code that sends many async calls (the Channels layer).

``async_to_sync`` called from a thread with no event loop makes a new loop for each call, and the
Redis channel layer opens a new connection per loop: a worker task that sends five live events pays
for five loops and five connections. Inside ``one_event_loop()`` every ``run_async`` of the thread
runs on the same private loop, so the layer opens its connection once; the loop (and with it the
layer's connections) is closed when the block ends.

Where an outer loop already serves the thread (a ``sync_to_async`` thread of daphne or of an async
test, or a thread whose loop is running) the block changes nothing: ``run_async`` then uses
``async_to_sync``, which hands the call to that outer loop and its existing connection.
"""

import asyncio
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


def _outer_loop() -> bool:
    """True when this thread already has a loop to run coroutines on (running, or asgiref's main loop)."""
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        pass
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
    """Call the coroutine function ``fn`` from synchronous code and return its result."""
    loop = _local.loop
    if loop is None:
        return async_to_sync(fn)(*args, **kwargs)
    return loop.run_until_complete(fn(*args, **kwargs))
