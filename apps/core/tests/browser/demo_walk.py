"""The demo walk's pages and checks (the tests are test_demo_walk_*.py): the walk: every public page and every signed-in route, as every role, at 1280 and 390 px,
on the data `seed_demo` creates (the data a newcomer sees on `make run`), not on fixtures made for
one test.

Each page fails the walk on what a person would call broken: the error screen, a JavaScript error
or a console error, a raw tag shown as text, a page wider than the screen, an image that did not
load, a review count that disagrees with the reviews behind it, and, on the search pages at
1280 px, a results column narrower than half the page. A screenshot of each page is kept under
`test-artifacts/demo-walk/` (ignored by git) so a person can look at all of them in a minute.

Websockets are served by a real daphne beside the test's live server, on the same database, so
the pages' live connections open as on `make run`.
"""

from __future__ import annotations

import base64
import os
import re
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db.models import Count
from playwright.sync_api import expect

from apps.accounts.models import User
from apps.bookings.models import Booking, Review
from apps.core.testing import database_url
from apps.core.tests.browser.fixtures import settle, track_requests
from apps.dashboard.navigation import ROUTES
from apps.dashboard.tests.browser.test_shell import DEMO, sign_in
from apps.disputes.models import Dispute
from apps.listings.models import Listing
from apps.payments.models import Payment

ROOT = Path(settings.BASE_DIR)
SHOTS = ROOT / "test-artifacts" / "demo-walk"
WIDTHS = (1280, 390)
# A one-pixel PNG for the map's tiles (the tile server is outside; its fake answers every tile).
TILE = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z/C/HgAGgwJ/lK3Q6wAAAABJRU5ErkJggg=="
)
RAW_TAG = re.compile(r"</?(p|div|span|strong|em|br|ul|li|h[1-6]|a|b|i)\b[^>]*>", re.IGNORECASE)
ERROR_SCREEN = "Oops! something went wrong"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def walk_page(browser, live_server, settings, tmp_path):
    """A browser page on the demo data (seeded into the test database, which the live server's
    transactional test empties afterwards), with websockets served by daphne."""
    settings.MEDIA_ROOT = tmp_path
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    daphne = _start_daphne()
    # The socket's host is the page's own, so the browser sends it the session cookie.
    settings.WEBSOCKET_URL = daphne["url"].replace("127.0.0.1", urlsplit(live_server.url).hostname)
    settings.MAP_TILE_URL = f"{live_server.url}/tiles/{{z}}/{{x}}/{{y}}.png"
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "cookieConsent", "value": "%7B%22marketing%22%3Afalse%7D", "url": live_server.url}])
    page = context.new_page()
    track_requests(page)
    page.set_default_timeout(20_000)
    try:
        yield page
        settle(page)
    finally:
        context.close()
        daphne["process"].terminate()
        daphne["process"].wait(timeout=20)


