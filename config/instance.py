"""The instance's name and the shared names derived from it (no Django here: scripts import it too).

Several instances of the site may share one machine or one Redis: `make run` beside `make test`,
`make bench` or `make scale-demo`, a staging site beside production on one managed Redis. Every
name they would otherwise share comes from ``INSTANCE_NAME``: the Celery queues (and with them
the outbox's tasks and beat's schedule), the workers' control exchange, the Channels layer's
prefix and the cache's key prefix. Unset, it is the name of the instance's database, so two
instances on two databases never take each other's work. ``apps.core.instances`` checks at a
worker's start that the database it serves is its instance's own.
"""

import os
import re
from urllib.parse import urlsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/spacemarket"
_VALID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def instance_name(environ=None, *, testing: bool = False) -> str:
    """``INSTANCE_NAME`` from the environment, else the database's name.

    In the test profile, the name of the database the tests really use: pytest-django's
    ``test_<name>`` (``test_<name>_gw0`` for an xdist worker). A process a test starts on that
    database (a worker, daphne) is given its URL and so derives the same name."""
    environ = os.environ if environ is None else environ
    name = environ.get("INSTANCE_NAME", "").strip()
    if not name:
        name = database_name(environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
        if testing and not name.startswith("test_"):
            worker = environ.get("PYTEST_XDIST_WORKER", "")
            name = f"test_{name}" + (f"_{worker}" if worker else "")
    if not _VALID.match(name):
        raise RuntimeError(
            f"INSTANCE_NAME must be 1 to 63 letters, digits, '_', '.' or '-' (it names queues and keys), not {name!r}."
        )
    return name


def effects_queue(name: str) -> str:
    """The queue of the outbox's tasks (live events, mail, captures): its own, so a dedicated worker can take it."""
    return f"{name}.effects"


def calendars_queue(name: str) -> str:
    """The queue of imported calendars' fetches: its own, so a slow feed never holds the worker that
    makes the outbox's captures and refunds (`make run` and the container give it a worker of its own)."""
    return f"{name}.calendars"


def queues(name: str) -> list[str]:
    """Every queue an instance's workers consume: the default one (beat's periodic jobs), the
    outbox's and the calendar fetches'."""
    return [name, effects_queue(name), calendars_queue(name)]


def celery_queues(name: str) -> list:
    """The instance's queues as Celery declares them: on one direct exchange named after the instance."""
    from kombu import Exchange, Queue

    exchange = Exchange(name, type="direct")
    return [Queue(queue, exchange, routing_key=queue) for queue in queues(name)]


def worker_arguments(name: str, *, node: str | None = None, only: list[str] | None = None) -> list[str]:
    """The ``celery worker`` options that make a worker take its own instance's work and nothing else
    (``only``: these of its queues)."""
    return ["-Q", ",".join(only or queues(name)), "-n", f"{node or name}@%h"]
