"""`make test`: no Python module of the site (tests and migrations aside) over 450 lines unless
its first line says why: ``# Over 450 lines: <the reason>``.

A long module is usually two concerns; split it along its seams (README, "Layers"). Where the
length is the concern itself (the settings read in one place, one money flow read top to bottom),
the first line says so and a reviewer can disagree.
"""

import pathlib
import sys

LIMIT = 450
MARKER = "# Over 450 lines: "
ROOT = pathlib.Path(__file__).resolve().parent.parent


def offenders() -> list[str]:
    found = []
    for folder in ("apps", "config", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if "tests" in path.parts or "migrations" in path.parts:
                continue
            lines = path.read_text().splitlines()
            if len(lines) > LIMIT and not (lines[0].startswith(MARKER) and len(lines[0]) > len(MARKER) + 10):
                found.append(f"{name}: {len(lines)} lines")
    return found


def main() -> int:
    found = offenders()
    for line in found:
        print(line, file=sys.stderr)
    if found:
        print(f"Split these modules, or give the reason on their first line ({MARKER}...).", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
