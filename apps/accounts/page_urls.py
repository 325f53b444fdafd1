from django.urls import path

from . import pages

urlpatterns = [path("set-password", pages.set_password, name="set-password")]
