import inspect

import pytest
from django.core.cache import cache

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.accounts.services import tokens_for
from apps.core.testing import ACTORS, ApiClient

# Test clients sign in the way the login does, so their tokens carry the login's claims.
ApiClient.token_for = staticmethod(lambda user: tokens_for(user)["token"])

# The browser fixtures (one Playwright session per test worker) for every app's browser tests.
pytest_plugins = ["apps.core.tests.browser.fixtures"]


@pytest.fixture(autouse=True)
def _fresh_redis():
    """Each test starts with empty rate-limit counters and cache (this worker's own Redis database)."""
    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _live_events_match_their_schema(monkeypatch):
    """Every event the server sends to pages' sockets matches its declared ``LiveEvent<Name>`` schema.

    The events are checked once the test is over, so the check takes no time from a test that waits
    for a socket. An event a test sends itself (to exercise delivery, with made-up data) is the test's
    own business.
    """
    from apps.dashboard.tests.contract_schema import check_live_event, plain
    from apps.notifications import realtime

    send = realtime.send_to_groups
    sent: list[tuple[str, object]] = []

    def sent_by_a_test() -> bool:
        frame = inspect.currentframe()
        while frame and frame.f_globals.get("__name__") in (__name__, realtime.__name__):
            frame = frame.f_back
        return bool(frame) and ".tests." in frame.f_globals.get("__name__", "")

    def recorded(groups, event, data, **kwargs):
        if not sent_by_a_test():
            sent.append((event, plain(data)))
        return send(groups, event, data, **kwargs)

    monkeypatch.setattr(realtime, "send_to_groups", recorded)
    yield
    for event, data in sent:
        check_live_event(event, data)


@pytest.fixture
def api() -> ApiClient:
    return ApiClient()


@pytest.fixture
def users(db) -> dict:
    """One user per actor of the role matrix; ``sub_host`` acts for ``host``."""
    host = UserFactory(role=Role.HOST, email="host@test.example", user_name="hosty")
    return {
        "anonymous": None,
        "renter": UserFactory(role=Role.RENTER, email="renter@test.example"),
        "other_renter": UserFactory(role=Role.RENTER, email="renter2@test.example"),
        "host": host,
        "other_host": UserFactory(role=Role.HOST, email="host2@test.example"),
        "sub_host": UserFactory(role=Role.SUB_HOST, host=host, email="subhost@test.example"),
        "moderator": UserFactory(role=Role.MODERATOR, email="moderator@test.example"),
        "admin": UserFactory(role=Role.ADMIN, email="admin@test.example"),
    }


@pytest.fixture
def clients(users) -> dict[str, ApiClient]:
    return {actor: ApiClient().as_user(users[actor]) for actor in ACTORS}