def _start_daphne() -> dict:
    """Websockets for the walk's pages: daphne on the test database and this worker's Redis."""
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_ENV": "development",
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
    }
    env.pop("PYTEST_XDIST_WORKER", None)
    process = subprocess.Popen(  # noqa: S603 (the venv's own daphne, fixed arguments)
        [str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("daphne stopped at start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.2)
    else:
        process.terminate()
        raise RuntimeError("daphne did not answer within 60 s")
    return {"process": process, "url": f"ws://127.0.0.1:{port}/ws/"}


@dataclass
class Visit:
    """What went wrong on the pages of one walk."""

    problems: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    def check(self, condition: bool, message: str) -> None:
        if not condition:
            self.problems.append(message)


def _ids() -> dict[str, str]:
    """The demo's objects the routes with an id open: the demo host's and renter's own."""
    host = User.objects.get(email=DEMO["host"])
    renter = User.objects.get(email=DEMO["renter"])
    listing = Listing.objects.filter(host=host).order_by("created_at").first()
    booking = Booking.objects.filter(renter=renter, host=host).order_by("-created_at").first()
    dispute = Dispute.objects.filter(renter=renter, host=host).order_by("-created_at").first()
    payment = Payment.objects.filter(booking__renter=renter).order_by("-created_at").first()
    return {
        "listing": str(listing.pk),
        "booking": str(booking.pk),
        "dispute": str(dispute.pk) if dispute else "",
        "payment": str(payment.pk) if payment else "",
        "host": str(host.pk),
    }


def _signed_in_paths(role: str, ids: dict[str, str]) -> list[tuple[str, str]]:
    """Every route of the signed-in area this role may open, with the demo's ids filled in."""
    fill = {
        "listing-detail": f"/listing-detail/{ids['listing']}",
        "edit-listing": f"/edit-listing/{ids['listing']}",
        "booking-detail": f"/booking-detail/{ids['booking']}",
        "booking-request-details": f"/booking-request-details/{ids['booking']}",
        "view-user": f"/view-user/{ids['host']}",
        "dispute-payments": f"/dispute-payments?id={ids['dispute']}",
        "payment-details": f"/payment-details?paymentId={ids['payment']}",
    }
    paths = []
    for route in ROUTES:
        if not route.allows(role) or (route.roles is not None and not route.roles):
            continue
        paths.append((route.name, fill.get(route.name, "/" + route.path)))
    return paths


def _public_paths() -> list[tuple[str, str]]:
    listing = Listing.objects.filter(status="approved", is_active=True).order_by("-created_at").first()
    host = listing.host
    city = (listing.city or "new-york").lower().replace(" ", "-")
    paths = [
        ("home", "/"),
        ("property-listing", "/property-listing"),
        ("coworking-city", f"/coworking-spaces/{city}"),
        ("event-spaces", "/event-spaces"),
        ("listing-details", f"/listing-details/{listing.slug}"),
        ("about-us", "/about-us"),
        ("contact-us", "/contact-us"),
        ("terms", "/terms-and-conditions"),
        ("privacy", "/privacy-policy"),
        ("become-host", "/become-host"),
    ]
    reviewed = (
        Review.objects.public()
        .filter(listing__status="approved", listing__is_active=True)
        .values("listing__slug")
        .annotate(reviews=Count("id"))
        .order_by("-reviews")
        .first()
    )
    if reviewed:
        paths.append(("listing-reviewed", f"/listing-details/{reviewed['listing__slug']}"))
    if getattr(host, "user_name", ""):
        paths.append(("host-profile", f"/host/{host.user_name}"))
    return paths


def _check_review_count(page, visit: Visit, path: str, width: int) -> None:
    """The listing page's figures agree with the public reviews behind them: the header's count, the
    reviews section's count and the rows shown (the newest ten) all come from the same reviews."""
    slug = path.rstrip("/").rsplit("/", 1)[-1]
    public = Review.objects.public().filter(listing__slug=slug).count()
    title = page.locator("#reviews-title").inner_text()
    stated = re.search(r"\((\d+)\)", title)
    visit.check(
        (int(stated.group(1)) if stated else 0) == public,
        f"{path} @{width}: the reviews section says {title!r}, the listing has {public} public reviews",
    )
    header = page.locator("main a.rating[href='#reviews']")
    if header.count():
        said = header.first.inner_text()
        visit.check(f"· {public} review" in said, f"{path} @{width}: the header says {said!r} of {public} reviews")
    rows = page.locator("#reviews [data-testid=review]").count()
    visit.check(rows == min(public, 10), f"{path} @{width}: {rows} reviews shown of {public}")
    visit.check(
        (public == 0) == ("No reviews yet" in page.locator("#reviews").inner_text()),
        f"{path} @{width}: 'No reviews yet' beside {public} reviews",
    )


def _open(page, visit: Visit, label: str, path: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    before = len(visit.console)
    response = page.goto(path)
    visit.check(
        response is not None and response.status < 400, f"{label} {path}: answered {response and response.status}"
    )
    settle(page)
    # The dashboard's islands draw after their data: wait for the spinners a person waits for.
    expect(page.locator(".spinner, [aria-busy=true]")).to_have_count(0, timeout=15_000)
    name = re.sub(r"[^a-z0-9-]+", "_", f"{label}-{width}".lower())
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    body = page.locator("body").inner_text()
    visit.check(ERROR_SCREEN not in body, f"{label} {path} @{width}: the error screen")
    raw = RAW_TAG.search(body)
    visit.check(raw is None, f"{label} {path} @{width}: a raw tag shown as text: {raw and raw.group(0)!r}")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    visit.check(overflow <= 0, f"{label} {path} @{width}: {overflow}px wider than the screen")
    broken = page.evaluate(
        "[...document.images].filter(i => i.complete && i.naturalWidth === 0 && i.currentSrc).map(i => i.currentSrc)"
    )
    visit.check(not broken, f"{label} {path} @{width}: images that did not load: {broken[:3]}")
    for message in visit.console[before:]:
        visit.problems.append(f"{label} {path} @{width}: console: {message}")


def _watch(page, visit: Visit) -> None:
    page.on(
        "console",
        lambda message: (
            message.type == "error"
            and visit.console.append(f"{message.text[:300]} ({message.location.get('url', '')})")
        ),
    )
    page.on("pageerror", lambda error: visit.console.append(f"page error: {str(error)[:300]}"))
    page.route("**/tiles/**", lambda route: route.fulfill(status=200, content_type="image/png", body=TILE))


def walk_public_pages(page, visit: Visit) -> None:
    paths = _public_paths()
    for width in WIDTHS:
        for label, path in paths:
            _open(page, visit, f"visitor-{label}", path, width)
            if label.startswith("listing-"):
                _check_review_count(page, visit, path, width)
            if label in ("property-listing", "coworking-city") and width == 1280:
                ratio = page.evaluate(
                    """() => {
                      const card = document.querySelector('main article.card');
                      const main = document.querySelector('main');
                      if (!card || !main) return 0;
                      return card.parentElement.getBoundingClientRect().width / main.getBoundingClientRect().width;
                    }"""
                )
                visit.check(ratio >= 0.5, f"{path} @1280: the results column is {ratio:.0%} of the page")


def walk_signed_in(page, visit: Visit, role: str) -> None:
    kept = [cookie for cookie in page.context.cookies() if cookie["name"] == "cookieConsent"]
    page.context.clear_cookies()
    page.context.add_cookies(kept)
    paths = _signed_in_paths(role, _ids())
    sign_in(page, DEMO[role])
    for width in WIDTHS:
        for label, path in paths:
            _open(page, visit, f"{role}-{label}", path, width)


def start(page) -> Visit:
    visit = Visit()
    _watch(page, visit)
    return visit
