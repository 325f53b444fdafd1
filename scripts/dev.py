"""`make run`: prepare the database and serve the site with its worker, scheduler and websockets.

HTTP (gunicorn, WSGI) on :8000, websockets (daphne, ASGI) on :8001, a Celery worker and Celery beat.
Ctrl-C stops them all.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
PY = str(VENV_BIN / "python")


def manage(*args: str) -> None:
    subprocess.run([PY, "manage.py", *args], cwd=ROOT, check=True)


def main() -> int:
    os.environ.setdefault("DJANGO_ENV", "development")
    # The site as visitors see it (real not-found and error pages); DEBUG=true make run for Django's debug pages.
    os.environ.setdefault("DEBUG", "false")
    (ROOT / ".data" / "mail").mkdir(parents=True, exist_ok=True)
    manage("migrate", "--noinput", "-v", "0")
    manage("seed_demo")
    manage("collectstatic", "--noinput", "-v", "0")

    commands = {
        "web": [
            str(VENV_BIN / "gunicorn"),
            "config.wsgi",
            "-b",
            "127.0.0.1:8000",
            "-w",
            "2",
            "--threads",
            "4",
            # The site answers an over-long query with a JSON 414 (gunicorn's own limit answers HTML).
            "--limit-request-line",
            "0",
            "--access-logfile",
            "-",
        ],
        "websockets": [str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", "8001", "config.asgi:application"],
        "worker": [str(VENV_BIN / "celery"), "-A", "config", "worker", "-l", "info", "-c", "2"],
        "beat": [
            str(VENV_BIN / "celery"),
            "-A",
            "config",
            "beat",
            "-l",
            "info",
            "-s",
            str(ROOT / ".data" / "celerybeat-schedule"),
        ],
    }
    processes = {name: subprocess.Popen(command, cwd=ROOT) for name, command in commands.items()}
    print(
        "\n  Site: http://127.0.0.1:8000   (API docs: /api/docs/, e-mail: .data/mail/)   Ctrl-C stops everything.\n",
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

    signal.signal(signal.SIGTERM, lambda *a: (stop(), sys.exit(0)))
    try:
        while True:
            for name, process in processes.items():
                if process.poll() is not None:
                    print(f"{name} stopped (exit {process.returncode}); stopping the rest.", flush=True)
                    stop()
                    return process.returncode or 1
            time.sleep(1)
    except KeyboardInterrupt:
        stop()
        return 0


if __name__ == "__main__":
    sys.exit(main())
