"""Two instances on one machine and one Redis never take each other's work (config/instance.py,
apps/core/instances.py): every shared name derives from INSTANCE_NAME, and a worker checks at start
that the database it serves is its instance's own."""

import datetime as dt
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from apps.core import instances
from apps.core.models import Effect, InstanceClaim
from apps.core.testing import database_url
from config import instance
from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[3]


# --- Names ---------------------------------------------------------------------------------------


def test_the_instance_is_named_after_its_database_unless_told():
    assert instance.instance_name({"DATABASE_URL": "postgres://u@db:5432/shop"}) == "shop"
    assert instance.instance_name({"DATABASE_URL": "postgres://u@db/shop", "INSTANCE_NAME": "staging"}) == "staging"
    assert instance.instance_name({}) == "spacemarket"
    # Tests: the database pytest-django really uses, also in a process given that database's URL.
    assert instance.instance_name({"DATABASE_URL": "postgres://u@db/shop"}, testing=True) == "test_shop"
    gw1 = {"DATABASE_URL": "postgres://u@db/shop", "PYTEST_XDIST_WORKER": "gw1"}
    assert instance.instance_name(gw1, testing=True) == "test_shop_gw1"
    assert instance.instance_name({**gw1, "DATABASE_URL": "postgres://u@db/test_shop_gw1"}, testing=True) == (
        "test_shop_gw1"
    )
    with pytest.raises(RuntimeError, match="INSTANCE_NAME must be"):
        instance.instance_name({"INSTANCE_NAME": "two words"})


def test_every_shared_name_derives_from_the_instance_name():
    name = settings.INSTANCE_NAME
    assert name == connection.settings_dict["NAME"]  # in tests: the test database's own name
    prefix = os.environ.get("CACHE_KEY_PREFIX") or name
    assert settings.CACHES["default"]["KEY_PREFIX"] == prefix
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] == f"{prefix}:channels"
    assert celery_app.conf.task_default_queue == name
    assert celery_app.conf.control_exchange == name
    assert {queue.name for queue in celery_app.conf.task_queues} == {name, f"{name}.effects", f"{name}.calendars"}
    assert instance.worker_arguments(name) == ["-Q", f"{name},{name}.effects,{name}.calendars", "-n", f"{name}@%h"]


def _queue_of(task_name: str) -> str:
    return celery_app.amqp.router.route({}, task_name)["queue"].name


def test_the_outbox_and_every_scheduled_task_go_to_the_instances_own_queues():
    name = settings.INSTANCE_NAME
    for task_name in ("core.run_effects", "core.run_effect", "core.run_due_effects"):
        assert _queue_of(task_name) == f"{name}.effects"
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert _queue_of(entry["task"]) in (name, f"{name}.effects"), entry["task"]
    # A feed's fetch waits behind no capture, and no capture behind a feed.
    assert _queue_of("bookings.sync_calendar") == f"{name}.calendars"


# --- The start check, in process -----------------------------------------------------------------


@pytest.fixture
def registry():
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, decode_responses=True)
    yield client
    client.delete(instances.registry_key(settings.INSTANCE_NAME), instances.registry_key("elsewhere"))


def test_the_first_worker_claims_an_unclaimed_database_and_registers_it(db, registry):
    serving = instances.check()
    assert InstanceClaim.objects.get().name == settings.INSTANCE_NAME
    assert serving.database.startswith(f"{connection.settings_dict['NAME']} on cluster ")
    assert registry.get(instances.registry_key(settings.INSTANCE_NAME)) == serving.database
    assert 0 < registry.ttl(instances.registry_key(settings.INSTANCE_NAME)) <= instances.REGISTRY_TTL
    assert instances.check() == serving  # the next worker of the same instance passes (and refreshes)


def test_a_database_of_another_instance_is_refused_and_kept(db, registry):
    InstanceClaim.objects.create(name="production")
    with pytest.raises(instances.InstanceMismatch) as refused:
        instances.check()
    assert f"takes the tasks of instance {settings.INSTANCE_NAME!r}" in str(refused.value)
    assert "belongs to instance 'production'" in str(refused.value)
    assert "instance_claim --claim" in str(refused.value)
    assert InstanceClaim.objects.get().name == "production"
    assert registry.get(instances.registry_key(settings.INSTANCE_NAME)) is None  # not registered either


def test_a_second_database_under_the_same_name_on_one_redis_is_refused(db, registry):
    key = instances.registry_key(settings.INSTANCE_NAME)
    registry.set(key, "spacemarket on cluster 42", ex=60)
    with pytest.raises(
        instances.InstanceMismatch, match=r"already runs on this Redis .* against database 'spacemarket on"
    ):
        instances.check()
    assert registry.get(key) == "spacemarket on cluster 42"


def test_in_development_a_mismatch_is_logged_and_the_worker_goes_on(db, registry, settings, caplog):
    settings.INSTANCE_CHECK = "warn"
    InstanceClaim.objects.create(name="production")
    with caplog.at_level(logging.ERROR, logger="apps.core.instances"):
        assert instances.check_at_worker_start() is None
    assert "belongs to instance 'production'" in caplog.text and "the worker starts anyway" in caplog.text


def test_instance_claim_gives_a_copied_database_to_this_instance(db, registry):
    from django.core.management import call_command

    InstanceClaim.objects.create(name="production")
    call_command("instance_claim", "--claim", stdout=open(os.devnull, "w"))  # noqa: SIM115
    assert InstanceClaim.objects.get().name == settings.INSTANCE_NAME
    instances.check()


