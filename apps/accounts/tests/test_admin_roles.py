"""The Django admin by role: a moderator walks it and every way to raise its powers is refused with
nothing changed; the admin changes roles only through the service, which records them."""

import hashlib

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps as django_apps
from django.contrib.admin.models import LogEntry
from django.db.models.fields.files import FieldFile
from django.test import Client

from apps.accounts.models import Role, User
from apps.core.models import StatusChange
from apps.core.testing import ApiClient
from apps.listings.factories import AmenityFactory

pytestmark = pytest.mark.django_db

USER_URL = "/django-admin/accounts/user/{}/change/"


def _digest() -> str:
    """Every row of every table a staff member could reach through the admin."""
    digest = hashlib.sha256()
    for model in sorted(django_apps.get_models(), key=lambda m: m._meta.label):
        if model._meta.app_label in {"sessions", "admin"} or model._meta.proxy:
            continue
        for row in model._base_manager.order_by("pk").values_list():
            digest.update(repr(row).encode())
    return digest.hexdigest()


def _change_form_data(client: Client, url: str) -> dict:
    """What the change form at ``url`` would post back unchanged (as the admin sees it)."""
    response = client.get(url)
    assert response.status_code == 200
    data: dict = {}

    def add(form, name: str, key: str) -> None:
        value = form[name].value()
        if value is None or value is False or isinstance(value, FieldFile):
            return
        data[key] = "on" if value is True else form.fields[name].prepare_value(value)

    form = response.context["adminform"].form
    for name in form.fields:
        add(form, name, name)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        for name in formset.management_form.fields:
            data[formset.management_form.add_prefix(name)] = formset.management_form[name].value()
        for sub in formset.forms:
            for name in sub.fields:
                add(sub, name, sub.add_prefix(name))
    return data


@pytest.fixture
def admin_client(users) -> Client:
    client = Client()
    client.force_login(users["admin"])
    return client


@pytest.fixture
def moderator_client(users) -> Client:
    client = Client()
    client.force_login(users["moderator"])
    return client


def test_a_moderator_cannot_raise_its_powers_through_the_admin(admin_client, moderator_client, users):
    moderator, admin = users["moderator"], users["admin"]
    EmailAddress.objects.create(user=admin, email=admin.email, primary=True, verified=True)
    admin_form = _change_form_data(admin_client, USER_URL.format(users["renter"].pk))
    before = _digest()

    # It reads accounts, read-only: no field of the form can be posted.
    page = moderator_client.get(USER_URL.format(admin.pk))
    assert page.status_code == 200 and not page.context["adminform"].form.fields
    attempts = {
        "own role": (USER_URL.format(moderator.pk), {"role": Role.ADMIN}),
        "the admin's e-mail": (USER_URL.format(admin.pk), {"email": "mine@test.example"}),
        "another's role and host": (USER_URL.format(users["renter"].pk), {"role": Role.SUB_HOST}),
        "another's tax": (USER_URL.format(users["host"].pk), {"tax": "50"}),
    }
    for what, (url, change) in attempts.items():
        response = moderator_client.post(url, {**admin_form, **change})
        assert response.status_code == 403, what
    # Nor around the user form: allauth's addresses, groups, tokens, the outbox, one-time codes.
    for url in (
        "/django-admin/account/emailaddress/",
        "/django-admin/account/emailaddress/add/",
        "/django-admin/auth/group/add/",
        "/django-admin/token_blacklist/outstandingtoken/",
        "/django-admin/core/effect/",
        "/django-admin/accounts/onetimecode/",
        "/django-admin/accounts/user/add/",
    ):
        assert moderator_client.get(url).status_code == 403, url
    address = EmailAddress.objects.get(user=admin)
    response = moderator_client.post(
        f"/django-admin/account/emailaddress/{address.pk}/change/",
        {"user": str(admin.pk), "email": "mine@test.example", "verified": "on", "primary": "on"},
    )
    assert response.status_code == 403
    response = moderator_client.post("/django-admin/auth/group/add/", {"name": "powers", "permissions": []})
    assert response.status_code == 403
    # No money app at all in its admin index.
    index = moderator_client.get("/django-admin/").content.decode()
    assert "/django-admin/payments/" not in index and "/django-admin/core/effect/" not in index
    # An action on the admin account goes through the account service, which refuses it.
    response = moderator_client.post(
        "/django-admin/accounts/user/", {"action": "suspend", "_selected_action": [str(admin.pk)]}
    )
    assert response.status_code == 302

    assert _digest() == before
    moderator.refresh_from_db()
    assert moderator.role == Role.MODERATOR
    # Its next API call is still a moderator's: the payouts stay out of reach.
    api = ApiClient().as_user(moderator)
    assert api.get("/api/payout/get-all").status_code == 403


