from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "apps.payments"
    label = "payments"

    def ready(self) -> None:
        from apps.core.dispatch import connect

        from . import effects  # noqa: F401  (effect handlers of the outbox)
        from .subscribers import SUBSCRIBERS

        connect(SUBSCRIBERS)
