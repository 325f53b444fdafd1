from django.apps import AppConfig


class DisputesConfig(AppConfig):
    name = "apps.disputes"
    label = "disputes"
