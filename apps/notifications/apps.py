from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    label = "notifications"

    def ready(self) -> None:
        from django.utils.module_loading import autodiscover_modules

        from . import effects  # noqa: F401  (registers the delivery effects)

        # Each app's counters.py registers its pending counters (see apps/notifications/counters.py).
        autodiscover_modules("counters")
