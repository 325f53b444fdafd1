from django.apps import AppConfig


class ListingsConfig(AppConfig):
    name = "apps.listings"
    label = "listings"

    def ready(self) -> None:
        from .search_cache import connect_signals

        connect_signals()
