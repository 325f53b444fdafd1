from django.urls import path

from . import pages

urlpatterns = [
    path("sw.js", pages.service_worker, name="service-worker"),
]
