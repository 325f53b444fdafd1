from django.apps import AppConfig


class MessagingConfig(AppConfig):
    name = "apps.messaging"
    label = "messaging"
    verbose_name = "Messages"

    def ready(self) -> None:
        from . import realtime

        realtime.register()
