"""Rules of people and roles (apps/accounts/policies.py): acting host, counters, account ``can``."""

import pytest

from apps.accounts import policies, services_users
from apps.accounts.factories import UserFactory
from apps.accounts.models import Role, User
from apps.core.exceptions import DomainError

pytestmark = pytest.mark.django_db


def test_acting_host(users):
    host, sub_host = users["host"], users["sub_host"]
    assert policies.acting_host_id(host) == host.pk
    assert policies.acting_host_id(sub_host) == host.pk
    assert sub_host.acting_host_id == host.pk
    for actor in ("renter", "moderator", "admin"):
        assert policies.acting_host_id(users[actor]) is None
        assert not policies.acts_for_host(users[actor], host.pk)
    assert policies.acts_for_host(sub_host, host.pk) and not policies.acts_for_host(users["other_host"], host.pk)


def test_only_the_admin_sees_payout_requests(users):
    assert [actor for actor in users if users[actor] and policies.sees_counter(users[actor], "payoutRequests")] == [
        "admin"
    ]


def test_the_pending_counter_endpoint_follows_the_counter_roles(clients, users):
    for actor in ("moderator", "admin", "host"):
        data = clients[actor].get("/api/dashboard/pending-counter").json()["data"]
        for name, roles in policies.COUNTER_ROLES.items():
            if users[actor].role not in roles:
                assert data[name] == 0, (actor, name)


EXPECTED = {
    # actor -> target -> can
    "admin": {"renter": True, "host": True, "sub_host": True, "moderator": True, "admin": False},
    "moderator": {"renter": True, "host": True, "sub_host": True, "moderator": False, "admin": False},
    "host": {"renter": False, "host": False, "sub_host": True, "moderator": False, "admin": False},
    "sub_host": {"renter": False, "host": False, "sub_host": False, "moderator": False, "admin": False},
    "renter": {"renter": False, "host": False, "sub_host": False, "moderator": False, "admin": False},
}


def _target(users, name) -> User:
    if name == "moderator":
        return UserFactory(role=Role.MODERATOR, email="mod2@test.example")
    if name == "sub_host":
        return UserFactory(role=Role.SUB_HOST, host=users["host"], email="sub2@test.example")
    if name == "admin":
        return users["admin"]
    return UserFactory(role=Role.RENTER if name == "renter" else Role.HOST)


@pytest.mark.parametrize("actor", list(EXPECTED))
@pytest.mark.parametrize("target", ["renter", "host", "sub_host", "moderator", "admin"])
def test_account_can_matches_what_the_service_refuses(users, actor, target):
    subject = _target(users, target)
    manage = EXPECTED[actor][target]
    can = policies.user_can(users[actor], subject)
    # An active account can be suspended or deleted, not restored.
    # An active account can be suspended or deleted, not restored; it chose its password already.
    assert can == {"suspend": manage, "restore": False, "delete": manage, "resendInvitation": False}
    for status, flag in (("suspended", "suspend"), ("active", "restore"), ("deleted", "delete")):
        before = User.objects.filter(pk=subject.pk).values("is_active", "is_deleted").get()
        if can[flag]:
            services_users.user_status_set(actor=users[actor], user=subject, status=status)
            services_users.user_status_set(actor=users[actor], user=subject, status="active")
        else:
            with pytest.raises(DomainError):
                services_users.user_status_set(actor=users[actor], user=subject, status=status)
            assert User.objects.filter(pk=subject.pk).values("is_active", "is_deleted").get() == before


def test_user_rows_carry_can(clients, users):
    renter = users["renter"]
    rows = clients["moderator"].get("/api/user/renters").json()["data"]["renters"]
    row = next(row for row in rows if row["_id"] == str(renter.pk))
    assert row["can"] == {"suspend": True, "restore": False, "delete": True, "resendInvitation": False}
    services_users.user_status_set(actor=users["admin"], user=renter, status="suspended")
    rows = clients["moderator"].get("/api/user/renters?filters[status]=all").json()["data"]["renters"]
    row = next(row for row in rows if row["_id"] == str(renter.pk))
    assert row["can"] == {"suspend": False, "restore": True, "delete": True, "resendInvitation": False}


@pytest.mark.parametrize("actor", list(EXPECTED))
def test_resend_invitation_flag_matches_what_the_service_refuses(users, actor, django_capture_on_commit_callbacks):
    from django.core import mail

    from apps.accounts.services_users import invitation_resend

    invited = UserFactory(role=Role.SUB_HOST, host=users["host"], email="invited@test.example")
    invited.set_unusable_password()
    invited.save()
    allowed = EXPECTED[actor]["sub_host"]
    assert policies.user_can(users[actor], invited)["resendInvitation"] is allowed
    sent = len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        if allowed:
            invitation_resend(actor=users[actor], user=invited)
        else:
            with pytest.raises(DomainError):
                invitation_resend(actor=users[actor], user=invited)
    assert len(mail.outbox) == sent + (1 if allowed else 0)
    # Once a password is chosen, or the account is deleted, nobody resends.
    invited.set_password("Secret12!")
    invited.save()
    assert policies.user_can(users["admin"], invited)["resendInvitation"] is False
