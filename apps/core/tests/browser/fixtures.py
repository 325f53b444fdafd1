"""Browser tests: the real site in headless Chromium (Debian's package), driven by Playwright.

One plugin for every app's browser tests (registered in the root conftest.py), so a test worker
starts one Playwright session: a second one on the same thread would refuse to start.

The front end must be built (``make test`` runs ``npm run build`` first; the fixture builds it
when the manifest is missing). Tests are skipped, saying why, only when no Chromium is installed.
"""

import contextlib
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from django.conf import settings

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
AXE_JS = settings.BASE_DIR / "frontend" / "node_modules" / "axe-core" / "axe.min.js"


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives the site in headless Chromium")


def pytest_collection_modifyitems(items):
    for item in items:
        if "/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(autouse=True)
def _no_effect_fails_on_the_event_loop(request, caplog):
    """Playwright keeps a loop running on the test's thread, where effects the test's own writes run:
    their live sends must still go out at the first attempt (apps/core/eventloop.py), not fail and
    wait for a retry."""
    yield
    if "/browser/" in str(request.node.fspath):
        failed = [
            record.getMessage()
            for record in caplog.get_records("setup") + caplog.get_records("call")
            if record.name == "apps.core.effects" and "event loop" in record.getMessage()
        ]
        assert not failed, f"effects failed on the event loop: {failed}"


@pytest.fixture(scope="session")
def built_frontend():
    manifest = settings.BASE_DIR / "static" / "dist" / "manifest.json"
    if not manifest.exists():
        subprocess.run(["npm", "run", "build"], cwd=settings.BASE_DIR / "frontend", check=True)  # noqa: S607
    return manifest


@pytest.fixture(scope="session")
def browser(built_frontend):
    executable = chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (scripts/test.sh installs Debian's chromium package).")
    from playwright.sync_api import sync_playwright

    # Playwright drives the browser from an event loop on this thread; Django refuses ORM calls
    # there unless told. Set only once a browser test runs (they run in a pytest run of their own).
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    # The site's content security policy would refuse the accessibility checker the tests inject.
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900}, bypass_csp=True)
    # The consent banner is tested on its own; elsewhere it would cover the page.
    context.add_cookies([{"name": "cookieConsent", "value": "%7B%22marketing%22%3Afalse%7D", "url": live_server.url}])
    page = context.new_page()
    track_requests(page)
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    # Let the page's last requests finish before the test's database is emptied: a request still
    # running on the live server holds row locks that the flush's TRUNCATE would deadlock with.
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    with contextlib.suppress(PlaywrightTimeoutError, AssertionError):
        settle(page, timeout_ms=5_000)
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


# The requests each tracked page has in flight (websockets are not requests: a page's live socket
# stays open without keeping it unsettled).
_IN_FLIGHT: dict = {}


def track_requests(page) -> None:
    """Count ``page``'s requests in flight, for ``settle``."""
    pending = _IN_FLIGHT[page] = set()
    page.on("request", lambda request: pending.add(request))
    page.on("requestfinished", lambda request: pending.discard(request))
    page.on("requestfailed", lambda request: pending.discard(request))
    page.on("close", lambda _page: _IN_FLIGHT.pop(page, None))


def settle(page, *, quiet_ms: int = 100, timeout_ms: int = 15_000) -> None:
    """Wait until the page has had no request in flight for ``quiet_ms``: its data is in, as a
    person waits for it. Playwright's ``networkidle`` waits a fixed 500 ms after the last request,
    a third of the time of a walk over a hundred pages."""
    pending = _IN_FLIGHT[page]
    deadline = time.monotonic() + timeout_ms / 1000
    quiet_since = None
    while time.monotonic() < deadline:
        if pending:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= quiet_ms / 1000:
            return
        page.wait_for_timeout(20)  # lets Playwright deliver the page's events meanwhile
    raise AssertionError(f"requests still running after {timeout_ms} ms: {[r.url for r in list(pending)[:3]]}")


def axe_violations(page, include: list[str] | None = None) -> list[dict]:
    """Serious and critical axe-core violations on the page (or inside the given selectors)."""
    # Evaluated through the browser's protocol, not added as an inline <script>: the page's
    # Content-Security-Policy (nonce-only scripts) refuses inline scripts without the nonce.
    page.evaluate(AXE_JS.read_text())
    context = {"include": [[selector] for selector in include]} if include else None
    result = page.evaluate(
        "async (context) => await axe.run(context || document, {resultTypes: ['violations']})", context
    )
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
