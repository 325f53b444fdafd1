"""Fetching a host's iCal URL without letting it reach inside our network.

Every host name is resolved and every address checked before we connect (and we connect to the
address we checked, so a second DNS answer cannot swap it); each redirect is checked the same way.
Only https, except loopback over http when ``settings.CALENDAR_ALLOW_LOCAL`` (development, tests).
"""

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from django.conf import settings

from apps.core.addresses import is_loopback, is_public

MAX_BYTES = 1024 * 1024
TIMEOUT_SECONDS = 10
MAX_REDIRECTS = 3
USER_AGENT = "Spacemarket-Calendar/1.0 (+https://spacemarket.example/calendar-sync)"


class FetchError(Exception):
    """The feed could not be read; the message is shown to the host."""


@dataclass(frozen=True)
class FetchResult:
    body: bytes | None  # None: not modified since the last fetch
    etag: str = ""
    last_modified: str = ""


def normalize_url(raw: str) -> str:
    """``webcal://`` is https; anything else than https (or http to loopback when allowed) is refused."""
    url = (raw or "").strip()
    if url.lower().startswith("webcal://"):
        url = "https://" + url[len("webcal://") :]
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http") or not parts.hostname:
        raise FetchError("Enter the calendar's https:// or webcal:// address.")
    if scheme == "http" and not settings.CALENDAR_ALLOW_LOCAL:
        raise FetchError("The calendar's address must start with https:// or webcal://.")
    if parts.username or parts.password:
        raise FetchError("The calendar's address must not contain a user name or password.")
    try:
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        raise FetchError("The calendar's address has an invalid port.") from None
    return url


def _allowed(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if settings.CALENDAR_ALLOW_LOCAL and is_loopback(address):
        return True
    return is_public(address)


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to, or FetchError when any of them is not a public one."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise FetchError(f"The calendar's server {host} could not be found.") from None
    found = []
    for info in infos:
        ip = ipaddress.ip_address(info[4][0].split("%")[0])
        if not _allowed(ip):
            raise FetchError("The calendar's address points to a private network; use a public https address.")
        found.append(str(ip))
    if not found:
        raise FetchError(f"The calendar's server {host} could not be found.")
    return found


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to a checked address, with the certificate verified for the host name."""

    def __init__(self, host: str, address: str, port: int, timeout: float):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, address: str, port: int, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


def _cut(connection: http.client.HTTPConnection) -> None:
    """Shut the connection's socket: a read blocked on it returns at once."""
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def fetch(url: str, *, etag: str = "", last_modified: str = "") -> FetchResult:
    """GET the feed (conditionally), following at most ``MAX_REDIRECTS`` redirects, each checked."""
    deadline = time.monotonic() + TIMEOUT_SECONDS
    too_slow = f"The calendar's server took longer than {TIMEOUT_SECONDS} seconds to answer."
    current = normalize_url(url)
    for _ in range(MAX_REDIRECTS + 1):
        parts = urlsplit(current)
        https = parts.scheme.lower() == "https"
        port = parts.port or (443 if https else 80)
        addresses = resolve(parts.hostname, port)
        if not https and not all(ipaddress.ip_address(a).is_loopback for a in addresses):
            raise FetchError("The calendar's address must start with https:// or webcal://.")
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise FetchError(too_slow)
        connection_class = _PinnedHTTPSConnection if https else _PinnedHTTPConnection
        connection = connection_class(parts.hostname, addresses[0], port, timeout=remaining)
        headers = {"User-Agent": USER_AGENT, "Accept": "text/calendar, */*;q=0.5", "Accept-Encoding": "identity"}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        # A socket timeout bounds each read, not the answer: a server sending a byte every few
        # seconds would hold the worker for as long as it likes. At the deadline the watchdog
        # shuts the socket, whatever the read in progress (connecting, the headers or the body).
        watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), _cut, args=(connection,))
        watchdog.daemon = True
        watchdog.start()
        try:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            if response.status in (301, 302, 303, 307, 308):
                location = response.getheader("Location")
                if not location:
                    raise FetchError("The calendar's server answered a redirect without an address.")
                current = normalize_url(urljoin(current, location))
                continue
            if response.status == 304:
                return FetchResult(body=None, etag=etag, last_modified=last_modified)
            if response.status != 200:
                raise FetchError(f"The calendar's server answered {response.status} {response.reason}.".strip())
            length = response.getheader("Content-Length")
            if length and length.isdigit() and int(length) > MAX_BYTES:
                raise FetchError("The calendar is larger than 1 MB.")
            body = b""
            while len(body) <= MAX_BYTES:
                if time.monotonic() > deadline:
                    raise FetchError(too_slow)
                chunk = response.read(64 * 1024)
                if not chunk:
                    break
                body += chunk
            if len(body) > MAX_BYTES:
                raise FetchError("The calendar is larger than 1 MB.")
            return FetchResult(
                body=body,
                etag=(response.getheader("ETag") or "")[:500],
                last_modified=(response.getheader("Last-Modified") or "")[:100],
            )
        except TimeoutError:
            raise FetchError(too_slow) from None
        except (OSError, http.client.HTTPException) as exc:
            if time.monotonic() >= deadline:  # the watchdog cut it
                raise FetchError(too_slow) from None
            if isinstance(exc, ssl.SSLError):
                raise FetchError("The calendar's server has no valid https certificate.") from None
            raise FetchError("The calendar's server could not be reached.") from None
        finally:
            watchdog.cancel()
            connection.close()
    raise FetchError("The calendar's address redirects more than 3 times.")
