import uuid

import pytest

from apps.core.testing import check_role_matrix
from apps.notifications import counters
from apps.notifications.models import Notification
from apps.notifications.services import notify

pytestmark = pytest.mark.django_db

LIST = "/api/notifications/get-all"
READ = "/api/notifications/mark-as-read/{}"
READ_ALL = "/api/notifications/mark-all-as-read"
UPDATE = "/api/notifications/update/{}"
DELETE = "/api/notifications/delete/{}"
COUNTER = "/api/dashboard/pending-counter"
SIGNED_IN = ("renter", "other_renter", "host", "other_host", "sub_host", "moderator", "admin")
BAD_IDS = ("not-a-uuid", "1 OR 1=1", "'; DROP TABLE notifications_notification; --", "é🙂", "x" * 5000)


def make(user, n=1, **fields):
    made = []
    for i in range(n):
        made.append(notify(user=user, kind="bookingApproved", content=f"Booking {i} approved", link=f"/booking/{i}"))
    if fields:
        Notification.objects.filter(id__in=[m.id for m in made]).update(**fields)
    return made


# --- List ---------------------------------------------------------------------------------------


def test_list_role_matrix(clients):
    check_role_matrix(clients, "get", LIST, allowed=SIGNED_IN)


def test_list_shows_only_own_unread_by_default_and_all_on_request(clients, users):
    make(users["renter"], 3)
    make(users["renter"], 2, read=True, seen=True)
    make(users["other_renter"], 4)
    body = clients["renter"].get(LIST).json()["data"]
    assert body["totalUnread"] == 3 and body["totalCount"] == 3
    assert [n["read"] for n in body["notifications"]] == [False] * 3
    assert set(body["notifications"][0]) == {"_id", "content", "type", "kind", "link", "read", "seen", "createdAt"}
    everything = clients["renter"].get(LIST, {"filters[all]": "true"}).json()["data"]
    assert everything["totalCount"] == 5 and everything["totalUnread"] == 3
    assert len(everything["notifications"]) == 5
    assert all(n["content"].startswith("Booking") for n in everything["notifications"])


def test_list_pages_of_ten_newest_first(clients, users):
    make(users["host"], 23)
    first = clients["host"].get(LIST, {"page": 1, "limit": 10}).json()["data"]
    third = clients["host"].get(LIST, {"page": 3, "limit": 10}).json()["data"]
    assert len(first["notifications"]) == 10 and len(third["notifications"]) == 3
    assert first["totalPages"] == 3 and first["totalCount"] == 23
    assert first["notifications"][0]["createdAt"] >= first["notifications"][-1]["createdAt"]
    too_big = clients["host"].get(LIST, {"limit": 500}).json()["data"]
    assert len(too_big["notifications"]) == 10
    beyond = clients["host"].get(LIST, {"page": 99}).json()["data"]
    assert beyond["notifications"] == [] and beyond["totalCount"] == 23


@pytest.mark.parametrize(
    "params",
    [
        {"page": "abc"},
        {"page": 0},
        {"limit": -1},
        {"page": "1e9999"},
        {"filters[all]": "maybe"},
        {"filters[all]": "🙂"},
    ],
)
def test_list_bad_query_is_a_clear_400(clients, params):
    response = clients["renter"].get(LIST, params)
    assert response.status_code == 400
    assert response.json()["message"]


# --- Mark as read, mark all, update, delete ------------------------------------------------------


def test_mark_as_read_role_matrix_and_ownership(clients, users):
    (mine,) = make(users["renter"])
    statuses = check_role_matrix(clients, "patch", READ.format(mine.id), allowed=("renter",), hidden_status=(404,))
    assert statuses["renter"] == 200
    mine.refresh_from_db()
    assert mine.read and mine.seen and mine.read_at


def test_mark_as_read_answers_the_new_unread_count(clients, users):
    first, _second = make(users["renter"], 2)
    body = clients["renter"].patch(READ.format(first.id)).json()
    assert body["data"]["notification"]["read"] is True
    assert body["data"]["totalUnread"] == 1
    assert clients["renter"].get(LIST).json()["data"]["totalUnread"] == 1


def test_others_cannot_touch_my_notification(clients, users):
    (mine,) = make(users["renter"])
    for actor in ("other_renter", "host", "admin", "moderator"):
        for method, url, data in (
            ("patch", READ.format(mine.id), None),
            ("patch", UPDATE.format(mine.id), {"read": True}),
            ("patch", DELETE.format(mine.id), None),
        ):
            assert getattr(clients[actor], method)(url, data, format="json").status_code == 404
    mine.refresh_from_db()
    assert not mine.read and not mine.is_deleted


def test_mark_all_role_matrix_touches_only_own(clients, users):
    make(users["renter"], 3)
    make(users["other_renter"], 2)
    check_role_matrix(clients, "patch", READ_ALL, allowed=SIGNED_IN)
    assert Notification.objects.filter(user=users["renter"], read=False).count() == 0
    assert Notification.objects.filter(user=users["other_renter"], read=False).count() == 0
    make(users["other_renter"], 2)
    body = clients["renter"].patch(READ_ALL).json()
    assert body["data"] == {"updated": 0, "totalUnread": 0}
    assert Notification.objects.filter(user=users["other_renter"], read=False).count() == 2


