"""Checks values against the contracts' components of the generated OpenAPI schema (island props,
live events: apps/dashboard/contracts.py)."""

import functools
import json

from django.core.serializers.json import DjangoJSONEncoder
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator

from apps.dashboard.contracts import EVENT_PREFIX, LIVE_EVENTS


def _json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema's null type."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False):
        return {"anyOf": [node, {"type": "null"}]}
    return node


@functools.cache
def contract_schemas() -> dict:
    return _json_schema(SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"])


def plain(value):
    """``value`` as the page receives it (JSON)."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def errors_against(component: str, value) -> list[str]:
    """What in ``value`` does not match the schema's ``component`` (none: it matches)."""
    validator = Draft202012Validator(
        {"$ref": f"#/components/schemas/{component}", "components": {"schemas": contract_schemas()}}
    )
    return [f"{'/'.join(map(str, error.path))}: {error.message}" for error in validator.iter_errors(plain(value))]


def check_live_event(event: str, data) -> None:
    """Fail unless ``event`` is declared and ``data`` matches its ``LiveEvent<Name>`` component."""
    assert event in LIVE_EVENTS, f"live event {event!r} is not declared in apps/dashboard/contracts.py"
    component = LIVE_EVENTS[event].__name__
    assert component.startswith(EVENT_PREFIX)
    errors = errors_against(component, data)
    assert not errors, f"live event {event!r}: {errors}"
