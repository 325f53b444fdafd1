"""No app reaches an app above it by name at run time, where import-linter cannot see it.

``.importlinter`` forbids ``importlib`` outside the demo seeding; this test covers the rest: Django's
``import_string`` and ``autodiscover_modules``, and ``apps.get_model`` / ``get_model`` or a model
path string naming an app above the module's own (``"bookings.Booking"`` in accounts).
"""

import configparser
import re
from pathlib import Path

from django.conf import settings

APPS = Path(settings.BASE_DIR) / "apps"

# Loading a name from a setting (a configured backend), not an app above.
ALLOWED = {
    ("listings/search/engine.py", "import_string"),
    ("notifications/apps.py", "autodiscover_modules"),
}
BY_NAME = ("import_string", "autodiscover_modules", "__import__(")


def _layers() -> list[set[str]]:
    config = configparser.ConfigParser()
    config.read(Path(settings.BASE_DIR) / ".importlinter")
    # One layer a line, top first; "a | b" puts a and b side by side.
    lines = [line.strip() for line in config["importlinter:contract:layers"]["layers"].splitlines() if line.strip()]
    return [{name.strip() for name in line.split("|")} for line in lines]


def _above(app: str) -> set[str]:
    layers = _layers()
    for index, layer in enumerate(layers):
        if app in layer:
            return set().union(*layers[:index])
    return set()


def _sources():
    for path in APPS.rglob("*.py"):
        relative = path.relative_to(APPS).as_posix()
        if "/tests/" in relative or "/migrations/" in relative or relative.endswith("/seed.py"):
            continue
        if relative.startswith("core/management/commands/seed_demo"):
            continue
        yield relative, path.read_text()


def test_no_app_loads_code_by_name():
    found = [
        f"{relative}: {name}"
        for relative, text in _sources()
        for name in BY_NAME
        if name in text and (relative, name.rstrip("(")) not in ALLOWED
    ]
    assert not found, found


def test_no_app_names_a_model_of_an_app_above_it():
    found = []
    for relative, text in _sources():
        above = _above(relative.split("/")[0])
        for label in sorted(above):
            pattern = rf"""get_model\(\s*["']{label}["']|get_model\(\s*["']{label}\.|["']{label}\.[A-Z]\w*["']"""
            if re.search(pattern, text):
                found.append(f"{relative}: {label}")
    assert not found, found
