"""``/api/media/delete`` (spec section 7, media): deleting a verification document."""

from django.urls import path

from . import views_verification

app_name = "accounts-media"

urlpatterns = [path("media/delete", views_verification.MediaDeleteView.as_view(), name="media-delete")]
