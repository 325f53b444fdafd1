"""The one place that reads Django's (and DRF's) private API, each use behind a small function.

Django does not promise these names between releases; ``apps/core/tests/test_django_internals.py``
fails when one of them changes shape, and a test there fails when code elsewhere reaches for them.
"""

from collections.abc import Callable
from typing import Any

from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.utils.html import _json_script_escapes
from rest_framework.request import Request

# The translation table ``json_script`` applies: ``<``, ``>`` and ``&`` as JSON escapes, so the
# text cannot close its ``<script>`` element.
JSON_SCRIPT_ESCAPES: dict[int, str] = _json_script_escapes


def pending_on_commit(connection) -> list[tuple[set[str], Callable[[], Any]]]:
    """The callbacks ``transaction.on_commit`` registered in the open transaction, each with the
    savepoints that were open when it was registered (one inside a rolled-back savepoint is gone)."""
    return [(set(savepoints), callback) for savepoints, callback, _robust in connection.run_on_commit]


def open_savepoints(connection) -> set[str]:
    """The savepoints open now in the connection's transaction."""
    return set(connection.savepoint_ids)


def loaded_relation(instance: Model, name: str) -> Model | None:
    """The object a foreign key ``name`` already holds in memory, without a query (None when not loaded)."""
    return instance._state.fields_cache.get(name)


def prefetched(instance: Model) -> dict[str, Any]:
    """The instance's prefetched relations, by name (the dict ``prefetch_related`` fills and
    ``refresh_from_db`` clears); created empty when there is none, so callers may add to it."""
    if not hasattr(instance, "_prefetched_objects_cache"):
        instance._prefetched_objects_cache = {}
    return instance._prefetched_objects_cache


def prefetched_or_empty(instance: Model) -> dict[str, Any]:
    """The instance's prefetched relations, read only (an empty dict when there is none)."""
    return getattr(instance, "_prefetched_objects_cache", {})


def response_csp(response: HttpResponse, default: dict | None) -> dict | None:
    """The Content-Security-Policy a response will be sent with: the one a view chose with
    ``csp_override``, else ``default``."""
    return getattr(response, "_csp_config", default)


def set_response_csp(response: HttpResponse, config: dict) -> None:
    """Give the response its own Content-Security-Policy, as ``csp_override`` does for a view."""
    response._csp_config = config


def http_request(request: Request) -> HttpRequest:
    """The Django request inside a DRF request (for Django's session login and logout)."""
    return request._request
