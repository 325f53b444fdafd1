"""The outbox: effects that must happen are written with the change that causes them and carried
out by the worker until they are done, exactly once.

An app registers a handler for each kind of effect it owns (in its ``effects.py``, imported by
its AppConfig)::

    @effect_handler("payments.capture")
    def capture(*, payment_id: str, key: str) -> None: ...

and queues one inside the transaction of the change::

    effect_enqueue("payments.capture", {"payment_id": str(payment.pk)}, key=f"capture:{payment.pk}")

After the transaction commits, one Celery task runs the effects it queued (late acknowledgement); a periodic sweep
(and every worker when it starts) runs whatever is due, so an effect whose task was lost, or
whose worker died, still runs. The handler runs in the same transaction that marks the effect
done, with the effect row locked, so a handler's writes and "done" commit together: a worker
killed half-way leaves the effect pending and nothing half-written on our side. Calls to the
outside carry ``key`` as their idempotency key, so a call repeated after such a crash is answered
with the first call's result. A failure rolls the handler back, counts the attempt and schedules
the next one with exponential backoff; after ``MAX_ATTEMPTS`` the effect stops retrying and waits
for staff (the Django admin's list of effects, ``GET /api/effects`` and the ``stuckEffects``
counter), who can retry it.
"""

import datetime as dt
import json
import logging
import threading
from collections.abc import Callable
from contextlib import contextmanager

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from .django_internals import open_savepoints, pending_on_commit
from .eventloop import one_event_loop
from .models import Effect, EffectStatus

logger = logging.getLogger(__name__)

Handler = Callable[..., object]

MAX_ATTEMPTS = 10
# From this many failed attempts an effect is shown to staff as stuck (it keeps retrying until MAX_ATTEMPTS).
STUCK_AFTER = 3
BACKOFF_BASE = dt.timedelta(seconds=30)
BACKOFF_MAX = dt.timedelta(hours=6)

_handlers: dict[str, Handler] = {}
_first: set[str] = set()


def effect_handler(kind: str, *, reaches_pages: bool = False) -> Callable[[Handler], Handler]:
    """Register the function that carries out effects of ``kind`` (called with the payload and ``key``).

    ``reaches_pages``: the effect updates open pages (a live event, fresh counters); the worker
    runs such effects before the others queued by the same change, so people see it at once.
    """

    def register(fn: Handler) -> Handler:
        _handlers[kind] = fn
        if reaches_pages:
            _first.add(kind)
        return fn

    return register


def backoff(attempts: int) -> dt.timedelta:
    """30 s, 1 min, 2 min, 4 min ... at most 6 hours between attempts."""
    return min(BACKOFF_BASE * 2 ** max(attempts - 1, 0), BACKOFF_MAX)


class _Batch(threading.local):
    depth = 0
    rows: list | None = None


_batch = _Batch()


@contextmanager
def effects_batched():
    """Write every effect queued inside the block in one statement when the block ends.

    A change that queues several effects (a booking approval: the renter's notification, the
    counters, the payment capture) costs one round trip to PostgreSQL for all of them instead of
    one each. Nested blocks join the outermost one; an exception discards what the block queued
    (the transaction it belongs to rolls back anyway).
    """
    if _batch.depth == 0:
        _batch.rows = []
    _batch.depth += 1
    try:
        yield
        if _batch.depth == 1 and _batch.rows:
            _insert(_batch.rows)
    finally:
        _batch.depth -= 1
        if _batch.depth == 0:
            _batch.rows = None


