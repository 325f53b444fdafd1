"""Who is calling: the client's address as the site's own proxies saw it.

``X-Forwarded-For`` is trusted only as far as ``TRUSTED_PROXY_COUNT`` proxies in front of the site
(DRF's ``NUM_PROXIES``): with 0 (no proxy) the socket's address counts and the header is ignored;
with 1 (the bundled nginx, which replaces the header with the address it saw) its last entry. A
value the client wrote itself is never the key of a rate limit.
"""

from rest_framework.settings import api_settings


def client_address(request) -> str:
    meta = request.META
    remote = meta.get("REMOTE_ADDR") or ""
    proxies = api_settings.NUM_PROXIES or 0
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    addresses = [part.strip() for part in forwarded.split(",")]
    return addresses[-min(proxies, len(addresses))] or remote
