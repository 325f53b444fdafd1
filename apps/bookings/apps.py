from django.apps import AppConfig


class BookingsConfig(AppConfig):
    name = "apps.bookings"
    label = "bookings"

    def ready(self) -> None:
        from apps.core.dispatch import connect

        from .subscribers import SUBSCRIBERS

        connect(SUBSCRIBERS)
