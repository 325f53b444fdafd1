import io

import pytest
from django.core.management import call_command
from django.db.models import Count

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.listings.factories import ListingFactory
from apps.notifications.kinds import KINDS
from apps.notifications.models import Notification

pytestmark = pytest.mark.django_db


def test_seed_scale_notifications_adds_the_asked_number_in_batches_for_every_user():
    hosts = [UserFactory(role=Role.HOST) for _ in range(2)]
    renters = [UserFactory(role=Role.RENTER) for _ in range(3)]
    ListingFactory(host=hosts[0])
    out = io.StringIO()

    call_command("seed_scale_notifications", count=500, batch=200, stdout=out)

    assert Notification.objects.count() == 500
    assert "notifications 500/500" in out.getvalue()
    per_user = dict(Notification.objects.values_list("user_id").annotate(n=Count("id")))
    assert set(per_user) == {user.pk for user in [*hosts, *renters]}
    # One row in ten goes to the busiest host on top of its even share.
    assert per_user[hosts[0].pk] > per_user[renters[0].pk]
    assert set(Notification.objects.values_list("kind", flat=True)) <= set(KINDS)
    assert Notification.objects.filter(read=False).exists() and Notification.objects.filter(read=True).exists()

    call_command("seed_scale_notifications", count=100, stdout=out)
    assert Notification.objects.count() == 600
