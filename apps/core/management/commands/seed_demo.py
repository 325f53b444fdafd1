"""Demo data for `make run`. Safe to run twice: each app's seed() creates what is missing only."""

import importlib

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction

# Order matters: later apps build on the data of earlier ones.
SEED_APPS = ["accounts", "listings", "bookings", "payments", "disputes", "cms", "notifications", "messaging"]


class Command(BaseCommand):
    help = "Create the demo accounts and data listed in the README (idempotent)."

    def handle(self, *args, **options):
        for app in SEED_APPS:
            try:
                module = importlib.import_module(f"apps.{app}.seed")
            except ModuleNotFoundError as exc:
                if exc.name != f"apps.{app}.seed":
                    raise
                continue
            with transaction.atomic():
                module.seed(self.stdout)
            self.stdout.write(self.style.SUCCESS(f"seeded {app}"))
        self.stdout.write(f"Demo site: {settings.SITE_URL}  (every demo account's password is Demo1234!)")
