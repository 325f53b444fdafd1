"""Test helpers shared by every app: an API client with real tokens and the role matrix."""

from collections.abc import Iterable
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.db import connection
from django.test import TestCase
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

ACTORS = ("anonymous", "renter", "other_renter", "host", "other_host", "sub_host", "moderator", "admin")


class ApiClient(APIClient):
    """Sends JSON by default and runs on-commit callbacks when each request ends, as a real commit would."""

    def generic(self, method, path, data="", content_type="application/octet-stream", secure=False, **extra):
        with TestCase.captureOnCommitCallbacks(execute=True):
            return super().generic(method, path, data, content_type, secure=secure, **extra)

    # How a signed-in user's access token is made: the accounts app's login (its claims tie the token
    # to the login and the password); the root conftest sets it, since this app sits below accounts.
    token_for = staticmethod(lambda user: str(RefreshToken.for_user(user).access_token))

    def as_user(self, user) -> "ApiClient":
        if user is not None:
            self.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiClient.token_for(user)}")
        return self


def check_role_matrix(
    clients: dict[str, ApiClient],
    method: str,
    url: str,
    *,
    allowed: Iterable[str],
    data=None,
    hidden_status: Iterable[int] = (403,),
) -> dict[str, int]:
    """Call ``url`` as every actor. Allowed actors must not get 401/403; anonymous others get 401,
    signed-in others get 403 (or a status in ``hidden_status``, e.g. 404 where the object is hidden).

    Returns each actor's status so a test can assert more.
    """
    allowed = set(allowed)
    unknown = allowed - set(ACTORS)
    assert not unknown, f"unknown actors {unknown}"
    statuses = {}
    for actor in ACTORS:
        response = getattr(clients[actor], method.lower())(url, data, format="json")
        statuses[actor] = response.status_code
        if actor in allowed:
            assert response.status_code not in (401, 403), (
                f"{actor} was refused {method} {url}: {response.content[:300]!r}"
            )
        elif actor == "anonymous":
            assert response.status_code == 401, f"anonymous got {response.status_code} on {method} {url}"
        else:
            assert response.status_code in set(hidden_status), f"{actor} got {response.status_code} on {method} {url}"
        assert response.status_code < 500, f"{actor} got a server error on {method} {url}"
    return statuses


class RedisRoundTrips:
    """Counts the round trips to Redis (cache, Celery broker, Channels layer) made while active.

    redis-py sends one packed buffer per command, or one for a whole pipeline, then reads the
    answers: each ``send_packed_command`` is one round trip. Both the blocking client (cache,
    Celery) and the asyncio one (Channels) are counted. ``commands`` lists the first word of each.
    """

    def __init__(self) -> None:
        self.commands: list[str] = []
        self._patches: list = []

    @property
    def count(self) -> int:
        return len(self.commands)

    def _wrap(self, cls, *, is_async: bool):
        original = cls.send_packed_command
        counter = self

        def first_word(command) -> str:
            chunk = command if isinstance(command, bytes | bytearray | memoryview) else b"".join(command)
            parts = bytes(chunk).split(b"\r\n")
            return parts[2].decode(errors="replace") if len(parts) > 2 else "?"

        if is_async:

            async def send(self, command, check_health=True):
                counter.commands.append(first_word(command))
                return await original(self, command, check_health)

        else:

            def send(self, command, check_health=True):
                counter.commands.append(first_word(command))
                return original(self, command, check_health)

        cls.send_packed_command = send
        self._patches.append((cls, original))

    def __enter__(self) -> "RedisRoundTrips":
        import redis.asyncio.connection
        import redis.connection

        self._wrap(redis.connection.AbstractConnection, is_async=False)
        self._wrap(redis.asyncio.connection.AbstractConnection, is_async=True)
        return self

    def __exit__(self, *exc) -> None:
        for cls, original in reversed(self._patches):
            cls.send_packed_command = original
        self._patches.clear()


def database_url(name: str | None = None) -> str:
    """The test database's URL for a process a test starts (a worker, daphne): ``name`` or the test
    database itself, on the server of ``DATABASE_URL`` as this run reached it (over TCP, or through
    the embedded PostgreSQL's Unix socket, which that URL names in its query)."""
    parts = urlsplit(settings.DATABASE_URL)
    return urlunsplit((parts.scheme, parts.netloc, "/" + (name or connection.settings_dict["NAME"]), parts.query, ""))
