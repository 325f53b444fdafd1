"""`make scale-demo`: the site on more than one process, checked end to end.

Starts 2 gunicorn, 2 daphne, 2 Celery workers and 1 beat against one PostgreSQL (DATABASE_URL)
and one Redis (REDIS_URL), then checks and prints:

1. a notification raised through one web process reaches a socket held by the other daphne;
2. a chat message crosses processes (sent through the second web process, received on the first
   daphne; a typing signal from the first daphne reaches the second);
3. each scheduled task runs once per beat (no task run twice, none lost, with two workers);
4. the outbox is drained exactly once with two workers (200 effects, each delivered twice);
5. killing one worker (SIGKILL, the whole process group) in the middle of an effect loses nothing.

Every check prints PASS or FAIL; the exit status is 0 only when all pass. Not part of `make test`
(it takes about a minute and starts seven servers). Settings: scripts/scale_settings.py.
Environment: SCALE_PORT (8440: gunicorn on it and +1, daphne on +2 and +3).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BIN = ROOT / ".venv" / "bin"
PORT = int(os.environ.get("SCALE_PORT", "8440"))
WEB = [PORT, PORT + 1]
WS = [PORT + 2, PORT + 3]
LOGS = Path(tempfile.gettempdir()) / f"scale-demo-{PORT}"
HOST = {"Host": "127.0.0.1"}
OUTBOX_EFFECTS = 200

os.environ["DJANGO_ENV"] = "development"
os.environ["DEBUG"] = "false"
os.environ["DJANGO_SETTINGS_MODULE"] = "scripts.scale_settings"
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"

results: list[tuple[str, bool, str]] = []


def check(name: str, ok: bool, detail: str) -> None:
    results.append((name, ok, detail))
    print(f"[{'PASS' if ok else 'FAIL'}] {name}: {detail}", flush=True)


# --- Processes -----------------------------------------------------------------------------------


def start(name: str, *args: str) -> subprocess.Popen:
    log = (LOGS / f"{name}.log").open("w")
    return subprocess.Popen(
        list(args), cwd=ROOT, env={**os.environ}, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


def start_all() -> dict[str, subprocess.Popen]:
    LOGS.mkdir(parents=True, exist_ok=True)
    processes = {}
    for n, port in enumerate(WEB, 1):
        processes[f"gunicorn{n}"] = start(
            f"gunicorn{n}", str(BIN / "gunicorn"), "config.wsgi", "-w", "2", "-b", f"127.0.0.1:{port}"
        )
    for n, port in enumerate(WS, 1):
        processes[f"daphne{n}"] = start(
            f"daphne{n}", str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"
        )
    from config import instance

    name = instance.instance_name()
    for n in (1, 2):  # the instance's own queues (another instance may share the Redis)
        processes[f"worker{n}"] = start(
            f"worker{n}",
            *(str(BIN / "celery"), "-A", "config", "worker", "-l", "info", "-c", "2"),
            *instance.worker_arguments(name, node=f"scale{n}-{PORT}"),
        )
    schedule = LOGS / "celerybeat-schedule"
    for stale in LOGS.glob("celerybeat-schedule*"):
        stale.unlink()
    processes["beat"] = start("beat", str(BIN / "celery"), "-A", "config", "beat", "-l", "debug", "-s", str(schedule))
    return processes


def stop_all(processes: dict[str, subprocess.Popen]) -> None:
    for process in processes.values():
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes.values():
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def wait_http(port: int, process: subprocess.Popen, name: str) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise SystemExit(f"{name} stopped; see {LOGS / name}.log")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz", headers=HOST)
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{name} did not answer")


def wait_log(name: str, pattern: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if re.search(pattern, (LOGS / f"{name}.log").read_text(errors="replace")):
            return
        time.sleep(0.3)
    raise SystemExit(f"{name} is not ready; see {LOGS / name}.log")


def call(port: int, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {**HOST, "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    raw = response.read()
    return response.status, json.loads(raw or b"{}")


# --- The data ------------------------------------------------------------------------------------


def people() -> dict:
    from apps.accounts.factories import UserFactory
    from apps.accounts.models import Role
    from apps.accounts.services import tokens_for
    from apps.bookings.factories import PricedEventListingFactory

    tag = uuid.uuid4().hex[:8]
    host = UserFactory(role=Role.HOST, email=f"scale-host-{tag}@example.com")
    renter = UserFactory(role=Role.RENTER, email=f"scale-renter-{tag}@example.com")
    listing = PricedEventListingFactory(host=host, title=f"Scale demo hall {tag}", slug=f"scale-demo-hall-{tag}")
    return {
        "host": host,
        "renter": renter,
        "listing": listing,
        "host_token": tokens_for(host)["token"],
        "renter_token": tokens_for(renter)["token"],
    }


def free_weekday() -> date:
    day = date.today() + timedelta(days=30)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


# --- Sockets -------------------------------------------------------------------------------------


async def open_socket(session, port: int, token: str):
    ws = await session.ws_connect(
        f"ws://127.0.0.1:{port}/ws/notifications/?token={token}", headers={"Origin": "http://127.0.0.1"}
    )
    await ws.send_json({"event": "ping", "data": {}})
    while (await ws.receive_json(timeout=10))["event"] != "pong":
        pass
    return ws


async def wait_event(ws, event: str, test, seconds: float = 15) -> dict | None:
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = await ws.receive_json(timeout=left)
        except TimeoutError:
            return None
        if message.get("event") == event and test(message.get("data") or {}):
            return message
    return None


async def crossing_checks(data: dict) -> None:
    import aiohttp

    async with aiohttp.ClientSession() as session:
        # 1. A notification: the renter books through gunicorn 1; the host's socket is on daphne 2.
        host_ws = await open_socket(session, WS[1], data["host_token"])
        day = free_weekday().strftime("%d-%m-%Y")
        body = {"listingId": str(data["listing"].pk), "checkInDate": day, "checkOutDate": day}
        body |= {"startTime": "10:00 AM", "endTime": "02:00 PM", "guests": 2}
        started = time.perf_counter()
        status, answer = await asyncio.to_thread(
            call, WEB[0], "POST", "/api/booking/create", body, data["renter_token"]
        )
        got = await wait_event(host_ws, "notification", lambda d: d.get("kind") == "bookingRequested")
        elapsed = (time.perf_counter() - started) * 1000
        check(
            "notification across processes",
            status == 201 and got is not None,
            f"booking request through gunicorn :{WEB[0]} (answer {status}); the host's socket on daphne :{WS[1]} "
            + (f"had the bookingRequested notification after {elapsed:.0f} ms" if got else "got nothing in 15 s"),
        )
        booking_id = answer.get("data", {}).get("_id")

        # 2. Chat: the renter writes through gunicorn 2; the host reads on daphne 1; the host types on
        # daphne 1 and the renter, on daphne 2, sees it.
        host_ws1 = await open_socket(session, WS[0], data["host_token"])
        renter_ws2 = await open_socket(session, WS[1], data["renter_token"])
        status, started_chat = await asyncio.to_thread(
            call, WEB[1], "POST", "/api/chat/start", {"bookingId": booking_id}, data["renter_token"]
        )
        conversation = started_chat.get("data", {}).get("_id")
        text = f"Hello across processes {uuid.uuid4().hex[:6]}"
        sent, _ = await asyncio.to_thread(
            call, WEB[1], "POST", f"/api/chat/send/{conversation}", {"text": text}, data["renter_token"]
        )
        message = await wait_event(host_ws1, "message", lambda d: text in json.dumps(d))
        await host_ws1.send_json({"event": "typing", "data": {"conversationId": conversation, "isTyping": True}})
        typing = await wait_event(renter_ws2, "typing", lambda d: d.get("conversationId") == conversation)
        check(
            "chat message across processes",
            status in (200, 201) and sent in (200, 201) and message is not None and typing is not None,
            f"sent through gunicorn :{WEB[1]} (answer {sent}), received on daphne :{WS[0]}: "
            f"{'yes' if message else 'no'}; typing from daphne :{WS[0]} seen on daphne :{WS[1]}: "
            f"{'yes' if typing else 'no'}",
        )

        # 4. The outbox with two workers: 200 live events queued at once, each task delivered twice.
        await outbox_check(data, host_ws)
        for ws in (host_ws, host_ws1, renter_ws2):
            await ws.close()


async def outbox_check(data: dict, host_ws) -> None:
    from django.db import transaction

    from apps.core.effects import effect_enqueue
    from apps.core.models import Effect
    from apps.core.tasks import run_due_effects, run_effects

    batch = uuid.uuid4().hex[:8]

    def queue() -> list[str]:
        with transaction.atomic():
            effects = [
                effect_enqueue(
                    "notifications.live",
                    {"user_ids": [str(data["host"].pk)], "event": "scaleDemo", "data": {"batch": batch, "n": n}},
                    key=f"scale-demo:{batch}:{n}",
                )
                for n in range(OUTBOX_EFFECTS)
            ]
        ids = [str(effect.pk) for effect in effects]
        # The same effects handed out again, and two sweeps: four deliveries race for each effect.
        run_effects.delay(effect_ids=list(reversed(ids)))
        run_due_effects.delay()
        run_due_effects.delay()
        return ids

    ids = await asyncio.to_thread(queue)
    seen: Counter = Counter()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        message = await wait_event(host_ws, "scaleDemo", lambda d: d.get("batch") == batch, seconds=1)
        if message:
            seen[message["data"]["n"]] += 1
        if len(seen) == OUTBOX_EFFECTS:
            deadline = min(deadline, time.monotonic() + 2)  # listen a little longer for repeats

    def rows():
        return list(Effect.objects.filter(pk__in=ids).values_list("status", "attempts"))

    states = Counter(await asyncio.to_thread(rows))
    twice = sum(1 for count in seen.values() if count > 1)
    ok = states == Counter({("done", 1): OUTBOX_EFFECTS}) and len(seen) == OUTBOX_EFFECTS and twice == 0
    check(
        "outbox drained exactly once by two workers",
        ok,
        f"{OUTBOX_EFFECTS} effects, each handed to the workers 4 times: rows (status, attempts) {dict(states)}; "
        f"events on the socket: {sum(seen.values())} for {len(seen)} distinct effects, {twice} twice",
    )


# --- Beat ----------------------------------------------------------------------------------------


def beat_check() -> None:
    """Every task beat has sent so far was run, by exactly one of the two workers."""
    sent = re.findall(r"(\S+) sent\. id->([0-9a-f-]+)", (LOGS / "beat.log").read_text(errors="replace"))
    ids = {task_id for _, task_id in sent}
    time.sleep(3)  # the last ones sent are received and run
    runs: Counter = Counter()
    by_worker: Counter = Counter()
    for n in (1, 2):
        log = (LOGS / f"worker{n}.log").read_text(errors="replace")
        for task_id in re.findall(r"Task [\w.]+\[([0-9a-f-]+)\] succeeded", log):
            if task_id in ids:
                runs[task_id] += 1
                by_worker[f"worker{n}"] += 1
    names = {name for name, _ in sent}
    lost = [task_id for task_id in ids if runs[task_id] == 0]
    twice = [task_id for task_id in ids if runs[task_id] > 1]
    check(
        "each scheduled task runs once",
        bool(ids) and not lost and not twice,
        f"beat sent {len(sent)} tasks ({len(names)} schedules, every 4 s); run once: "
        f"{sum(1 for t in ids if runs[t] == 1)} ({dict(by_worker)}), not run: {len(lost)}, "
        f"run twice: {len(twice)}",
    )


# --- Killing a worker ----------------------------------------------------------------------------


def kill_check(processes: dict[str, subprocess.Popen]) -> None:
    from django.core.cache import cache
    from django.db import transaction

    from apps.core.effects import effect_enqueue
    from apps.core.models import Effect

    marker = uuid.uuid4().hex[:8]
    with transaction.atomic():
        effect = effect_enqueue("scale_demo.slow", {"marker": marker}, key=f"scale-demo-slow:{marker}")
    holder = None
    for _ in range(100):
        holder = cache.get(f"scale-demo:started:{marker}")
        if holder:
            break
        time.sleep(0.1)
    if holder is None:
        check("a worker killed mid-task loses nothing", False, "no worker started the slow effect in 10 s")
        return
    _pid, group = (int(part) for part in holder.split(":"))
    victim = next((name for name, p in processes.items() if name.startswith("worker") and p.pid == group), None)
    os.killpg(group, signal.SIGKILL)
    killed_at = time.monotonic()
    processes[victim].wait(10)
    deadline = killed_at + 60
    row = None
    while time.monotonic() < deadline:
        row = Effect.objects.filter(pk=effect.pk).values("status", "attempts").first()
        if row and row["status"] == "done":
            break
        time.sleep(0.5)
    finished = cache.get(f"scale-demo:finished:{marker}") or 0
    ok = bool(row) and row["status"] == "done" and finished == 1
    check(
        "a worker killed mid-task loses nothing",
        ok,
        f"{victim} (process group {group}) killed with SIGKILL as soon as it started a 4 s effect; the effect is "
        f"{row['status'] if row else '?'} after {time.monotonic() - killed_at:.1f} s (attempts {row and row['attempts']}), "
        f"finished {finished} time(s), by the other worker through the outbox sweep",
    )


# --- Main ----------------------------------------------------------------------------------------


def main() -> int:
    subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    import django

    django.setup()
    from django.conf import settings

    print(
        f"PostgreSQL {settings.DATABASES['default']['NAME']}, Redis {os.environ.get('REDIS_URL', '(default)')}, "
        f"instance {settings.INSTANCE_NAME!r}; "
        f"logs in {LOGS}",
        flush=True,
    )
    processes = start_all()
    try:
        for n, port in enumerate(WEB, 1):
            wait_http(port, processes[f"gunicorn{n}"], f"gunicorn{n}")
        for n, port in enumerate(WS, 1):
            wait_http(port, processes[f"daphne{n}"], f"daphne{n}")
        for n in (1, 2):
            wait_log(f"worker{n}", r"ready\.")
        wait_log("beat", r"beat: Starting")
        print(
            "started: " + ", ".join(f"{name} (pid {process.pid})" for name, process in processes.items()),
            flush=True,
        )
        data = people()
        asyncio.run(crossing_checks(data))
        beat_check()
        kill_check(processes)
    finally:
        stop_all(processes)
    failed = [name for name, ok, _ in results if not ok]
    print(f"\n{len(results) - len(failed)} of {len(results)} checks passed" + (f"; failed: {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
