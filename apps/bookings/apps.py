from django.apps import AppConfig


class BookingsConfig(AppConfig):
    name = "apps.bookings"
    label = "bookings"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (answers the listings app's providers)
