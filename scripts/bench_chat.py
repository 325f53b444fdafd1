"""Chat figures (scripts/bench_chat.py): a message reaching the other party's open socket, and a
conversation of 10,000 messages paged.

Runs on the database of DATABASE_URL (migrated; its own two users and a conversation of 10,000
messages are made if missing: it does not need the large seed of scripts/bench.py), starts
gunicorn (HTTP, as production runs it), daphne (the websockets) and a Celery worker (the outbox's effects,
which carry chat events to the open sockets), as `make run` does, then:

- delivery: the renter sends a message over HTTP; timed until the host's open socket has the
  ``message`` event (BENCH_CHAT_ROUNDS rounds, one at a time): the HTTP request, its commit, the
  outbox effect through the broker and the worker, the Channels layer (Redis) and daphne;
- paging: GET /api/chat/messages/{id}?page=N&limit=50 over the 10,000 messages (pages spread over
  the whole conversation), as the host.

Prints a Markdown table. Environment: BENCH_PORT (8160; daphne on +1), BENCH_CHAT_ROUNDS (40),
BENCH_SECONDS (4).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BENCH_PORT", "8160")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import bench  # noqa: E402  (scripts/bench.py: servers, timing and HTTP helpers)

MESSAGES = 10_000
ROUNDS = int(os.environ.get("BENCH_CHAT_ROUNDS", "40"))
TARGETS = {"delivery p50": 50, "delivery p95": 150, "paging p95": 20}


WORKER_FLAGS = ("--without-gossip", "--without-mingle", "--without-heartbeat")


def wait_for_worker(worker: subprocess.Popen) -> None:
    """Until the worker answers a ping (it then takes the outbox's tasks)."""
    from config.celery import app

    for _ in range(60):
        if worker.poll() is not None:
            raise SystemExit("the Celery worker stopped")
        if app.control.ping(timeout=1):
            return
    raise SystemExit("the Celery worker did not answer")


def conversation_with_messages():
    from datetime import timedelta

    from django.utils import timezone

    from apps.accounts.models import Role, User
    from apps.messaging.models import Conversation, Message

    def person(email: str, role: str) -> User:
        user = User.objects.filter(email=email).first()
        return user or User.objects.create_user(email=email, role=role, first_name=role.title())

    host = person("bench-chat-host@example.com", Role.HOST)
    renter = person("bench-chat-renter@example.com", Role.RENTER)
    conversation, _ = Conversation.objects.get_or_create(renter=renter, host=host)
    have = conversation.messages.count()
    if have < MESSAGES:
        start = timezone.now() - timedelta(days=200)
        Message.objects.bulk_create(
            [
                Message(
                    conversation=conversation,
                    sender=renter if n % 2 else host,
                    sender_side="renter" if n % 2 else "host",
                    text=f"Message {n}: is the room free on Friday afternoon?",
                    created_at=start + timedelta(minutes=n),
                    delivered_at=start + timedelta(minutes=n),
                    read_at=start + timedelta(minutes=n),
                )
                for n in range(have, MESSAGES)
            ],
            batch_size=2000,
        )
    return host, renter, conversation


async def delivery_rounds(host_token: str, renter_token: str, conversation_id: str) -> list[float]:
    import aiohttp

    times: list[float] = []
    url = f"ws://127.0.0.1:{bench.WS_PORT}/ws/notifications/?token="
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(url + host_token, headers={"Origin": "http://127.0.0.1"}) as ws,
    ):
        await ws.send_json({"event": "ping", "data": {}})
        while (await ws.receive_json(timeout=10))["event"] != "pong":
            pass
        loop = asyncio.get_running_loop()
        for n in range(ROUNDS):
            marker = f"bench {n} {time.time_ns()}"

            async def arrival(marker=marker) -> float:
                while True:
                    message = await ws.receive_json(timeout=10)
                    if message["event"] == "message" and message["data"]["message"]["text"] == marker:
                        return time.perf_counter()

            waiting = asyncio.ensure_future(arrival())
            started = time.perf_counter()
            status, _ = await loop.run_in_executor(
                None,
                lambda marker=marker: bench.request(
                    http.client.HTTPConnection("127.0.0.1", bench.PORT, timeout=30),
                    "POST",
                    f"/api/chat/send/{conversation_id}",
                    {"text": marker},
                    {"Authorization": f"Bearer {renter_token}"},
                ),
            )
            if status != 201:
                waiting.cancel()
                continue
            times.append((await waiting - started) * 1000)
    return times


def main() -> int:
    import django

    bench.manage("migrate", "--noinput", "-v", "0")
    django.setup()
    from django.conf import settings

    from config import instance

    host, renter, conversation = conversation_with_messages()
    host_token, renter_token = bench.token_for(host), bench.token_for(renter)
    server = bench.start_gunicorn()
    sockets = subprocess.Popen(
        [str(ROOT / ".venv/bin/daphne"), "-b", "127.0.0.1", "-p", str(bench.WS_PORT), "config.asgi:application"],
        cwd=ROOT,
        env={**os.environ},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    worker = subprocess.Popen(
        [
            *(str(ROOT / ".venv/bin/celery"), "-A", "config", "worker", "-l", "warning", "-c", "2", *WORKER_FLAGS),
            *instance.worker_arguments(settings.INSTANCE_NAME, node=f"bench-chat-{bench.PORT}"),
        ],
        cwd=ROOT,
        env={**os.environ},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    rows = []
    try:
        bench.wait_for_server(server)
        bench.wait_for(bench.WS_PORT, "/", sockets, "daphne")
        wait_for_worker(worker)
        pages = [f"/api/chat/messages/{conversation.pk}?page={page}&limit=50" for page in (1, 2, 10, 50, 100, 150, 200)]
        factory = bench.http_calls(pages, token=host_token)
        bench.warm(factory, 20)
        paging = bench.drive(factory, 1)
        rows.append(("paging: 10,000 messages, 50 a page (pages 1 to 200)", paging, TARGETS["paging p95"]))
        times = asyncio.run(delivery_rounds(host_token, renter_token, str(conversation.pk)))
        delivery = bench.summary(times, sum(times) / 1000 if times else 0, ROUNDS - len(times))
        rows.append(("delivery: renter's message to the host's open socket", delivery, TARGETS["delivery p95"]))
    finally:
        for process in (server, sockets, worker):
            process.terminate()
        for process in (server, sockets, worker):
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:  # a busy machine: the figures are in, stop it hard
                process.kill()
                process.wait(10)
    print(f"Load average at the end: {os.getloadavg()}")
    print("| scenario | p50 | p95 | p99 | errors | target p95 |")
    print("|---|---:|---:|---:|---:|---|")
    for name, result, target in rows:
        verdict = "met" if result["p95"] <= target else "**missed**"
        print(
            f"| {name} | {result['p50']:.2f} | {result['p95']:.2f} | {result['p99']:.2f} | {result['errors']} | {target}: {verdict} |"
        )
    print(json.dumps({name: {k: round(v, 2) for k, v in r.items() if isinstance(v, float)} for name, r, _ in rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
