"""A change's effects as the worker runs them: those that reach open pages first, together."""

import pytest
from django.db import transaction

from apps.core import effects
from apps.core.effects import effect_enqueue, effect_handler, effects_batched, effects_run_batch
from apps.core.models import Effect, EffectStatus

pytestmark = pytest.mark.django_db(transaction=True)

calls: list[str] = []


@effect_handler("tests.page", reaches_pages=True)
def _page(*, name: str, fail: bool = False, key: str) -> None:
    calls.append(name)
    Effect.objects.filter(key=key).update(last_error=f"written by {name}")  # a write that must roll back on failure
    if fail:
        raise RuntimeError("layer down")


@effect_handler("tests.other")
def _other(*, name: str, key: str) -> None:
    calls.append(name)


@pytest.fixture(autouse=True)
def _queue_nothing_to_the_broker(monkeypatch):
    monkeypatch.setattr(effects, "_dispatch_on_commit", lambda ids: None)
    calls.clear()


def _queue(*specs) -> list[str]:
    with transaction.atomic(), effects_batched():
        for kind, payload in specs:
            effect_enqueue(kind, payload, key=f"{kind}:{payload['name']}")
    keys = [f"{kind}:{payload['name']}" for kind, payload in specs]
    by_key = dict(Effect.objects.filter(key__in=keys).values_list("key", "pk"))
    return [str(by_key[key]) for key in keys]


def test_effects_that_reach_pages_run_first_and_a_failing_one_is_retried_alone():
    ids = _queue(
        ("tests.other", {"name": "capture"}),
        ("tests.page", {"name": "notification"}),
        ("tests.page", {"name": "counters", "fail": True}),
    )

    assert effects_run_batch(ids) == ["done", "failed", "done"]

    assert calls == ["notification", "counters", "capture"]
    state = {e.key: e for e in Effect.objects.filter(pk__in=ids)}
    assert state["tests.page:notification"].status == EffectStatus.DONE
    assert state["tests.page:notification"].attempts == 1
    failed = state["tests.page:counters"]
    assert (failed.status, failed.attempts) == (EffectStatus.PENDING, 1)
    assert failed.last_error == "RuntimeError: layer down"  # its own write rolled back, the failure recorded
    assert state["tests.other:capture"].status == EffectStatus.DONE


def test_a_repeated_delivery_runs_nothing_again():
    ids = _queue(("tests.page", {"name": "notification"}), ("tests.other", {"name": "mail"}))
    effects_run_batch(ids)
    calls.clear()

    assert effects_run_batch(ids) == ["not pending (done, failed or being run by another worker)"] * 2
    assert calls == []
