"""The worker's side of a booking approval's fan-out, measured in-process.

An approval queues, in its transaction, the renter's live ``notification`` and the host's fresh
``pendingCounter``; on commit the worker runs them (``apps.core.effects.effects_run_batch``). This
script queues the same two effects, commits, runs the batch as the worker does and records, per
event, the time from the hand-off (the commit) to the end of its ``group_send`` on the Redis
channel layer. A socket of each user listens on the layer too, so the events really land.

    source /work/wt/NAME.env && .venv/bin/python scripts/bench_fanout.py [rounds]

``FANOUT_LOOP=per-event`` runs the sends the old way (a new event loop, and a new Redis
connection, for every ``group_send``) for comparison.
"""

import contextlib
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from channels.layers import get_channel_layer  # noqa: E402
from django.db import transaction  # noqa: E402

from apps.accounts.models import User  # noqa: E402
from apps.core import effects, tasks  # noqa: E402
from apps.core.roles import Role  # noqa: E402
from apps.notifications import realtime  # noqa: E402
from apps.notifications.services import counters_changed, live_event  # noqa: E402


def person(email: str, role: str) -> User:
    user = User.objects.filter(email=email).first()
    return user or User.objects.create_user(email, "bench-fanout-1", role=role, first_name="Bench", last_name=role)


def main(rounds: int) -> None:
    host = person("bench-fanout-host@example.com", Role.HOST)
    renter = person("bench-fanout-renter@example.com", Role.RENTER)
    layer = get_channel_layer()
    if os.environ.get("FANOUT_LOOP") == "per-event":
        effects.one_event_loop = contextlib.nullcontext

    sends: list[tuple[str, float]] = []
    original = layer.group_send

    async def timed_group_send(group, message):
        began = time.perf_counter()
        await original(group, message)
        sends.append((message["event"], time.perf_counter()))
        layer_ms.append((sends[-1][1] - began) * 1000)

    layer.group_send = timed_group_send
    per_event: dict[str, list[float]] = {"notification": [], "pendingCounter": []}
    batches: list[float] = []
    layer_ms: list[float] = []  # the group_send call alone (with its connection when the loop is new)
    handed: list[list[str]] = []
    tasks.run_effects.delay = lambda *, effect_ids: handed.append(effect_ids)  # the worker runs them below
    for _ in range(rounds + 5):
        sends.clear()
        handed.clear()
        with transaction.atomic(), effects.effects_batched():
            live_event([realtime.user_group(renter.pk)], "notification", {"title": "Booking approved"})
            counters_changed(users=[host])
        started = time.perf_counter()  # the hand-off: the commit's one task for the change's effects
        effects.effects_run_batch(handed[0])
        batches.append((time.perf_counter() - started) * 1000)
        for event, at in sends:
            per_event.setdefault(event, []).append((at - started) * 1000)
    for values in (*per_event.values(), batches, layer_ms):
        del values[: 10 if values is layer_ms else 5]  # warm-up rounds
    mode = os.environ.get("FANOUT_LOOP", "one loop per batch")
    print(f"{rounds} approvals, sends: {mode}")
    for name, values in (*per_event.items(), ("whole batch", batches), ("group_send", layer_ms)):
        values.sort()
        p95 = values[max(0, int(len(values) * 0.95) - 1)]
        print(f"  {name:15} p50 {statistics.median(values):6.2f} ms  p95 {p95:6.2f} ms  max {values[-1]:6.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
