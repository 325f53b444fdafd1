"""Checks every request gets before any view, and headers every response gets.

Refused early, in the API's JSON envelope under ``/api`` (the site's error page elsewhere):
an API query string over ``MAX_QUERY_STRING_BYTES`` (414; pages take longer ones), a body over ``MAX_REQUEST_BODY_BYTES`` (413),
a NUL character in the path or the query (400; PostgreSQL cannot compare with one), more
query fields than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` (400), and a body sent to an operation the
schema declares none for (400: a read, a ``DELETE`` or a write that takes its values from the address).
A method the path does not declare is left to the view, which answers 405 with an ``Allow`` header.
"""

from functools import lru_cache

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csp import ContentSecurityPolicyMiddleware as DjangoCspMiddleware
from django.middleware.gzip import GZipMiddleware
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve

from . import images
from .django_internals import response_csp, set_response_csp
from .parsers import operation_input

NO_BODY_MESSAGE = "This request takes no body: send its values in the address."


def _refusal(request: HttpRequest, status: int, message: str, field: str | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"message": message, "errors": {field: [message]} if field else {}}, status=status)
    try:
        html = render_to_string("400.html", request=request)
    except Exception:  # noqa: BLE001 - the refusal must not fail on a template problem
        html = f"<!doctype html><title>{status}</title><p>{message}</p>"
    return HttpResponse(html, status=status)


class CompressPagesMiddleware(GZipMiddleware):
    """Gzip the HTML pages of visitors who are not signed in, when their browser accepts it (the
    search page goes from about 30 KB to 6 KB, the first round trips on a slow phone line).

    Only those: BREACH reads a secret out of a compressed body that also echoes what an attacker
    sends. An anonymous page holds no secret but the CSRF token, which is masked anew for every
    response, and Django's gzip pads every answer with random bytes. Signed-in pages and the API's
    JSON (tokens, calendar links) stay uncompressed; files keep whitenoise's compressed copies."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            response.streaming
            or not response.get("Content-Type", "").startswith("text/html")
            or (user is not None and user.is_authenticated)
        ):
            return response
        return super().process_response(request, response)


class RequestGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        work = images.request_started(request)  # the image decoding this request may cost
        try:
            response = self._refuse(request) or self.get_response(request)
        finally:
            images.request_finished(work)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response

    def _refuse(self, request: HttpRequest) -> HttpResponse | None:
        query = request.META.get("QUERY_STRING", "")
        if len(query) > settings.MAX_QUERY_STRING_BYTES and request.path.startswith("/api/"):
            return _refusal(
                request, 414, f"The address is too long: at most {settings.MAX_QUERY_STRING_BYTES} characters of query."
            )
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return _refusal(request, 400, "The request's Content-Length is not a number.")
        if length > settings.MAX_REQUEST_BODY_BYTES:
            limit = settings.MAX_REQUEST_BODY_BYTES // (1024 * 1024)
            return _refusal(request, 413, f"The request is too large: at most {limit} MB.")
        if length and request.method in ("GET", "HEAD") and request.path.startswith("/api/") and _declared(request):
            # The schema declares no body on a read: one sent anyway is refused, not silently ignored
            # (before the search cache, which answers reads ahead of the views).
            return _refusal(request, 400, NO_BODY_MESSAGE)
        if "\x00" in request.path_info:
            return _refusal(request, 400, "The address contains a NUL character.")
        try:
            fields = list(request.GET.lists())
        except SuspiciousOperation:
            return _refusal(request, 400, "The address has too many query fields.")
        for key, values in fields:
            if "\x00" in key or any("\x00" in value for value in values):
                name = key.replace("\x00", "")
                field = name[len("filters[") : -1] if name.startswith("filters[") and name.endswith("]") else name
                return _refusal(request, 400, f"{name} must not contain a NUL character.", field=field)
        return None

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> HttpResponse | None:
        method = request.method or ""
        if not request.path.startswith("/api/") or not declares_method(view_func, method):
            # A method the operation does not declare is the view's 405 (with its Allow header),
            # whatever the body: the body rule is about the operations there are.
            return None
        if view_kwargs or takes_body(view_func, method):
            # An operation on an object named in the path looks it up first (404 for an unknown one,
            # whatever the body), as the API's other operations do: the rule covers the rest.
            return None
        if _has_body(request):
            # The schema declares no body here: one sent anyway is refused, not silently ignored.
            return _refusal(request, 400, NO_BODY_MESSAGE)
        return None


def _declared(request: HttpRequest) -> bool:
    """Whether an API operation answers the request's method at its path (else a 404 or a 405
    follows, whatever the body)."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return False
    return getattr(match.func, "cls", None) is not None and declares_method(match.func, request.method or "")


def declares_method(view_func, method: str) -> bool:
    """Whether the API view has an operation for ``method`` (HEAD goes with GET); a view that is
    not an API view keeps Django's own rules."""
    view_class = getattr(view_func, "cls", None)
    if view_class is None:
        return True
    name = "get" if method == "HEAD" else method.lower()
    return name in view_class.http_method_names and hasattr(view_class, name)


def _has_body(request: HttpRequest) -> bool:
    """Whether the request carries values in its body: an empty JSON object or an empty form (what
    a client's ``post(url, {})`` sends) carries none."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return True
    if length == 0:
        return False
    if length > 256:
        return True
    body = request.body.strip()
    boundary = request.content_params.get("boundary", "") if request.content_type == "multipart/form-data" else ""
    return body not in (b"{}", f"--{boundary}--".encode("latin-1", "replace") if boundary else b"{}")


@lru_cache(maxsize=1024)
def takes_body(view_func, method: str) -> bool:
    """Whether the operation reads a request body: what the schema says of it, from the same
    declarations (``@extend_schema(request=...)``, a view's ``delete_body``), so the two cannot
    disagree. A view that is not an API view keeps Django's own rules."""
    view_class = getattr(view_func, "cls", None)
    if view_class is None or method not in ("POST", "PUT", "PATCH", "DELETE"):
        return view_class is None
    if method == "DELETE":
        return bool(getattr(view_class, "delete_body", False))
    if not declares_method(view_func, method):
        return True  # answered 405 by the view
    return operation_input(view_func, method) is not None


def websocket_origin() -> str | None:
    """The origin of ``settings.WEBSOCKET_URL`` when it names one (``ws://host:port``); None for a
    same-origin path such as ``/ws/``, which the policy's ``'self'`` already allows."""
    url = settings.WEBSOCKET_URL
    if not url.startswith(("ws://", "wss://")):
        return None
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


class ContentSecurityPolicyMiddleware(DjangoCspMiddleware):
    """Django's policy (``SECURE_CSP``), whose connect-src also allows the websocket address the
    pages are given, read per response: the address and the policy cannot disagree."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        origin = websocket_origin()
        config = response_csp(response, settings.SECURE_CSP)
        if origin and config and origin not in config.get("connect-src", []):
            set_response_csp(response, {**config, "connect-src": [*config.get("connect-src", []), origin]})
        return super().process_response(request, response)
