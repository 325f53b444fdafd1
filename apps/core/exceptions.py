"""One family of domain errors and the one handler that turns any failure into the API envelope.

Failure envelope: ``{"message": "<a sentence a person can read>", "errors": {field: [sentences]}}``
with the right HTTP status. Services raise ``DomainError`` subclasses naming fields in snake_case
(``errors={"check_in_date": [...]}``); this edge gives them the API's camelCase names. Views never
build error responses by hand.
"""

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions as drf
from rest_framework.response import Response

logger = logging.getLogger(__name__)

BEARER_CHALLENGE = 'Bearer realm="api"'


class DomainError(Exception):
    """A rule of the product refused the request; ``message`` is shown to the user."""

    status_code = 400
    default_message = "The request could not be completed."

    def __init__(
        self,
        message: str | None = None,
        *,
        errors: dict[str, list[str]] | None = None,
        data: Any = None,
        status_code: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.message = message or self.default_message
        self.errors = errors or {}
        self.data = data
        self.headers = headers or {}
        if status_code is not None:
            self.status_code = status_code
        super().__init__(self.message)


class InvalidInput(DomainError):
    status_code = 400
    default_message = "Please check the information you entered."


class NotAuthenticated(DomainError):
    status_code = 401
    default_message = "Please log in to continue."


class Forbidden(DomainError):
    status_code = 403
    default_message = "You do not have permission to do this."


class NotFound(DomainError):
    status_code = 404
    default_message = "The requested item was not found."


class Conflict(DomainError):
    status_code = 409
    default_message = "This conflicts with the current state. Please refresh and try again."


class RateLimited(DomainError):
    status_code = 429
    default_message = "Too many requests. Please try again later."

    def __init__(self, message: str | None = None, *, retry_after: int, **kwargs: Any) -> None:
        self.retry_after = retry_after
        kwargs.setdefault("data", {"retryAfter": retry_after})
        kwargs.setdefault("headers", {"Retry-After": str(retry_after)})
        super().__init__(message, **kwargs)


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Turn DRF's nested error details into ``{"field" | "parent.child": [sentences]}``."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "non_field_errors" if key in ("non_field_errors", "__all__") else str(key)
            for sub_key, messages in _flatten(value, f"{prefix}.{name}" if prefix else name).items():
                out.setdefault(sub_key, []).extend(messages)
    elif isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            out[prefix or "non_field_errors"] = [str(item) for item in detail]
        else:
            for index, item in enumerate(detail):
                if item:
                    out.update(_flatten(item, f"{prefix}.{index}" if prefix else str(index)))
    else:
        out[prefix or "non_field_errors"] = [str(detail)]
    return out


def _first_message(errors: dict[str, list[str]]) -> str:
    for key in ("non_field_errors", *errors.keys()):
        if errors.get(key):
            return errors[key][0]
    return InvalidInput.default_message


def error_response(
    message: str, status: int, errors: dict | None = None, data: Any = None, headers: dict | None = None
) -> Response:
    body: dict[str, Any] = {"message": message, "errors": errors or {}}
    if data is not None:
        body["data"] = data
    return Response(body, status=status, headers=headers)


_DRF_MESSAGES = {
    drf.NotAuthenticated: "Please log in to continue.",
    drf.AuthenticationFailed: "Your session is not valid. Please log in again.",
    drf.PermissionDenied: "You do not have permission to do this.",
    drf.NotFound: "The requested item was not found.",
    drf.ParseError: "The request body could not be read. Send valid JSON or form data.",
    drf.UnsupportedMediaType: "This content type is not supported. Send JSON or form data.",
}


def api_field(name: str) -> str:
    """The API's name of a field a service names in Python's snake_case (``check_in_date`` →
    ``checkInDate``); names already in the API's shape (``startTime``, ``filters[period]``) and
    ``non_field_errors`` are kept."""
    if name == "non_field_errors" or "_" not in name.strip("_"):
        return name
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def api_exception_handler(exc: Exception, context: dict) -> Response:
    if isinstance(exc, DomainError):
        headers = exc.headers
        if exc.status_code == 401 and "WWW-Authenticate" not in headers:
            headers = {**headers, "WWW-Authenticate": BEARER_CHALLENGE}
        # Services name fields in snake_case; the API speaks camelCase.
        errors = {api_field(name): messages for name, messages in exc.errors.items()}
        return error_response(exc.message, exc.status_code, errors, exc.data, headers)
    if isinstance(exc, RequestDataTooBig):
        return error_response("The request is too large.", 413)
    if isinstance(exc, SuspiciousOperation):
        return error_response("The request could not be read.", 400)
    if isinstance(exc, RecursionError):
        return error_response("The request body is nested too deeply.", 400)
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        exc = drf.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )

    if isinstance(exc, drf.ValidationError):
        errors = _flatten(exc.detail)
        return error_response(_first_message(errors), 400, errors)
    if isinstance(exc, drf.Throttled):
        wait = int(exc.wait or 1)
        return error_response(
            f"Too many requests. Please try again in {wait} seconds.",
            429,
            data={"retryAfter": wait},
            headers={"Retry-After": str(wait)},
        )
    if isinstance(exc, drf.APIException):
        headers = {}
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header
        elif isinstance(exc, (drf.NotAuthenticated, drf.AuthenticationFailed)):
            headers["WWW-Authenticate"] = BEARER_CHALLENGE
        message = next((text for cls, text in _DRF_MESSAGES.items() if isinstance(exc, cls)), None)
        if message is None:
            message = str(exc.detail) if isinstance(exc.detail, str) else exc.default_detail
        return error_response(str(message), exc.status_code, headers=headers)

    logger.exception("Unhandled error in API view", exc_info=exc)
    return error_response("Something went wrong on our side. Please try again.", 500)
