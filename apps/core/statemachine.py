"""One transition helper for every status machine (bookings, extensions, disputes, payments,
refunds, extension charges, payouts, subscriptions, subscription payments, listings, listing
review requests, verification requests).

Each machine is a table of allowed moves::

    BOOKING = StateMachine("booking", {"pending": {"approved", "rejected"}, ...})

and every change goes through ``machine.transition(obj, to, actor=..., reason=...)``: the move is
checked against the table, written with a conditional UPDATE (``WHERE status = <from>``, so a
concurrent change makes it fail instead of being overwritten, even without a row lock), and a
``StatusChange`` row records who, when, from, to and why. Other fields that change with the
status are passed as keyword arguments and written in the same UPDATE.
"""

from collections.abc import Iterable, Mapping

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from .django_internals import prefetched, prefetched_or_empty
from .exceptions import Conflict
from .models import StatusChange


class StateMachine:
    """A table of allowed moves for one kind of record, and the one way to make a move."""

    def __init__(self, name: str, moves: Mapping[str, Iterable[str]], *, field: str = "status", label: str = ""):
        self.name = name
        self.field = field
        self.label = label
        self._table = {str(src): frozenset(map(str, dsts)) for src, dsts in moves.items()}

    @property
    def table(self) -> dict[str, frozenset[str]]:
        return dict(self._table)

    def can(self, from_status: str, to_status: str) -> bool:
        return to_status in self._table.get(str(from_status), frozenset())

    def refusal(self, from_status: str, to_status: str) -> str:
        what = self.label or self.name
        return f"This {what} is {from_status}; it cannot become {to_status}."

    def transition(
        self,
        obj: models.Model,
        to_status: str,
        *,
        actor=None,
        reason: str = "",
        message: str | None = None,
        values: Mapping[str, object] | None = None,
        **fields,
    ) -> models.Model:
        """Move ``obj`` to ``to_status`` (a Conflict with ``message`` when the table or a concurrent
        change refuses), write ``fields`` with it and record the change. ``obj`` is updated in place.
        ``values`` holds fields whose names are this method's own keywords (a ``reason`` field)."""
        from_status = str(getattr(obj, self.field))
        to_status = str(to_status)
        if not self.can(from_status, to_status):
            raise Conflict(message or self.refusal(from_status, to_status))
        values = {self.field: to_status, **(values or {}), **fields}
        names = {f.name for f in obj._meta.concrete_fields}
        if "updated_at" in names and "updated_at" not in values:
            values["updated_at"] = timezone.now()
        model = type(obj)
        changed = model._base_manager.filter(pk=obj.pk, **{self.field: from_status}).update(**values)
        if changed != 1:
            raise Conflict(message or "This changed meanwhile. Please refresh and try again.")
        for name, value in values.items():
            setattr(obj, name, value)
        record(obj, machine=self.name, from_status=from_status, to_status=to_status, actor=actor, reason=reason)
        return obj


_KNOWN = "status_history"


def history_starts(obj: models.Model) -> None:
    """``obj`` was just created: its history is what ``record`` writes for it from now on, so
    ``history(obj)`` answers without reading the database (the creating request's answer). Kept
    with the object's prefetched relations: ``refresh_from_db()`` forgets it, as it forgets them."""
    prefetched(obj)[_KNOWN] = []


def _known(obj: models.Model) -> list | None:
    return prefetched_or_empty(obj).get(_KNOWN)


def record(obj: models.Model, *, machine: str, from_status: str, to_status: str, actor=None, reason: str = ""):
    """Write one history row (also for a record's first status, with ``from_status=""``)."""
    change = StatusChange.objects.create(
        machine=machine,
        content_type=ContentType.objects.get_for_model(type(obj), for_concrete_model=True),
        object_id=str(obj.pk),
        from_status=from_status,
        to_status=to_status,
        actor=actor if getattr(actor, "pk", None) else None,
        reason=(reason or "")[:1000],
    )
    if (known := _known(obj)) is not None:
        known.append(change)
    return change


def history(obj: models.Model) -> list[StatusChange]:
    """The status changes of ``obj``, oldest first, with their actors."""
    if (known := _known(obj)) is not None:
        return list(known)
    return list(
        StatusChange.objects.filter(
            content_type=ContentType.objects.get_for_model(type(obj), for_concrete_model=True), object_id=str(obj.pk)
        )
        .select_related("actor")
        .order_by("created_at", "id")
    )


def history_payload(changes: Iterable[StatusChange]) -> list[dict]:
    """The API shape of a history (``statusHistory`` on detail responses)."""
    return [
        {
            "fromStatus": change.from_status or None,
            "toStatus": change.to_status,
            "reason": change.reason,
            "actor": (
                {
                    "_id": str(change.actor.pk),
                    "firstName": change.actor.first_name,
                    "lastName": change.actor.last_name,
                    "displayName": getattr(change.actor, "display_name", ""),
                    "role": getattr(change.actor, "role", ""),
                }
                if change.actor is not None
                else None
            ),
            "createdAt": change.created_at.isoformat().replace("+00:00", "Z"),
        }
        for change in changes
    ]