def effect_enqueue(kind: str, payload: dict | None = None, *, key: str, delay: dt.timedelta | None = None) -> Effect:
    """Queue an effect in the caller's transaction; run by the worker once it commits.

    The same ``key`` queued twice keeps the first effect (so a retried request or a replayed
    event does not repeat it). Inside ``effects_batched()`` the row is written when the block
    ends (the returned effect is then not saved yet).
    """
    if kind not in _handlers:
        raise ValueError(f"no handler for effect {kind!r}; register one with @effect_handler")
    now = timezone.now()
    effect = Effect(kind=kind, key=key, payload=payload or {}, next_attempt_at=now + (delay or dt.timedelta()))
    effect.created_at = now
    if _batch.depth:
        _batch.rows.append((effect, delay is None))
    else:
        _insert([(effect, delay is None)])
    return effect


_COLUMNS = ("id", "kind", "key", "payload", "status", "attempts", "next_attempt_at", "last_error", "created_at")


def _insert(rows: list[tuple[Effect, bool]]) -> None:
    """One ``INSERT ... ON CONFLICT (key) DO NOTHING``: a key already queued keeps its first effect
    (no error, so no savepoint is needed around it); the new ones are dispatched on commit."""
    table = Effect._meta.db_table
    values = ", ".join(["(%s, %s, %s, %s::jsonb, %s, %s, %s, %s, %s)"] * len(rows))
    params: list = []
    for effect, _ in rows:
        params += [
            effect.pk,
            effect.kind,
            effect.key,
            json.dumps(effect.payload, cls=DjangoJSONEncoder),
            EffectStatus.PENDING,
            0,
            effect.next_attempt_at,
            "",
            effect.created_at,
        ]
    sql = (
        f'INSERT INTO "{table}" ({", ".join(_COLUMNS)}) VALUES {values} '  # noqa: S608  (names are ours)
        'ON CONFLICT ("key") DO NOTHING RETURNING "id"'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        created = {row[0] for row in cursor.fetchall()}
    due_now = [str(effect.pk) for effect, now in rows if now and effect.pk in created]
    if due_now:
        _dispatch_on_commit(due_now)


class _Dispatch:
    """The on-commit callback that hands a transaction's new effects to the worker: one task for
    all of them, so one round trip to the broker whatever the change queued."""

    def __init__(self) -> None:
        self.effect_ids: list[str] = []
        self.sent = False

    def __call__(self) -> None:
        from .tasks import run_effects

        self.sent = True
        try:
            run_effects.delay(effect_ids=self.effect_ids)
        except Exception:  # the broker is down: the periodic sweep runs them later
            logger.warning("Could not queue effects %s; the sweep will run them", self.effect_ids, exc_info=True)


def _dispatch_on_commit(effect_ids: list[str]) -> None:
    conn = transaction.get_connection()
    if conn.in_atomic_block:
        # Join the dispatch already registered at this same depth of the transaction (one inside
        # a savepoint that rolled back is gone, and a new one is registered).
        current = open_savepoints(conn)
        for savepoints, callback in pending_on_commit(conn):
            # (One already sent is not joined: a caller that ran the callbacks early, as the
            # tests' captureOnCommitCallbacks does, leaves it in the list.)
            if isinstance(callback, _Dispatch) and not callback.sent and savepoints == current:
                callback.effect_ids += effect_ids
                return
    dispatch = _Dispatch()
    dispatch.effect_ids += effect_ids
    transaction.on_commit(dispatch, robust=True)


def effects_run_batch(effect_ids: list[str]) -> list[str]:
    """Run the effects one change queued, those that reach open pages first. Their live events share
    one event loop, so the channel layer connects to Redis once for the whole batch.

    The effects that reach pages run together in one transaction (one lock, one commit: the second
    page does not wait for the first effect's commit), each handler in its own savepoint so one that
    fails is rolled back and retried alone. The others each run in their own transaction
    (``effect_run``). Returns what happened to each, pages first.
    """
    with one_event_loop():
        ran, results = _run_pages_together(effect_ids)
        return results + [effect_run(effect_id) for effect_id in effect_ids if str(effect_id) not in ran]


def _run_pages_together(effect_ids: list[str]) -> tuple[set[str], list[str]]:
    """Lock the batch's pending effects that reach pages (one query, no lookup of kinds first), run
    them in the queued order and mark the successful ones done in one UPDATE; one commit."""
    with transaction.atomic():
        held = {
            str(effect.pk): effect
            for effect in Effect.objects.select_for_update(skip_locked=True).filter(
                pk__in=effect_ids, status=EffectStatus.PENDING, kind__in=_first
            )
        }
        results = []
        done = []
        for effect_id in effect_ids:
            effect = held.get(str(effect_id))
            if effect is None:
                continue
            outcome = _attempt(effect, save_done=False)
            if outcome == "done":
                done.append(effect.pk)
            results.append(outcome)
        if done:
            Effect.objects.filter(pk__in=done).update(
                status=EffectStatus.DONE, done_at=timezone.now(), attempts=F("attempts") + 1
            )
        return set(held), results


NOT_PENDING = "not pending (done, failed or being run by another worker)"


def effect_run(effect_id) -> str:
    """Carry out one effect if it is due and no other worker holds it. Returns what happened."""
    with transaction.atomic():
        effect = (
            Effect.objects.select_for_update(skip_locked=True).filter(pk=effect_id, status=EffectStatus.PENDING).first()
        )
        if effect is None:
            return NOT_PENDING
        return _attempt(effect)


def _attempt(effect: Effect, *, save_done: bool = True) -> str:
    """Run the handler of a locked effect in a savepoint and record the outcome (a success is saved
    only if ``save_done``; the caller then marks it done itself)."""
    handler = _handlers.get(effect.kind)
    effect.attempts += 1
    try:
        if handler is None:
            raise LookupError(f"no handler for effect {effect.kind!r}")
        with transaction.atomic():
            handler(**effect.payload, key=effect.key)
    except Exception as exc:  # noqa: BLE001  (any failure is recorded and retried)
        effect.last_error = f"{type(exc).__name__}: {exc}"[:4000]
        if effect.attempts >= MAX_ATTEMPTS:
            effect.status = EffectStatus.FAILED
            logger.error("Effect %s %s stopped after %s attempts: %s", effect.kind, effect.pk, effect.attempts, exc)
        else:
            effect.next_attempt_at = timezone.now() + backoff(effect.attempts)
            logger.warning("Effect %s %s failed (attempt %s): %s", effect.kind, effect.pk, effect.attempts, exc)
        effect.save(update_fields=["attempts", "last_error", "status", "next_attempt_at"])
        return "failed"
    if save_done:
        effect.status = EffectStatus.DONE
        effect.done_at = timezone.now()
        effect.save(update_fields=["attempts", "status", "done_at"])
    return "done"


def effects_run_due(*, now: dt.datetime | None = None, limit: int = 500) -> int:
    """Run every pending effect whose time has come (the periodic sweep). Returns how many ran."""
    now = now or timezone.now()
    ids = list(
        Effect.objects.filter(status=EffectStatus.PENDING, next_attempt_at__lte=now)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(effect_run(effect_id) == "done" for effect_id in ids)


# --- For staff -------------------------------------------------------------------------------------


def stuck_effects() -> QuerySet[Effect]:
    """Effects that stopped retrying, or that failed at least ``STUCK_AFTER`` times and still try."""
    return Effect.objects.filter(
        Q(status=EffectStatus.FAILED) | Q(status=EffectStatus.PENDING, attempts__gte=STUCK_AFTER)
    )


@transaction.atomic
def effect_retry(*, effect_id) -> Effect:
    """Staff ask for another try now (a failed effect gets a fresh round of attempts)."""
    effect = Effect.objects.select_for_update().get(pk=effect_id)
    if effect.status == EffectStatus.DONE:
        return effect
    effect.status = EffectStatus.PENDING
    effect.next_attempt_at = timezone.now()
    effect.attempts = 0
    effect.save(update_fields=["status", "next_attempt_at", "attempts"])
    _dispatch_on_commit([str(effect.pk)])
    return effect
