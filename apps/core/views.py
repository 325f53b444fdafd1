import time

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness of the two stores the site needs; 503 when either is down."""
    checks: dict[str, dict] = {}
    for name, probe in (("database", _probe_database), ("redis", _probe_redis)):
        started = time.perf_counter()
        try:
            probe()
            checks[name] = {"status": "ok", "ms": round((time.perf_counter() - started) * 1000, 2)}
        except Exception as exc:  # noqa: BLE001 - any failure means "down"
            checks[name] = {"status": "down", "error": exc.__class__.__name__}
    healthy = all(check["status"] == "ok" for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "down", **checks}, status=200 if healthy else 503)


def _probe_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _probe_redis() -> None:
    redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1).ping()


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception=None):
    if _wants_json(request):
        return JsonResponse({"message": "The requested item was not found.", "errors": {}}, status=404)
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest):
    if _wants_json(request):
        return JsonResponse(
            {"message": "Something went wrong on our side. Please try again.", "errors": {}}, status=500
        )
    return render(request, "500.html", status=500)


def bad_request(request: HttpRequest, exception=None):
    if _wants_json(request):
        return JsonResponse({"message": "The request could not be read.", "errors": {}}, status=400)
    return render(request, "400.html", status=400)


def permission_denied(request: HttpRequest, exception=None):
    if _wants_json(request):
        return JsonResponse({"message": "You do not have permission to do this.", "errors": {}}, status=403)
    return render(request, "403.html", status=403)


def csrf_failure(request: HttpRequest, reason: str = ""):
    """A refused CSRF check: JSON under /api (the cookie-signed call lacked X-CSRFToken), the page elsewhere."""
    if _wants_json(request):
        message = "Your session's security check failed. Reload the page and try again."
        return JsonResponse({"message": message, "errors": {}}, status=403)
    return render(request, "403.html", status=403)
