"""A real websocket server for browser tests: daphne on the test database and the test Redis."""

import os
import socket
import subprocess
import sys
import time

import pytest

from apps.core.testing import database_url


def _free_port() -> int:
    for port in range(8150, 8199):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise RuntimeError("No free port from 8150 to 8198 for the websocket server.")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test that ran daphne shows daphne's output beside its own."""
    report = yield
    log_path = getattr(item, "daphne_log", None)
    if report.failed and log_path is not None:
        report.sections.append(("daphne's output", _tail(log_path) or "(nothing)"))
    return report


def _tail(path, size: int = 4000) -> str:
    return path.read_bytes()[-size:].decode(errors="replace") if path.exists() else ""


@pytest.fixture
def websocket_server(live_server, settings, request, tmp_path):
    """daphne serving /ws/ for the live server's pages (same database, Redis and cookies' host).

    daphne's output goes to a file (a pipe nobody reads would block a chatty server); it is
    shown when the server does not start or the test fails.
    """
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_ENV": "test",
        # The server this run reached, over TCP or the embedded PostgreSQL's socket (FORCE_EMBEDDED=1).
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "TEST_REDIS_DB": settings.REDIS_URL.rsplit("/", 1)[-1],
        "PYTEST_XDIST_WORKER": "",
    }
    log_path = request.node.daphne_log = tmp_path / "daphne.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(  # noqa: S603 (a fixed command line: this interpreter running daphne)
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait(timeout=10)
            raise RuntimeError(f"daphne did not start:\n{_tail(log_path)}")
        time.sleep(0.2)
    # The pages' host is "localhost": the socket goes to the same host so the session cookie goes too.
    settings.WEBSOCKET_URL = f"ws://localhost:{port}/ws/"
    yield settings.WEBSOCKET_URL
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
