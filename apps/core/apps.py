from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "apps.core"
    label = "core"
    verbose_name = "Platform"

    def ready(self) -> None:
        from . import (
            checks,  # noqa: F401 - registers the deployment checks
            mail,  # noqa: F401  (registers the e-mail effect)
        )
