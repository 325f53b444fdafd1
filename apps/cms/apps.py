from django.apps import AppConfig


class CmsConfig(AppConfig):
    name = "apps.cms"
    label = "cms"
