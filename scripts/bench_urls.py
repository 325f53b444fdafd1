"""The site's routes plus the floor views of `make bench`.

``/bench/floor`` is the cheapest JSON answer this server can give; ``/bench/floor-db`` adds one
round trip to PostgreSQL and reports the server process of the connection, so the bench can check
that a worker keeps its connection between requests (CONN_MAX_AGE).
"""

import os

from django.db import connection
from django.http import JsonResponse
from django.urls import include, path


def floor(request):
    return JsonResponse({"message": "", "data": {"ok": True}})


def floor_db(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    return JsonResponse(
        {
            "message": "",
            "data": {"worker": os.getpid(), "backend": backend, "connMaxAge": connection.settings_dict["CONN_MAX_AGE"]},
        }
    )


urlpatterns = [path("bench/floor", floor), path("bench/floor-db", floor_db), path("", include("config.urls"))]