def test_update_sets_read_and_seen(clients, users):
    (mine,) = make(users["host"])
    check_role_matrix(
        clients, "patch", UPDATE.format(mine.id), allowed=("host",), data={"seen": True}, hidden_status=(404,)
    )
    mine.refresh_from_db()
    assert mine.seen and not mine.read
    body = clients["host"].patch(UPDATE.format(mine.id), {"read": True}, format="json").json()["data"]
    assert body["notification"]["read"] is True and body["totalUnread"] == 0
    body = clients["host"].patch(UPDATE.format(mine.id), {"read": False}, format="json").json()["data"]
    assert body["notification"]["read"] is False and body["totalUnread"] == 1


@pytest.mark.parametrize("payload", [{}, {"read": "perhaps"}, {"seen": [1]}, {"read": {"$ne": 1}}, ["read"], "true"])
def test_update_bad_bodies(clients, users, payload):
    (mine,) = make(users["host"])
    response = clients["host"].patch(UPDATE.format(mine.id), payload, format="json")
    assert response.status_code == 400
    assert response.json()["message"]


def test_update_malformed_json(clients, users):
    (mine,) = make(users["host"])
    response = clients["host"].patch(UPDATE.format(mine.id), data='{"read": tru', content_type="application/json")
    assert response.status_code == 400
    assert "JSON" in response.json()["message"]


def test_delete_hides_it(clients, users):
    (mine,) = make(users["sub_host"])
    check_role_matrix(clients, "patch", DELETE.format(mine.id), allowed=("sub_host",), hidden_status=(404,))
    assert clients["sub_host"].get(LIST, {"filters[all]": "true"}).json()["data"]["totalCount"] == 0
    assert clients["sub_host"].patch(DELETE.format(mine.id)).status_code == 404


@pytest.mark.parametrize("bad", BAD_IDS)
def test_bad_ids_are_404_not_500(clients, bad):
    for url in (READ, UPDATE, DELETE):
        response = clients["renter"].patch(url.format(bad), {"read": True}, format="json")
        assert response.status_code == 404, (url, bad, response.status_code)
    assert clients["renter"].patch(READ.format(uuid.uuid4())).status_code == 404


def test_mark_calls_need_sign_in(api, users):
    (mine,) = make(users["renter"])
    assert api.patch(READ.format(mine.id)).status_code == 401
    assert api.patch(READ_ALL).status_code == 401
    mine.refresh_from_db()
    assert not mine.read


def test_session_cookie_works_and_needs_csrf(users):
    from apps.core.testing import ApiClient

    (mine,) = make(users["renter"])
    browser = ApiClient(enforce_csrf_checks=True)
    browser.force_login(users["renter"])
    assert browser.get(LIST).status_code == 200
    assert browser.patch(READ.format(mine.id)).status_code == 403  # no CSRF token
    mine.refresh_from_db()
    assert not mine.read


# --- Pending counters ------------------------------------------------------------------------------


@pytest.fixture
def registered():
    """Counters as apps would register them; restored afterwards."""
    before = counters.registered_counters()
    counters.register_counter("pendingBookings", lambda user: 4)
    counters.register_counter("pendingListings", lambda user: 12)
    counters.register_counter("pendingDisputes", lambda user: 2 if user.role != "moderator" else 3)
    yield
    for name in counters.COUNTER_NAMES:
        counters.unregister_counter(name)
    for name, fn in before.items():
        counters.register_counter(name, fn)


def test_pending_counter_role_matrix(clients):
    allowed = ("host", "other_host", "sub_host", "moderator", "admin")
    check_role_matrix(clients, "get", COUNTER, allowed=allowed)


def test_pending_counter_counts_for_the_role_and_zero_when_unregistered(clients, registered):
    host = clients["host"].get(COUNTER).json()["data"]
    assert host == {
        "pendingBookings": 4,
        "pendingDisputes": 2,
        "pendingListings": 0,
        "otherRequests": 0,
        "payoutRequests": 0,
        "pendingVerificationRequest": 0,
        "stuckEffects": 0,
    }
    admin = clients["admin"].get(COUNTER).json()["data"]
    assert admin["pendingListings"] == 12 and admin["pendingBookings"] == 0 and admin["pendingDisputes"] == 2
    assert clients["moderator"].get(COUNTER).json()["data"]["pendingDisputes"] == 3
    assert clients["sub_host"].get(COUNTER).json()["data"]["pendingBookings"] == 4


def test_a_failing_counter_shows_zero(clients):
    def broken(user):
        raise RuntimeError("boom")

    before = counters.registered_counters().get("otherRequests")
    counters.register_counter("otherRequests", broken)
    try:
        response = clients["host"].get(COUNTER)
    finally:
        counters.unregister_counter("otherRequests")
        if before is not None:
            counters.register_counter("otherRequests", before)
    assert response.status_code == 200 and response.json()["data"]["otherRequests"] == 0


def test_unknown_counter_names_are_refused():
    with pytest.raises(ValueError):
        counters.register_counter("pendingPizzas", lambda user: 1)
