"""A request the site refuses before reading its body leaves the connection usable: the next
request on it is answered (gunicorn, as make run and production start it, over a raw socket)."""

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from apps.core.testing import database_url

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def gunicorn(django_db_setup, django_db_blocker, tmp_path_factory):
    port = _free_port()
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with django_db_blocker.unblock(), log.open("wb") as out:
        server = subprocess.Popen(  # noqa: S603  (this interpreter's gunicorn, the site's own config)
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "gunicorn.conf.py",
                "config.wsgi",
                "-b",
                f"127.0.0.1:{port}",
                "-w",
                "1",
                "--access-logfile",
                "/dev/null",
            ],
            cwd=ROOT,
            env={
                **os.environ,
                "DJANGO_ENV": "test",
                "DATABASE_URL": database_url(settings.DATABASES["default"]["NAME"]),
            },
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert server.poll() is None, log.read_text()
            time.sleep(0.2)
    yield port
    server.terminate()
    server.wait(20)


def _exchange(port: int, first: bytes) -> tuple[list[bytes], list[bytes]]:
    """Send ``first`` and a read of the signed-in user behind it on one connection: the statuses and the
    Connection headers that came back before the server closed it."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
        conn.sendall(first)
        time.sleep(0.3)  # the first answer is out: the client goes on, as a keep-alive client does
        with contextlib.suppress(OSError):
            conn.sendall(b"GET /api/user/me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        received = b""
        while received.count(b"HTTP/1.1 ") < 2:
            try:
                chunk = conn.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            received += chunk
    return re.findall(rb"HTTP/1\.1 (\d+)", received), re.findall(rb"(?i)\r\nconnection: (\S+)", received)


def _post(path: str, body: bytes, length: int | None = None) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body) if length is None else length}\r\n\r\n"
    )
    return head.encode() + body


MEGABYTE_PASSWORD = json.dumps({"email": "someone@example.com", "password": "x" * 1_000_000}).encode()


@pytest.mark.parametrize(
    ("path", "status"),
    [("/api/user/change-password", b"401"), ("/api/user/login", b"400")],
)
def test_the_next_request_after_a_refused_megabyte_body_is_answered(gunicorn, path, status):
    statuses, connection = _exchange(gunicorn, _post(path, MEGABYTE_PASSWORD))
    assert statuses == [status, b"401"], (statuses, connection)
    assert connection == [b"keep-alive", b"keep-alive"]


def test_a_body_over_the_limit_is_refused_and_the_connection_announced_closed(gunicorn):
    too_long = settings.MAX_REQUEST_BODY_BYTES + 1
    statuses, connection = _exchange(gunicorn, _post("/api/user/login", b"x" * 100_000, length=too_long))
    assert statuses == [b"413"] and connection == [b"close"]
