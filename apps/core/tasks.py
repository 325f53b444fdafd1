from celery import shared_task
from celery.signals import worker_ready

from .effects import effect_run, effects_run_batch, effects_run_due
from .eventloop import one_event_loop


@shared_task(name="core.run_effect", acks_late=True, ignore_result=True)
def run_effect(*, effect_id: str) -> str:
    """Carry out one queued effect (apps.core.effects); a repeat delivery changes nothing."""
    with one_event_loop(keep=True):
        return effect_run(effect_id)


@shared_task(name="core.run_effects", acks_late=True, ignore_result=True)
def run_effects(*, effect_ids: list[str]) -> list[str]:
    """Carry out the effects one change queued (apps.core.effects); a repeat delivery changes nothing.
    The worker's loop stays open from one task to the next, so live events go out on connections
    already open."""
    with one_event_loop(keep=True):
        return effects_run_batch(effect_ids)


@shared_task(name="core.run_due_effects", acks_late=True, ignore_result=True)
def run_due_effects() -> int:
    """The sweep: every pending effect whose time has come (retries, and tasks a dead worker lost)."""
    with one_event_loop(keep=True):
        return effects_run_due()


@worker_ready.connect
def _sweep_when_a_worker_starts(sender=None, **kwargs) -> None:
    """A worker that starts (again) first runs what a stopped or killed one left pending."""
    run_due_effects.delay()
