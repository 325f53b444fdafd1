"""The one check for every address the site sends a browser back to (checkout success and cancel
pages, and any other return target a client names).

An address is safe when it is a path on this site (``/dashboard?x=1``) or an absolute ``http(s)``
URL whose origin (scheme, host, port) is the site's own (``SITE_URL``) or one of
``CSRF_TRUSTED_ORIGINS``. Refused outright: backslashes (browsers read them as slashes), control
characters and spaces, user information (``user@host``), protocol-relative ``//host`` paths, any
other scheme, and anything ``urlsplit`` cannot read.
"""

import re
from urllib.parse import urlsplit

from django.conf import settings

from .exceptions import InvalidInput

UNSAFE_MESSAGE = "The return address must be a page of this site."
_FORBIDDEN = re.compile(r"[\\\x00-\x20\x7f]")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(url: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme]


def site_origins() -> set[tuple[str, str, int]]:
    origins = {_origin(settings.SITE_URL)}
    origins.update(_origin(origin) for origin in settings.CSRF_TRUSTED_ORIGINS)
    origins.discard(None)
    return origins  # type: ignore[return-value]  # None was discarded


def safe_return_url(raw: str) -> str | None:
    """The absolute URL on this site that ``raw`` names, or None when it is not one."""
    raw = (raw or "").strip()
    if not raw or len(raw) > 2000 or _FORBIDDEN.search(raw):
        return None
    if raw.startswith("/") and not raw.startswith("//"):
        return settings.SITE_URL + raw
    try:
        parts = urlsplit(raw)
    except ValueError:
        return None
    if "@" in parts.netloc or parts.username is not None or parts.password is not None:
        return None
    origin = _origin(raw)
    if origin is None or origin not in site_origins():
        return None
    return raw


def checked_return_url(raw: str, *, default: str = "/dashboard", field: str = "redirectUrl") -> str:
    """``safe_return_url`` for an address a client sent: an empty one is ``default``; an unsafe
    one is a 400 on ``field``."""
    if not (raw or "").strip():
        raw = default
    url = safe_return_url(raw)
    if url is None:
        raise InvalidInput(UNSAFE_MESSAGE, errors={field: [UNSAFE_MESSAGE]})
    return url