# --- Real workers --------------------------------------------------------------------------------

WORKER = (sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-l", "WARNING")
WORKER_FLAGS = ("--without-gossip", "--without-mingle", "--without-heartbeat")


def _database_url(name: str) -> str:
    return database_url(name)


def _instance_env(name: str, database: str) -> dict:
    return {
        **os.environ,
        "DJANGO_ENV": "test",
        "INSTANCE_NAME": name,
        "DATABASE_URL": _database_url(database),
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    }


def _start_worker(name: str, database: str, log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        return subprocess.Popen(  # noqa: S603  (this interpreter running Celery)
            [*WORKER, *WORKER_FLAGS, *instance.worker_arguments(name)],
            cwd=ROOT,
            env=_instance_env(name, database),
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _admin(sql: str) -> None:
    with psycopg.connect(database_url("postgres"), autocommit=True) as admin:
        admin.execute(sql)


def _statuses(conn, keys: list[str]) -> dict[str, str]:
    rows = conn.execute(
        f"SELECT key, status FROM {Effect._meta.db_table} WHERE key = ANY(%s)",  # noqa: S608  (our table)
        (keys,),
    ).fetchall()
    return dict(rows)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_instances_on_one_redis_each_run_only_their_own_effects(tmp_path):
    """Instances a and b share this Redis; b's database is a copy of a's, so each holds the same
    effect rows (same ids). a's worker must run a's effects in a's database, b's worker b's in b's:
    a task taken by the other instance's worker would mark the copy done in the wrong database."""
    name_a, database_a = settings.INSTANCE_NAME, connection.settings_dict["NAME"]
    name_b = database_b = f"{database_a}_b"[:63]
    later = timezone.now() + dt.timedelta(hours=1)  # not due: only the dispatched task runs them, no sweep
    payload = {"groups": ["instances.test"], "event": "ping", "data": {}}
    effects = {
        owner: [
            Effect.objects.create(
                kind="notifications.groups", key=f"{owner}-{n}", payload=payload, next_attempt_at=later
            )
            for n in range(3)
        ]
        for owner in ("a", "b")
    }
    keys = [effect.key for owner in effects.values() for effect in owner]
    connection.close()  # a template database takes no other connections while it is copied
    _admin(f'DROP DATABASE IF EXISTS "{database_b}" WITH (FORCE)')
    # Idle connections that earlier tests' threads left on a's database (an async helper's thread,
    # a websocket consumer's pool) would refuse the copy: end them (they reconnect when used).
    _admin(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "  # noqa: S608  (our own database's name)
        f"WHERE datname = '{database_a}' AND pid <> pg_backend_pid()"
    )
    _admin(f'CREATE DATABASE "{database_b}" TEMPLATE "{database_a}"')
    workers = []
    eager = celery_app.conf.task_always_eager
    try:
        workers = [
            _start_worker(name_a, database_a, tmp_path / "a.log"),
            _start_worker(name_b, database_b, tmp_path / "b.log"),
        ]
        # Each instance hands its effects to the broker as the site does after a commit: a with this
        # process's settings (a's), b on b's effects queue (as b's settings declare it).
        celery_app.conf.task_always_eager = False
        from apps.core.tasks import run_effects

        run_effects.delay(effect_ids=[str(effect.pk) for effect in effects["a"]])
        run_effects.apply_async(
            kwargs={"effect_ids": [str(effect.pk) for effect in effects["b"]]},
            queue=instance.celery_queues(name_b)[1],
        )
        assert instance.celery_queues(name_b)[1].name == f"{name_b}.effects"

        expected = {
            database_a: {key: "done" if key.startswith("a-") else "pending" for key in keys},
            database_b: {key: "done" if key.startswith("b-") else "pending" for key in keys},
        }
        watch = {database: psycopg.connect(_database_url(database), autocommit=True) for database in expected}
        deadline = time.monotonic() + 90  # a worker starts in 3 s on a quiet machine, 30 s on a busy one
        while time.monotonic() < deadline:
            seen = {database: _statuses(conn, keys) for database, conn in watch.items()}
            if seen == expected or any(worker.poll() is not None for worker in workers):
                break
            time.sleep(0.5)
        for conn in watch.values():
            conn.close()
        logs = {log.name: log.read_text(errors="replace")[-3000:] for log in tmp_path.glob("*.log")}
        assert seen == expected, f"effects by database: {seen}\nworker logs: {logs}"
        with psycopg.connect(_database_url(database_b)) as conn:
            assert conn.execute("SELECT name FROM core_instanceclaim").fetchone() == (name_b,)
    finally:
        celery_app.conf.task_always_eager = eager
        for worker in workers:
            _stop(worker)
        _admin(f'DROP DATABASE IF EXISTS "{database_b}" WITH (FORCE)')
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(
            instances.registry_key(name_a), instances.registry_key(name_b)
        )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_refuses_to_start_on_another_instances_database(tmp_path):
    InstanceClaim.objects.create(name="production")
    connection.close()
    log = tmp_path / "worker.log"
    worker = _start_worker(settings.INSTANCE_NAME, connection.settings_dict["NAME"], log)
    try:
        code = worker.wait(90)
    finally:
        _stop(worker)
    output = log.read_text(errors="replace")
    assert code == 78, output
    assert "The worker refuses to start" in output
    assert "belongs to instance 'production'" in output
    assert InstanceClaim.objects.get().name == "production"
