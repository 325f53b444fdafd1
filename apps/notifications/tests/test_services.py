import pytest
from django.core import mail
from django.test import TestCase

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.notifications.kinds import KINDS, effective_settings, normalize_settings
from apps.notifications.models import Notification
from apps.notifications.services import notify

pytestmark = pytest.mark.django_db


def test_notify_stores_the_row_and_mails_by_default():
    renter = UserFactory(role=Role.RENTER, email="r@example.com", first_name="Riley")
    with TestCase.captureOnCommitCallbacks(execute=True):
        notification = notify(user=renter, kind="bookingApproved", content="Your booking was approved.", link="/b/1")
    assert notification is not None
    stored = Notification.objects.get(user=renter)
    assert (stored.kind, stored.type, stored.content, stored.link, stored.read) == (
        "bookingApproved",
        "booking",
        "Your booking was approved.",
        "/b/1",
        False,
    )
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["r@example.com"]
    assert message.subject == KINDS["bookingApproved"].label
    assert "Your booking was approved." in message.body
    assert "http://" in message.body and "/b/1" in message.body
    assert "Your booking was approved." in message.alternatives[0][0]


def test_notify_respects_the_users_settings():
    user = UserFactory(
        notification_settings={"bookingApproved": {"inApp": False, "email": False}, "bookingRejected": {"email": False}}
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert notify(user=user, kind="bookingApproved", content="x") is None
        assert notify(user=user, kind="bookingRejected", content="y") is not None
    assert list(Notification.objects.values_list("content", flat=True)) == ["y"]
    assert mail.outbox == []


def test_notify_skips_deleted_accounts_and_refuses_unknown_kinds():
    gone = UserFactory(is_deleted=True)
    assert notify(user=gone, kind="bookingApproved", content="x") is None
    assert notify(user=None, kind="bookingApproved", content="x") is None
    with pytest.raises(ValueError):
        notify(user=UserFactory(), kind="noSuchKind", content="x")
    assert not Notification.objects.exists()


def test_notify_truncates_long_content_and_keeps_unicode():
    user = UserFactory()
    n = notify(user=user, kind="listingApproved", content="é🙂" * 2000, link="/x" * 1000)
    n.refresh_from_db()
    assert len(n.content) == 1000 and n.content.startswith("é🙂")
    assert len(n.link) == 500


def test_settings_defaults_overrides_and_validation():
    settings = effective_settings({"bookingApproved": {"push": False}, "junk": 1})
    assert set(settings) == set(KINDS)
    assert settings["bookingApproved"] == {"inApp": True, "email": True, "push": False}
    assert settings["messageReceived"]["inApp"] is False
    assert normalize_settings({"bookingApproved": {"email": False}}) == {"bookingApproved": {"email": False}}
    for bad in (
        [],
        {"nope": {}},
        {"bookingApproved": []},
        {"bookingApproved": {"sms": True}},
        {"bookingApproved": {"email": "yes"}},
    ):
        with pytest.raises(ValueError):
            normalize_settings(bad)
