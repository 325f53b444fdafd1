"""The site's routes plus ``/bench/floor``: the cheapest JSON answer this server can give (the floor)."""

from django.http import JsonResponse
from django.urls import include, path


def floor(request):
    return JsonResponse({"message": "", "data": {"ok": True}})


urlpatterns = [path("bench/floor", floor), path("", include("config.urls"))]
