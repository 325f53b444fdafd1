"""Check a JSON response against a component of the committed OpenAPI schema (docs/openapi.yaml).

For tests: every object is closed (a key the schema does not declare fails), ``nullable`` is
honoured, and ``$ref`` resolves within the document. This keeps the schema the front end's types
are generated from true to what the API sends.
"""

import functools
from datetime import datetime
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from django.conf import settings


@functools.cache
def _document() -> dict:
    return yaml.safe_load((Path(settings.BASE_DIR) / "docs" / "openapi.yaml").read_text())


def _to_json_schema(node: Any) -> Any:
    if isinstance(node, list):
        return [_to_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _to_json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False):
        if "$ref" in node or "allOf" in node or "oneOf" in node:
            node = {"anyOf": [dict(node), {"type": "null"}]}
        elif "type" in node:
            node["type"] = [node["type"], "null"]
            if "enum" in node:
                node["enum"] = [*node["enum"], None]
    if node.get("type") == "object" and "properties" in node and "additionalProperties" not in node:
        node["additionalProperties"] = False
    node.pop("readOnly", None)
    node.pop("writeOnly", None)
    return node


@functools.cache
def _components() -> dict:
    return _to_json_schema(_document()["components"]["schemas"])


def check(component: str, data: Any) -> None:
    """Raise ``jsonschema.ValidationError`` when ``data`` does not match ``component``."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": {"schemas": _components()}}
    jsonschema.validate(data, schema, format_checker=_formats())


def _is_datetime(value: object) -> bool:
    if not isinstance(value, str):
        return True
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return "T" in value


@functools.cache
def _formats() -> jsonschema.FormatChecker:
    """Dates, date-times and ids are checked by format (an e-mail field may be sent empty)."""
    checker = jsonschema.FormatChecker(formats=("date", "uuid"))
    checker.checks("date-time")(_is_datetime)
    return checker
