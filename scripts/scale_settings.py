"""Settings for `make scale-demo`: the site's own, plus a slow demo effect and a quick beat.

Every scheduled task runs every few seconds (so the demo sees each one several times), and the
``scale_demo`` app registers one slow effect the demo kills a worker in the middle of.
"""

from config.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "scripts.scale_demo_app.ScaleDemoConfig"]  # noqa: F405
CELERY_BEAT_SCHEDULE = {name: {**entry, "schedule": 4} for name, entry in CELERY_BEAT_SCHEDULE.items()}  # noqa: F405
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
