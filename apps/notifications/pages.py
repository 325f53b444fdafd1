"""The service worker, served from the site root so its scope is the whole site."""

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET


@require_GET
def service_worker(request):
    body = render_to_string("notifications/sw.js", {"icon": settings.STATIC_URL + "img/favicon.svg"})
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    return response
