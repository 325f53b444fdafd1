"""The bell's counts (live and unread notifications) follow every write, whatever path made it.

The list answers ``totalCount`` and ``totalUnread`` from one row the database keeps per user
(``NotificationCount``) instead of counting the user's rows on every call; these tests check that
row against the rows themselves after each kind of write.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.notifications.models import Notification, NotificationCount
from apps.notifications.services import notify

pytestmark = pytest.mark.django_db

LIST = "/api/notifications/get-all"


def make(user, n=1):
    return [notify(user=user, kind="bookingApproved", content=f"Booking {i} approved") for i in range(n)]


def shown(client) -> tuple[int, int]:
    """What the user sees: (live, unread) from the full list."""
    data = client.get(LIST, {"filters[all]": "true"}).json()["data"]
    return data["totalCount"], data["totalUnread"]


def truth(user) -> tuple[int, int]:
    live = Notification.objects.filter(user=user, is_deleted=False)
    return live.count(), live.filter(read=False).count()


def test_counts_follow_the_users_own_actions(clients, users):
    renter, client = users["renter"], clients["renter"]
    first, second, third, fourth = make(renter, 4)
    make(users["other_renter"], 2)
    assert shown(client) == truth(renter) == (4, 4)

    client.patch(f"/api/notifications/mark-as-read/{first.pk}")
    client.patch(f"/api/notifications/mark-as-read/{first.pk}")  # twice: counted once
    assert shown(client) == truth(renter) == (4, 3)

    client.patch(f"/api/notifications/update/{first.pk}", {"read": False}, format="json")
    client.patch(f"/api/notifications/update/{second.pk}", {"seen": True}, format="json")  # seen is not read
    assert shown(client) == truth(renter) == (4, 4)

    client.patch(f"/api/notifications/delete/{third.pk}")  # an unread one
    client.patch(f"/api/notifications/mark-as-read/{fourth.pk}")
    client.patch(f"/api/notifications/delete/{fourth.pk}")  # a read one
    assert shown(client) == truth(renter) == (2, 2)

    client.patch("/api/notifications/mark-all-as-read")
    assert shown(client) == truth(renter) == (2, 0)
    # Another user's counts moved only with their own rows.
    assert shown(clients["other_renter"]) == truth(users["other_renter"]) == (2, 2)


def test_counts_follow_bulk_writes_outside_the_services(clients, users):
    host = users["host"]
    make(host, 5)
    Notification.objects.bulk_create(
        [Notification(user=host, kind="bookingApproved", type="booking", content="x", read=True) for _ in range(3)]
    )
    assert shown(clients["host"]) == truth(host) == (8, 5)
    Notification.objects.filter(user=host, read=True).update(read=False)
    Notification.objects.filter(user=host).order_by("created_at")[:1].get().delete()
    assert shown(clients["host"]) == truth(host) == (7, 7)


def test_deleting_an_account_takes_its_counts_along(users):
    make(users["other_renter"], 3)
    users["other_renter"].delete()
    assert not NotificationCount.objects.filter(user_id=users["other_renter"].pk).exists()


def test_the_list_no_longer_counts_the_users_rows(clients, users):
    make(users["host"], 12)
    with CaptureQueriesContext(connection) as queries:
        data = clients["host"].get(LIST, {"page": 2, "filters[all]": "true"}).json()["data"]
    assert (data["totalCount"], data["totalUnread"], data["totalPages"], len(data["notifications"])) == (12, 12, 2, 2)
    assert not [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"].upper()]


# --- Pending counters ---------------------------------------------------------------------------


def _counting_queries(client) -> tuple[dict, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        data = client.get("/api/dashboard/pending-counter").json()["data"]
    return data, [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"].upper()]


@pytest.mark.parametrize("role", ["host", "admin", "moderator"])
def test_pending_counters_are_read_in_one_query_and_match_each_count(clients, users, role):
    from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
    from apps.notifications.counters import COUNTER_ROLES, registered_counters

    listing = PricedEventListingFactory(host=users["host"], payment_preference="payLater")
    for days in (10, 11, 12):
        booking_make(renter=users["renter"], listing=listing, day=weekday(days))

    data, counting = _counting_queries(clients[role])

    assert len(counting) == 1, counting
    for name, fn in registered_counters().items():
        if users[role].role in COUNTER_ROLES[name]:
            rows = fn(users[role])
            assert data[name] == (rows.count() if rows is not None else 0), name
    if role == "host":
        assert data["pendingBookings"] == 3
