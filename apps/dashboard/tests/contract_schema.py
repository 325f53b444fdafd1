"""Checks values against the contracts' components of the committed OpenAPI schema (island props, live
events and commands: apps/dashboard/contracts.py), with the API's own check (apps/core/schema_check.py: every object
closed, ``nullable`` honoured)."""

import functools
import json
from pathlib import Path

import jsonschema
import yaml
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder

from apps.core import schema_check
from apps.dashboard.contracts import EVENT_PREFIX, LIVE_COMMANDS, LIVE_EVENTS


@functools.cache
def contract_schemas() -> dict:
    """The committed schema's components."""
    return yaml.safe_load((Path(settings.BASE_DIR) / "docs" / "openapi.yaml").read_text())["components"]["schemas"]


def plain(value):
    """``value`` as the page receives it (JSON)."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def errors_against(component: str, value) -> list[str]:
    """What in ``value`` does not match the schema's ``component`` (none: it matches)."""
    try:
        schema_check.check(component, plain(value))
    except jsonschema.ValidationError as error:
        return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}"]
    return []


def check_live_event(event: str, data) -> None:
    """Fail unless ``event`` is declared and ``data`` matches its ``LiveEvent<Name>`` component."""
    assert event in LIVE_EVENTS, f"live event {event!r} is not declared in apps/dashboard/contracts.py"
    component = LIVE_EVENTS[event].__name__
    assert component.startswith(EVENT_PREFIX)
    errors = errors_against(component, data)
    assert not errors, f"live event {event!r}: {errors}"


def check_live_command(command: str, data) -> None:
    """Fail unless ``command`` is declared and ``data`` matches its ``LiveCommand<Name>`` component and
    passes its serializer (what the socket validates it with)."""
    assert command in LIVE_COMMANDS, f"live command {command!r} is not declared in apps/dashboard/contracts.py"
    errors = errors_against(LIVE_COMMANDS[command].__name__, data)
    assert not errors, f"live command {command!r}: {errors}"
    valid = LIVE_COMMANDS[command](data=data)
    assert valid.is_valid(), f"live command {command!r}: {valid.errors}"
