from django.urls import path

from . import api_effects

app_name = "core"

urlpatterns = [
    path("effects", api_effects.EffectListView.as_view(), name="effects"),
    path("effects/<uuid:id>/retry", api_effects.EffectRetryView.as_view(), name="effect-retry"),
]
