"""The API conventions every endpoint follows: the success envelope, `filters[...]` and pages."""

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from .exceptions import InvalidInput
from .policies import PAGE_SIZE


def envelope(data: Any = None, message: str = "", status: int = 200, headers: dict | None = None) -> Response:
    """The success envelope: ``{"message": ..., "data": ...}``."""
    return Response({"message": message, "data": data}, status=status, headers=headers)


def parse_filters(request: Request) -> dict[str, str]:
    """Read ``filters[name]=value`` query parameters into ``{"name": "value"}``; empty values are absent."""
    filters: dict[str, str] = {}
    for key, value in request.query_params.items():
        if key.startswith("filters[") and key.endswith("]") and value.strip() != "":
            filters[key[len("filters[") : -1]] = value.strip()
    return filters


# A private file as it is sent: stored images are re-encoded as JPEG or PNG; documents may be PDFs.
PRIVATE_FILE_RESPONSES = {
    (200, "image/jpeg"): OpenApiTypes.BINARY,
    (200, "image/png"): OpenApiTypes.BINARY,
    (200, "application/pdf"): OpenApiTypes.BINARY,
}
MAX_PAGE = 1_000_000  # far past any list's end, and (page - 1) * limit stays a 64-bit offset


def _positive_int(request: Request, name: str, default: int, *, maximum: int | None = None) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    raw = raw.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", raw):
        raise InvalidInput(f"{name} must be a whole number.", errors={name: [f"{name} must be a whole number."]})
    # Digits past 18 are past any maximum: no huge int is built from them.
    value = int(raw) if len(raw) <= 18 else (-(10**18) if raw.startswith("-") else 10**18)
    if value < 1:
        raise InvalidInput(f"{name} must be 1 or more.", errors={name: [f"{name} must be 1 or more."]})
    if maximum is not None and value > maximum:
        message = f"{name} must be at most {maximum}."
        raise InvalidInput(message, errors={name: [message]})
    return value


@dataclass(frozen=True)
class Page:
    items: list
    total_count: int
    page: int
    limit: int
    capped: bool = False
    """``total_count`` is a bound, not the exact count: there are more matches than it (the public search)."""

    @property
    def total_pages(self) -> int:
        return max(1, -(-self.total_count // self.limit))

    def meta(self) -> dict[str, int]:
        return {"totalCount": self.total_count, "page": self.page, "limit": self.limit, "totalPages": self.total_pages}


def paginate(
    request: Request, queryset: QuerySet | list, *, max_limit: int = PAGE_SIZE, total: int | None = None
) -> Page:
    """Slice one page (``page``, ``limit``; default and maximum ``max_limit``) and count the whole
    (unless the caller already knows ``total``, e.g. from a count the database keeps)."""
    page = _positive_int(request, "page", 1, maximum=MAX_PAGE)
    limit = min(_positive_int(request, "limit", max_limit), max_limit)
    if total is None:
        total = queryset.count() if isinstance(queryset, QuerySet) else len(queryset)
    start = (page - 1) * limit
    return Page(items=list(queryset[start : start + limit]), total_count=total, page=page, limit=limit)


def page_response(
    page: Page, serializer_class: type, key: str, *, message: str = "", context: dict | None = None, **extra: Any
) -> Response:
    data = {key: serializer_class(page.items, many=True, context=context or {}).data, **page.meta(), **extra}
    return envelope(data, message)


# --- OpenAPI helpers ---------------------------------------------------------


def enveloped(name: str, data: Any) -> serializers.Serializer:
    """Describe ``{"message", "data"}`` around ``data`` (a serializer instance or field) in the schema."""
    return inline_serializer(name=name, fields={"message": serializers.CharField(), "data": data})


def enveloped_page(
    name: str, key: str, item_serializer: type, extra: dict[str, serializers.Field] | None = None
) -> serializers.Serializer:
    """A page of ``key`` items; ``extra`` names fields sent beside the page (``page_response(**extra)``)."""
    data = inline_serializer(
        name=f"{name}Data",
        fields={
            key: item_serializer(many=True),
            "totalCount": serializers.IntegerField(),
            "page": serializers.IntegerField(),
            "limit": serializers.IntegerField(),
            "totalPages": serializers.IntegerField(),
            **(extra or {}),
        },
    )
    return enveloped(name, data)


ERROR_ENVELOPE = inline_serializer(
    name="ErrorEnvelope",
    fields={
        "message": serializers.CharField(),
        "errors": serializers.DictField(child=serializers.ListField(child=serializers.CharField())),
    },
)
