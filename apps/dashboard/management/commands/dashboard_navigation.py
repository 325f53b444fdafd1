"""Write the route and sidebar tables as JSON for the front end (frontend/src/dashboard/navigation.json)."""

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from apps.dashboard.navigation import export

TARGET = Path(settings.BASE_DIR) / "frontend" / "src" / "dashboard" / "navigation.json"


def render() -> str:
    return json.dumps(export(), indent=2) + "\n"


class Command(BaseCommand):
    help = "Write frontend/src/dashboard/navigation.json from apps/dashboard/navigation.py."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="Fail if the file is out of date.")

    def handle(self, *args, check=False, **options):
        text = render()
        if check:
            if not TARGET.exists() or TARGET.read_text() != text:
                raise SystemExit(f"{TARGET} is out of date: run manage.py dashboard_navigation")
            return
        TARGET.parent.mkdir(parents=True, exist_ok=True)
        TARGET.write_text(text)
        self.stdout.write(f"wrote {TARGET}")
