"""`make run`: prepare the database and serve the site with its worker, scheduler and websockets.

HTTP (gunicorn, WSGI) on :8000, websockets (daphne, ASGI) on :8001, a Celery worker, a second one for
imported calendars' fetches (a slow feed never delays a capture) and Celery beat.
PORT moves both (HTTP on PORT, websockets on PORT + 1), so a second instance (another DATABASE_URL,
hence another INSTANCE_NAME: its own queues and keys on the same Redis) can run beside the first.
Ctrl-C, SIGTERM or SIGHUP stops them all.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config import instance  # noqa: E402

VENV_BIN = ROOT / ".venv" / "bin"
PY = str(VENV_BIN / "python")
DATA = Path(os.environ.get("DATA_DIR") or ROOT / ".data")


def manage(*args: str) -> None:
    subprocess.run([PY, "manage.py", *args], cwd=ROOT, check=True)


class Stopping(Exception):
    pass


def main() -> int:
    port = int(os.environ.get("PORT") or 8000)
    os.environ.setdefault("SITE_URL", f"http://127.0.0.1:{port}")
    os.environ.setdefault("WEBSOCKET_URL", f"ws://127.0.0.1:{port + 1}/ws/")
    os.environ.setdefault("DJANGO_ENV", "development")
    # The site as visitors see it (real not-found and error pages); DEBUG=true make run for Django's debug pages.
    os.environ.setdefault("DEBUG", "false")
    (DATA / "mail").mkdir(parents=True, exist_ok=True)
    # A stop signal while the database is prepared ends the step under way (subprocess.run kills it);
    # once the servers run, it is only noted, and the loop below stops them once, however many arrive.
    received: list[int] = []

    def on_signal(signum: int, _frame) -> None:
        received.append(signum)
        if len(received) == 1 and not serving:
            raise Stopping

    serving = False
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, on_signal)
    try:
        prepare()
    except Stopping:
        return 128 + received[0]
    serving = True
    return serve(port, received)


def prepare() -> None:
    manage("migrate", "--noinput", "-v", "0")
    manage("seed_demo")
    manage("collectstatic", "--noinput", "-v", "0")


def serve(port: int, received: list[int]) -> int:
    name = instance.instance_name()
    commands = {
        "web": [
            # Threads, limits and logging: gunicorn.conf.py, shared with production (docker/).
            *(str(VENV_BIN / "gunicorn"), "-c", str(ROOT / "gunicorn.conf.py"), "config.wsgi"),
            *("-b", f"127.0.0.1:{port}", "-w", "2"),
        ],
        "websockets": [str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port + 1), "config.asgi:application"],
        # The instance's own queues only: another instance's tasks on the same Redis are not ours.
        "worker": [
            *(str(VENV_BIN / "celery"), "-A", "config", "worker", "-l", "info", "-c", "2"),
            *instance.worker_arguments(name, only=[name, instance.effects_queue(name)]),
        ],
        # Calendar fetches on a worker of their own: a slow feed never delays a capture or a mail.
        "calendar-worker": [
            *(str(VENV_BIN / "celery"), "-A", "config", "worker", "-l", "info", "-c", "2"),
            *instance.worker_arguments(name, node=f"{name}-calendars", only=[instance.calendars_queue(name)]),
        ],
        "beat": [
            str(VENV_BIN / "celery"),
            "-A",
            "config",
            "beat",
            "-l",
            "info",
            "-s",
            str(DATA / f"celerybeat-schedule-{name}"),
        ],
    }
    processes = {role: subprocess.Popen(command, cwd=ROOT) for role, command in commands.items()}
    print(
        f"\n  Site: http://127.0.0.1:{port}   (instance {name!r}; API docs: /api/docs/, e-mail: .data/mail/)"
        "   Ctrl-C stops everything.\n",
        flush=True,
    )

    def stop(*_args) -> None:
        for process in processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.time() + 10
        for process in processes.values():
            try:
                process.wait(max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                process.kill()

    while not received:
        for role, process in processes.items():
            if process.poll() is not None:
                print(f"{role} stopped (exit {process.returncode}); stopping the rest.", flush=True)
                stop()
                return process.returncode or 1
        time.sleep(0.5)
    stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