def test_a_moderator_changes_what_its_pages_allow_and_the_admin_logs_it(moderator_client, users):
    amenity = AmenityFactory(name="Wifi")
    response = moderator_client.post(
        f"/django-admin/listings/amenity/{amenity.pk}/change/", {"name": "Fast wifi", "icon": "", "is_active": "on"}
    )
    assert response.status_code == 302
    amenity.refresh_from_db()
    assert amenity.name == "Fast wifi"
    entry = LogEntry.objects.get(object_id=str(amenity.pk))
    assert entry.user == users["moderator"] and entry.is_change()
    # The account actions record the change in the status history, with who made it.
    response = moderator_client.post(
        "/django-admin/accounts/user/", {"action": "suspend", "_selected_action": [str(users["renter"].pk)]}
    )
    assert response.status_code == 302
    change = StatusChange.objects.get(machine="account", object_id=str(users["renter"].pk))
    assert (change.from_status, change.to_status, change.actor) == ("active", "suspended", users["moderator"])


def test_the_moderator_reads_no_money_history(moderator_client, admin_client, users):
    from apps.core.statemachine import record

    record(users["host"], machine="payout", from_status="", to_status="onhold")
    record(users["host"], machine="account", from_status="active", to_status="suspended")
    seen = moderator_client.get("/django-admin/core/statuschange/").context["cl"].result_count
    assert seen == 1
    assert admin_client.get("/django-admin/core/statuschange/").context["cl"].result_count == 2


def test_only_the_admin_changes_roles_never_its_own_and_every_change_is_recorded(admin_client, users):
    admin, renter = users["admin"], users["renter"]
    url = USER_URL.format(renter.pk)
    form = _change_form_data(admin_client, url)
    response = admin_client.post(url, {**form, "role": Role.HOST, "email": "elsewhere@test.example"})
    assert response.status_code == 302
    renter.refresh_from_db()
    assert renter.role == Role.HOST
    assert renter.email == "renter@test.example"  # e-mail is the owner's to change, with a code
    change = StatusChange.objects.get(machine="role", object_id=str(renter.pk))
    assert (change.from_status, change.to_status, change.actor) == (Role.RENTER, Role.HOST, admin)
    assert LogEntry.objects.filter(object_id=str(renter.pk), user=admin).exists()

    # Not to admin, and not a subHost without its host: the form says why and nothing changes.
    for change in ({"role": Role.ADMIN}, {"role": Role.SUB_HOST, "host": ""}):
        response = admin_client.post(url, {**_change_form_data(admin_client, url), **change})
        assert response.status_code == 200 and response.context["adminform"].form.errors
    # Its own role and another admin's are not in the form at all.
    other_admin = User.objects.create_superuser("admin2@test.example", "Demo1234!")
    for target in (admin, other_admin):
        target_url = USER_URL.format(target.pk)
        form = _change_form_data(admin_client, target_url)
        assert "role" not in form
        admin_client.post(target_url, {**form, "role": Role.RENTER})
    for target in (admin, other_admin):
        target.refresh_from_db()
        assert target.role == Role.ADMIN
    assert not StatusChange.objects.filter(machine="role", object_id__in=[str(admin.pk), str(other_admin.pk)])
