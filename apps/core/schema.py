"""Finishing touches on the generated OpenAPI schema, so it says what the API enforces.

Applied to every operation (one place instead of each view's parameter list):
- ``page`` and ``limit`` are whole numbers of at least 1; ``page`` at most ``MAX_PAGE``.
- Parameters with a fixed vocabulary everywhere they appear get their enum: the statistics
  ``interval`` (week, month, year), ``property_type`` (all, eventSpace, officeSpace) and
  ``filters[period]`` (daily, weekly, monthly).
- Every operation documents 400 (a bad query or body) and 413/414 (a body or query over the
  limits), answered by the guards every request passes; one that takes a body documents 415 (a
  content type its parsers do not read).
- An operation takes JSON only unless its input has a file (``map_parsers``).
- An optional query parameter may be sent empty (``allowEmptyValue``): the API reads ``?name=`` as
  leaving it out, as the forms treat an empty field as absent.
"""

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema

from .api import MAX_PAGE
from .parsers import FORM_MEDIA_TYPES, takes_json_only

FIXED_VALUES = {
    ("path", "interval"): ["week", "month", "year"],
    ("path", "property_type"): ["all", "eventSpace", "officeSpace"],
    ("query", "filters[period]"): ["daily", "weekly", "monthly"],
}
GUARD_STATUSES = {
    "400": "The request could not be read or a value is not valid.",
    "413": "The request body is too large.",
    "414": "The query string is too long.",
    "415": "The body's content type is not one the operation reads.",
}


GUARD_RESPONSES = {"400": "BadRequest", "413": "PayloadTooLarge", "414": "QueryTooLong"}
BODY_RESPONSES = {"415": "UnsupportedMediaType"}


def finish_schema(result, generator, request, public):
    components = result.setdefault("components", {})
    error = (
        {"$ref": "#/components/schemas/ErrorEnvelope"}
        if "ErrorEnvelope" in components.get("schemas", {})
        else {"type": "object"}
    )
    shared = components.setdefault("responses", {})
    for status, name in {**GUARD_RESPONSES, **BODY_RESPONSES}.items():
        shared[name] = {"description": GUARD_STATUSES[status], "content": {"application/json": {"schema": error}}}
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.setdefault("schema", {})
                name, place = parameter.get("name"), parameter.get("in")
                if place == "query" and name in ("page", "limit") and schema.get("type") == "integer":
                    schema["minimum"] = 1
                    if name == "page":
                        schema["maximum"] = MAX_PAGE
                if place == "query" and not parameter.get("required"):
                    parameter["allowEmptyValue"] = True
                values = FIXED_VALUES.get((place, name))
                if values and schema.get("type") == "string" and "enum" not in schema:
                    schema["enum"] = values
            guards = {**GUARD_RESPONSES, **BODY_RESPONSES} if "requestBody" in operation else GUARD_RESPONSES
            for status, name in guards.items():
                operation["responses"].setdefault(status, {"$ref": f"#/components/responses/{name}"})
    return result


class AutoSchema(BaseAutoSchema):
    """drf-spectacular's schema, which also documents the body of a DELETE on a view that says it
    reads one (``delete_body = True``; ``DELETE /api/media/remove`` takes the paths to remove), so
    the generated client types it."""

    def map_parsers(self):
        """The content types the operation reads: JSON only unless its input has a file (what
        ``apps.core.parsers.ContentNegotiation`` enforces)."""
        types = super().map_parsers()
        if takes_json_only(self.get_request_serializer()):
            types = [media_type for media_type in types if media_type not in FORM_MEDIA_TYPES]
        return types

    def _get_request_body(self, direction="request"):
        if self.method != "DELETE" or not getattr(self.view, "delete_body", False):
            return super()._get_request_body(direction)
        self.method = "POST"  # the base class reads a body for unsafe methods only
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"
