from django.apps import AppConfig


class PremiumConfig(AppConfig):
    name = "apps.premium"
    label = "premium"
