"""How an app declares the receivers it connects: one ``subscribers.py`` per app holds a tuple of
``Subscriber`` rows, connected by its ``AppConfig.ready``. ``apps/core/tests/test_subscribers.py`` fails
when a receiver of the project is connected anywhere else, so the list is where a reader finds
what reacts to a signal."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.dispatch import Signal


@dataclass(frozen=True)
class Subscriber:
    signal: Signal
    receiver: Callable
    sender: object
    uid: str


def connect(subscribers: Iterable[Subscriber]) -> None:
    for row in subscribers:
        row.signal.connect(row.receiver, sender=row.sender, dispatch_uid=row.uid, weak=False)
