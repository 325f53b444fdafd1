from django.apps import AppConfig


class ListingsConfig(AppConfig):
    name = "apps.listings"
    label = "listings"

    def ready(self) -> None:
        from apps.core.dispatch import connect

        from .subscribers import SUBSCRIBERS

        connect(SUBSCRIBERS)
