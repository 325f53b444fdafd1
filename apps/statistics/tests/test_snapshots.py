"""The platform's precomputed answers: same numbers as live, refreshed by the task, never stale."""

import datetime as dt
import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from apps.statistics import snapshots, tasks
from apps.statistics.models import PlatformSnapshot

pytestmark = pytest.mark.django_db
BASE = "/api/dashboard/"


def get(client, path):
    response = client.get(BASE + path)
    assert response.status_code == 200, response.content
    return response.json()["data"]


def test_refresh_stores_every_platform_answer_equal_to_the_live_one(clients, world):
    assert tasks.refresh_platform_statistics() == len(snapshots.platform_calls()) == 29
    assert PlatformSnapshot.objects.count() == 29
    for name, kwargs in snapshots.platform_calls():
        stored = PlatformSnapshot.objects.get(key=snapshots.snapshot_key(name, kwargs)).data
        live = snapshots.CALLS[name](snapshots.PLATFORM, **kwargs)
        assert stored == json.loads(json.dumps(live, cls=DjangoJSONEncoder)), name


def test_staff_read_the_snapshot_and_a_host_reads_live(clients, users, world):
    tasks.refresh_platform_statistics()
    world["bookings"]["b4"].delete()
    assert get(clients["admin"], "get-dashboard-numbers/week")["totalBooking"] == 4, "snapshot of before"
    assert get(clients["other_host"], "get-dashboard-numbers/week")["totalBooking"] == 0, "hosts are live"
    tasks.refresh_platform_statistics()
    assert get(clients["admin"], "get-dashboard-numbers/week")["totalBooking"] == 3


def test_stale_snapshot_is_recomputed(clients, world):
    key = snapshots.snapshot_key("geo-chart", {})
    PlatformSnapshot.objects.create(
        key=key, data={"geoChart": {"Atlantis": 9}}, computed_at=timezone.now() - dt.timedelta(hours=1)
    )
    assert get(clients["moderator"], "geo-chart")["geoChart"] == {"Canada": 1, "India": 1, "United States": 1}
    assert PlatformSnapshot.objects.get(key=key).computed_at > timezone.now() - dt.timedelta(minutes=1)


def test_keys_name_the_period_so_a_new_week_never_reads_the_last():
    sunday = dt.datetime(2026, 11, 22, 15, tzinfo=dt.UTC)
    saturday = sunday - dt.timedelta(days=1)
    kwargs = {"interval": "week"}
    assert snapshots.snapshot_key("property-statistics", kwargs, sunday) == "property-statistics:week:2026-11-22"
    assert snapshots.snapshot_key("property-statistics", kwargs, saturday) == "property-statistics:week:2026-11-15"
    assert snapshots.snapshot_key("get-dashboard-numbers", {"interval": "month"}, sunday).endswith("2026-11-01")


def test_moderator_gets_no_money_from_the_snapshot(clients, world):
    tasks.refresh_platform_statistics()
    moderator = get(clients["moderator"], "get-dashboard-numbers/week")
    assert "totalRevenue" not in moderator and "totalRentPaid" not in moderator
    assert get(clients["admin"], "get-dashboard-numbers/week")["totalRevenue"] == "160.00"
