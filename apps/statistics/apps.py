from django.apps import AppConfig


class StatisticsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "apps.statistics"
    label = "statistics"
    verbose_name = "Dashboard statistics"
