"""One URL-safety check for every return address (issue 24, 12)."""

import pytest

from apps.core.safe_urls import safe_return_url

SITE = "http://127.0.0.1:8000"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = SITE
    settings.CSRF_TRUSTED_ORIGINS = [SITE, "https://spaces.example"]


@pytest.mark.parametrize(
    "raw",
    [
        "https://evil.example\\@127.0.0.1:8000/",
        "http://evil.example\\@127.0.0.1:8000/",
        "http://127.0.0.1:8000\\@evil.example/",
        "http://user@127.0.0.1:8000/",
        "http://127.0.0.1:8000@evil.example/",
        "http://evil.example#@127.0.0.1:8000/",
        "//evil.example/x",
        "/\\evil.example/x",
        "\\\\evil.example\\x",
        "/\t/evil.example",
        "javascript:alert(1)//127.0.0.1:8000",
        "data:text/html,<script>alert(1)</script>",
        "ftp://127.0.0.1:8000/",
        "http://127.0.0.1:8200/",  # another port is another origin
        "https://127.0.0.1:8000/",  # another scheme too
        "http://127.0.0.1:99999/",
        "https://evil.example/",
        "http://[::1/",
        "",
    ],
)
def test_addresses_off_the_site_are_refused(raw):
    assert safe_return_url(raw) is None


@pytest.mark.parametrize(
    ("raw", "url"),
    [
        ("/dashboard?type=booking&success=true", SITE + "/dashboard?type=booking&success=true"),
        ("http://127.0.0.1:8000/booking-detail/1", "http://127.0.0.1:8000/booking-detail/1"),
        ("HTTP://127.0.0.1:8000/x", "HTTP://127.0.0.1:8000/x"),
        ("https://spaces.example/dashboard", "https://spaces.example/dashboard"),
        ("https://spaces.example:443/dashboard", "https://spaces.example:443/dashboard"),
    ],
)
def test_pages_of_the_site_are_kept(raw, url):
    assert safe_return_url(raw) == url
