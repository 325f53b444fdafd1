"""The outbox: effects that must happen are written with the change that causes them and carried
out by the worker until they are done, exactly once.

An app registers a handler for each kind of effect it owns (in its ``effects.py``, imported by
its AppConfig)::

    @effect_handler("payments.capture")
    def capture(*, payment_id: str, key: str) -> None: ...

and queues one inside the transaction of the change::

    effect_enqueue("payments.capture", {"payment_id": str(payment.pk)}, key=f"capture:{payment.pk}")

After the transaction commits, a Celery task runs it (late acknowledgement); a periodic sweep
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
import logging
from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import Effect, EffectStatus

logger = logging.getLogger(__name__)

Handler = Callable[..., object]

MAX_ATTEMPTS = 10
# From this many failed attempts an effect is shown to staff as stuck (it keeps retrying until MAX_ATTEMPTS).
STUCK_AFTER = 3
BACKOFF_BASE = dt.timedelta(seconds=30)
BACKOFF_MAX = dt.timedelta(hours=6)

_handlers: dict[str, Handler] = {}


def effect_handler(kind: str) -> Callable[[Handler], Handler]:
    """Register the function that carries out effects of ``kind`` (called with the payload and ``key``)."""

    def register(fn: Handler) -> Handler:
        _handlers[kind] = fn
        return fn

    return register


def registered_kinds() -> list[str]:
    return sorted(_handlers)


def backoff(attempts: int) -> dt.timedelta:
    """30 s, 1 min, 2 min, 4 min ... at most 6 hours between attempts."""
    return min(BACKOFF_BASE * 2 ** max(attempts - 1, 0), BACKOFF_MAX)


def effect_enqueue(kind: str, payload: dict | None = None, *, key: str, delay: dt.timedelta | None = None) -> Effect:
    """Queue an effect in the caller's transaction; run by the worker once it commits.

    The same ``key`` queued twice keeps the first effect (so a retried request or a replayed
    event does not repeat it).
    """
    if kind not in _handlers:
        raise ValueError(f"no handler for effect {kind!r}; register one with @effect_handler")
    values = {"kind": kind, "payload": payload or {}, "next_attempt_at": timezone.now() + (delay or dt.timedelta())}
    try:
        with transaction.atomic():
            effect, created = Effect.objects.get_or_create(key=key, defaults=values)
    except IntegrityError:  # the same key queued at the same moment by another transaction
        return Effect.objects.get(key=key)
    if created and delay is None:
        effect_id = str(effect.pk)
        transaction.on_commit(lambda: _dispatch(effect_id), robust=True)
    return effect


def _dispatch(effect_id: str) -> None:
    from .tasks import run_effect

    try:
        run_effect.delay(effect_id=effect_id)
    except Exception:  # the broker is down: the periodic sweep runs it later
        logger.warning("Could not queue effect %s; the sweep will run it", effect_id, exc_info=True)


def effect_run(effect_id) -> str:
    """Carry out one effect if it is due and no other worker holds it. Returns what happened."""
    with transaction.atomic():
        effect = (
            Effect.objects.select_for_update(skip_locked=True).filter(pk=effect_id, status=EffectStatus.PENDING).first()
        )
        if effect is None:
            return "not pending (done, failed or being run by another worker)"
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


def stuck_effect_count() -> int:
    return stuck_effects().count()


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
    effect_id = str(effect.pk)
    transaction.on_commit(lambda: _dispatch(effect_id), robust=True)
    return effect
