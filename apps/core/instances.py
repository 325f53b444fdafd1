"""A worker's check at start: the database it serves is the one its queues belong to.

An instance (``settings.INSTANCE_NAME``, config/instance.py) owns its queues on the broker and its
database. Two checks keep one instance's work away from another's data:

- the database says which instance it belongs to (``InstanceClaim``, claimed by the first worker
  that serves it): a worker of instance ``a`` pointed at instance ``b``'s database would run ``a``'s
  effects against ``b``'s rows;
- the broker's Redis keeps a registry, instance name -> the database serving it, refreshed while a
  worker runs: a second instance with the same name (two sites whose databases are both called
  ``spacemarket``, on one managed Redis) would share queues and take each other's tasks.

On a mismatch the worker refuses to start (production and tests) or says so loudly and goes on
(development: ``settings.INSTANCE_CHECK``).
"""

import logging
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction

from config import instance

from .models import InstanceClaim

logger = logging.getLogger(__name__)

# How long the registry remembers a running instance's database without a refresh (a worker
# refreshes it every REGISTRY_REFRESH seconds), so an instance that stopped frees its name soon.
REGISTRY_TTL = 120
REGISTRY_REFRESH = 30


class InstanceMismatch(RuntimeError):
    """The worker would serve another instance's database, or share its queues with another database."""


@dataclass(frozen=True)
class Serving:
    name: str  # the instance whose queues the worker takes
    database: str  # the database it serves: "<name> on cluster <system identifier>"


def database_identity() -> str:
    """The database this process serves, the same whatever address reaches it: its name and its
    PostgreSQL cluster's system identifier (a copy on another server differs; the same one does not)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        name = cursor.fetchone()[0]
        try:
            with transaction.atomic():
                cursor.execute("SELECT system_identifier::text FROM pg_control_system()")
                cluster = cursor.fetchone()[0]
        except DatabaseError:  # a managed server may hide it: the server's address then stands for it
            cursor.execute("SELECT coalesce(host(inet_server_addr()), 'local') || ':' || inet_server_port()")
            cluster = cursor.fetchone()[0]
    return f"{name} on cluster {cluster}"


def registry_key(name: str) -> str:
    return f"instances:{name}"


def _broker_redis():
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None  # another broker: its virtual host keeps instances apart
    import redis

    return redis.Redis.from_url(url, socket_timeout=5, decode_responses=True)


def claim_database(name: str) -> str:
    """The instance this database belongs to: claimed for ``name`` if no worker served it yet."""
    claim = InstanceClaim.objects.filter(pk=1).first()
    if claim is None:
        try:
            with transaction.atomic():
                claim = InstanceClaim.objects.create(pk=1, name=name)
        except IntegrityError:  # another worker claimed it at the same moment
            claim = InstanceClaim.objects.get(pk=1)
    return claim.name


def database_claim_set(name: str) -> None:
    """Give the database to instance ``name`` (a copy of another instance's database that now serves it)."""
    InstanceClaim.objects.update_or_create(pk=1, defaults={"name": name})


def register(serving: Serving, client=None) -> None:
    """Record in the broker's Redis that ``serving.name`` runs on ``serving.database``; refused when
    another database serves that name (and its entry is fresh)."""
    client = client or _broker_redis()
    if client is None:
        return
    key = registry_key(serving.name)
    # Set only if absent; an entry that already names this database is simply refreshed.
    if client.set(key, serving.database, nx=True, ex=REGISTRY_TTL):
        return
    current = client.get(key)
    if current not in (None, serving.database):
        raise InstanceMismatch(
            f"Instance {serving.name!r} already runs on this Redis ({_redacted(settings.CELERY_BROKER_URL)}) "
            f"against database {current!r}; this worker serves {serving.database!r}. Both would take the tasks of "
            f"queues {instance.queues(serving.name)} and run them against the wrong data. Give one of them its own "
            "INSTANCE_NAME (or its own Redis database). If that instance has stopped, its entry lapses within "
            f"{REGISTRY_TTL} seconds."
        )
    client.set(key, serving.database, ex=REGISTRY_TTL)


def check(name: str | None = None) -> Serving:
    """Both checks for a worker of instance ``name`` (default: this one) on this process's database.
    Raises ``InstanceMismatch`` saying what is wrong and how to fix it."""
    name = name or settings.INSTANCE_NAME
    serving = Serving(name=name, database=database_identity())
    owner = claim_database(name)
    if owner != name:
        raise InstanceMismatch(
            f"This worker takes the tasks of instance {name!r} (queues {instance.queues(name)}), but its database "
            f"{serving.database!r} belongs to instance {owner!r}: it would run the work of {name!r} against the "
            f"data of {owner!r}. Point DATABASE_URL at the database of {name!r}, or set INSTANCE_NAME={owner}. If "
            f"this database is a copy that now serves {name!r}, give it to {name!r} with "
            "`manage.py instance_claim --claim`."
        )
    register(serving)
    return serving


def check_at_worker_start() -> Serving | None:
    """The worker's start: both checks; a mismatch stops it (``INSTANCE_CHECK=refuse``) or is logged
    as an error (``warn``). Returns what the worker serves, for the registry's refresh."""
    try:
        serving = check()
    except InstanceMismatch as exc:
        if settings.INSTANCE_CHECK == "refuse":
            raise
        logger.error("%s (INSTANCE_CHECK=warn: the worker starts anyway.)", exc)
        return None
    finally:
        # The worker's processes open their own connections; none is inherited from this check.
        connection.close()
    logger.info("Worker of instance %r on database %r", serving.name, serving.database)
    return serving


def refresh(serving: Serving) -> None:
    """Keep the registry's entry fresh while the worker runs (a Redis hiccup only logs)."""
    try:
        register(serving)
    except InstanceMismatch as exc:
        logger.error("%s", exc)
    except Exception:  # the broker is away for a moment: the next refresh tries again
        logger.warning("Could not refresh instance %r in the registry", serving.name, exc_info=True)


def _redacted(url: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    netloc = parts.hostname or ""
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
