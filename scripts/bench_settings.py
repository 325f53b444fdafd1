"""Settings for `make bench`: the site's own settings plus a floor view, served as visitors see it."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "scripts.bench_urls"
DEBUG = False
# Plain static storage so pages render without a collectstatic manifest.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "ERROR"}}
