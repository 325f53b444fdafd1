"""`make test`'s check that the site runs on a machine with no PostgreSQL and no Redis.

Runs scripts/services.py as `make run` does, with FORCE_EMBEDDED=1 and DATA_DIR in a new temporary
folder whose parents do not exist yet (a fresh clone has no .data/), on a free Redis port (the
embedded PostgreSQL listens on a Unix socket in its folder). Under it: migrate, seed the demo and
serve the site with gunicorn on a free port. The check waits for /healthz to answer ok from both
stores and for a demo account to log in, then sends SIGTERM to the run's process group, as a
terminal or a process manager would, and checks that every process of the run has ended: the
command, the embedded Redis and PostgreSQL (whose server leaves the group when it starts).

The clone's .data/ and the machine's own servers are not touched. Exit status 0 when all holds.
EMBEDDED_CHECK_TIMEOUT (seconds, default 600) bounds each wait; nothing sleeps for a fixed time.

Usage: python scripts/embedded_check.py
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")
TIMEOUT = float(os.environ.get("EMBEDDED_CHECK_TIMEOUT") or 600)
DEMO_LOGIN = {"email": "renter@example.com", "password": "Demo1234!"}


class CheckFailed(Exception):
    pass


def serve(port: int) -> None:
    """The command services.py wraps: what `make run` does first, then the site alone, briefly."""
    for arguments in (["migrate", "--noinput", "-v", "0"], ["seed_demo"]):
        subprocess.run([PY, "manage.py", *arguments], cwd=ROOT, check=True)
    # gunicorn takes this process's place, so the signals services.py passes on reach it directly.
    site = [GUNICORN, "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1", "--access-logfile", "-"]
    os.execv(GUNICORN, site)  # noqa: S606


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _request(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()


def _wait_healthy(run: subprocess.Popen, port: int) -> dict:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if run.poll() is not None:
            raise CheckFailed(f"the run ended (exit {run.returncode}) before /healthz answered")
        try:
            status, answer = _request(port, "GET", "/healthz")
        except (OSError, http.client.HTTPException, ValueError):
            time.sleep(0.2)
            continue
        if status != 200:
            raise CheckFailed(f"/healthz answered {status}: {answer}")
        return answer
    raise CheckFailed(f"/healthz did not answer within {TIMEOUT:.0f} s")


def _processes(run: subprocess.Popen, pgdata: Path) -> list[psutil.Process]:
    """The run, what it started, and the embedded PostgreSQL (started in a session of its own)."""
    found = [psutil.Process(run.pid)]
    found += found[0].children(recursive=True)
    postmaster_pid = pgdata / "postmaster.pid"
    if not postmaster_pid.exists():
        raise CheckFailed(f"no embedded PostgreSQL runs in {pgdata}")
    postmaster = psutil.Process(int(postmaster_pid.read_text().split()[0]))
    found += [postmaster, *postmaster.children(recursive=True)]
    return found


def _running(process: psutil.Process) -> bool:
    """Alive and not a zombie: an ended PostgreSQL waits, as a zombie, for init to collect it."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _describe(process: psutil.Process) -> str:
    try:
        return f"{process.pid} {' '.join(process.cmdline())[:120]}"
    except psutil.Error:
        return str(process.pid)


def _strays(folder: Path) -> list[psutil.Process]:
    """Processes whose command line names the temporary folder (the embedded PostgreSQL does)."""
    strays = []
    for process in psutil.process_iter(["cmdline"]):
        if any(str(folder) in part for part in process.info["cmdline"] or []):
            strays.append(process)
    return strays


def check() -> None:
    folder = Path(tempfile.mkdtemp(prefix="sm-embedded-"))
    data = folder / "clone" / ".data"
    redis_port, web_port = _free_port(), _free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("CELERY_BROKER_URL", None)
    env.update(
        FORCE_EMBEDDED="1",
        DATA_DIR=str(data),
        EMBEDDED_REDIS_PORT=str(redis_port),
        DJANGO_ENV="development",
        DEBUG="false",
        SITE_URL=f"http://127.0.0.1:{web_port}",
    )
    log_path = folder / "run.log"
    started = time.monotonic()
    command = [PY, "scripts/services.py", "run", "--", PY, "scripts/embedded_check.py", "serve", str(web_port)]
    with log_path.open("w") as log:
        run = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    processes: list[psutil.Process] = []
    try:
        health = _wait_healthy(run, web_port)
        if health.get("status") != "ok":
            raise CheckFailed(f"/healthz: {health}")
        status, answer = _request(web_port, "POST", "/api/user/login", DEMO_LOGIN)
        if status != 200 or not answer.get("data", {}).get("token"):
            raise CheckFailed(f"the demo account {DEMO_LOGIN['email']} could not log in ({status}): {answer}")
        processes = _processes(run, data / "pg")
        serving = time.monotonic()
        print(
            f"embedded PostgreSQL and Redis started in an empty folder, migrated, demo seeded, /healthz ok and "
            f"{DEMO_LOGIN['email']} logged in after {serving - started:.1f} s ({len(processes)} processes)"
        )

        os.killpg(run.pid, signal.SIGTERM)
        try:
            run.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"the run did not stop within {TIMEOUT:.0f} s of SIGTERM") from None
        _gone, alive = psutil.wait_procs(processes, timeout=10)
        alive += [process for process in _strays(folder) if process not in alive]
        alive = [process for process in alive if _running(process)]
        if alive:
            names = ", ".join(_describe(process) for process in alive)
            raise CheckFailed(f"still running after SIGTERM to the run's group: {names}")
        if run.returncode != 0:
            raise CheckFailed(f"the run ended with exit {run.returncode} after SIGTERM (0 expected)")
        for port in (redis_port, web_port):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    raise CheckFailed(f"something still listens on 127.0.0.1:{port}")
        print(f"SIGTERM to the run's group stopped all of it in {time.monotonic() - serving:.1f} s; none left running")
    except (CheckFailed, psutil.Error) as failure:
        print(f"embedded check FAILED: {failure}\n--- the run's output (last 60 lines):", file=sys.stderr)
        print("\n".join(log_path.read_text(errors="replace").splitlines()[-60:]), file=sys.stderr)
        raise
    finally:
        _kill_all([*processes, *_strays(folder)], run)
        shutil.rmtree(folder, ignore_errors=True)


def _kill_all(processes: list[psutil.Process], run: subprocess.Popen) -> None:
    """After a failure, leave nothing behind: the run's group, then anything it started elsewhere."""
    if run.poll() is None:
        with contextlib.suppress(psutil.Error):
            processes = [*processes, *psutil.Process(run.pid).children(recursive=True)]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
        run.wait()
    for process in processes:
        with contextlib.suppress(psutil.Error):
            process.kill()


def main() -> int:
    if sys.argv[1:2] == ["serve"]:
        serve(int(sys.argv[2]))
        return 0
    try:
        check()
    except (CheckFailed, psutil.Error):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
