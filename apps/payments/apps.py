from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "apps.payments"
    label = "payments"

    def ready(self) -> None:
        from . import effects, receivers  # noqa: F401  (effect handlers; following bookings)
