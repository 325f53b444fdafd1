"""The signed-in area's routes (spec section 2.3), one per row of navigation.ROUTES."""

from django.urls import path

from . import views
from .navigation import ROUTES

urlpatterns = [
    path(route.pattern, views.page, {"route": route.name}, name=f"dashboard-{route.name}") for route in ROUTES
]
