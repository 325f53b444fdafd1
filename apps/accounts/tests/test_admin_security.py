"""The Django admin held to the API's rules (security round three, defects 2 and 3): a change list
filters only by what its page offers, and the admin's sign-in has the API's lockout and throttle."""

import io
import logging
from urllib.parse import parse_qsl

import pytest
from django.contrib import admin
from django.db import models
from django.test import Client

from apps.accounts.factories import PASSWORD
from apps.core.testing import ApiClient

pytestmark = pytest.mark.django_db

ADMIN_LOGIN = "/django-admin/login/"
USERS = "/django-admin/accounts/user/"


@pytest.fixture
def moderator_client(users) -> Client:
    client = Client()
    client.force_login(users["moderator"])
    return client


def _admin_sign_in(client: Client, email: str, password: str, ip: str = "203.0.113.9"):
    return client.post(ADMIN_LOGIN, {"username": email, "password": password, "next": "/django-admin/"}, REMOTE_ADDR=ip)


# --- 2. No change list filters by a field its page does not offer ----------------------------------


def test_a_moderator_cannot_filter_accounts_by_their_password_hash(moderator_client, users):
    matching = moderator_client.get(USERS, {"role": "admin", "password__regex": r"^pbkdf2_sha256\$"})
    missing = moderator_client.get(USERS, {"role": "admin", "password__regex": r"^nothing-like-it"})
    assert matching.status_code == missing.status_code == 400
    for lookup in ("password", "password__startswith", "role__regex", "email__startswith", "host__password__regex"):
        assert moderator_client.get(USERS, {lookup: "p"}).status_code == 400, lookup
    # The page's own filters still work.
    page = moderator_client.get(USERS, {"role__exact": "admin", "is_active__exact": "1"})
    assert page.status_code == 200 and users["admin"].email in page.content.decode()


def _viewable_admins(client: Client):
    for model, model_admin in admin.site._registry.items():
        url = f"/django-admin/{model._meta.app_label}/{model._meta.model_name}/"
        page = client.get(url)
        if page.status_code == 200:
            yield model, model_admin, url, page


def test_a_moderator_walking_every_change_list_filters_only_by_what_the_page_offers(moderator_client):
    """Every filter link a page shows answers 200; every field of every model outside its page's
    filters, and every probing lookup on a filtered field, answers 400."""
    walked = refused = offered = 0
    for model, model_admin, url, page in _viewable_admins(moderator_client):
        walked += 1
        allowed = {
            (item[0] if isinstance(item, (list, tuple)) else item).split("__", 1)[0]
            for item in model_admin.list_filter
            if isinstance(item, (str, list, tuple))
        }
        for spec in page.context["cl"].filter_specs:
            for choice in spec.choices(page.context["cl"]):
                params = dict(parse_qsl(choice["query_string"].lstrip("?")))
                assert moderator_client.get(url, params).status_code == 200, (url, params)
                offered += 1
        for field in model._meta.get_fields():
            if not field.concrete or isinstance(field, models.ManyToManyField):
                continue
            probes = [f"{field.name}__regex", f"{field.name}__startswith", f"{field.name}__contains"]
            if field.name not in allowed and field.name != model_admin.date_hierarchy:
                probes += [field.name, f"{field.name}__exact"]
            for lookup in probes:
                answer = moderator_client.get(url, {lookup: "a"})
                assert answer.status_code == 400, (url, lookup, answer.status_code)
                refused += 1
    assert walked >= 8 and offered >= 20 and refused >= 200, (walked, offered, refused)


# --- 3. The admin's sign-in: the API's lockout and throttle -----------------------------------------


def test_an_account_locked_on_the_api_is_locked_in_the_admin_too(api, users):
    for i in range(5):
        wrong = api.post(
            "/api/user/login", {"email": "admin@test.example", "password": "Wrong1234!"}, REMOTE_ADDR=f"198.51.100.{i}"
        )
        assert wrong.status_code == 401
    client = Client()
    locked = _admin_sign_in(client, "admin@test.example", PASSWORD)
    assert locked.status_code == 429 and int(locked["Retry-After"]) >= 1
    assert "Too many failed sign-in attempts for this account" in locked.content.decode()
    assert client.get("/django-admin/").status_code == 302  # not signed in


def test_wrong_admin_passwords_lock_the_account_for_the_api_as_well(users):
    client = Client()
    statuses = [_admin_sign_in(client, "moderator@test.example", "Wrong1234!").status_code for _ in range(6)]
    assert statuses[:5] == [200] * 5 and statuses[5] == 429  # the form again, then locked
    api_answer = ApiClient().post(
        "/api/user/login", {"email": "moderator@test.example", "password": PASSWORD}, REMOTE_ADDR="192.0.2.60"
    )
    assert api_answer.status_code == 429


def test_thirty_admin_sign_ins_from_one_address_are_throttled_like_the_api(users):
    client = Client()
    statuses = [
        _admin_sign_in(client, f"nobody{i}@example.com", "Wrong1234!", ip="198.51.100.77").status_code
        for i in range(30)
    ]
    assert statuses[:20] == [200] * 20 and set(statuses[20:]) == {429}
    # The API's sign-in shares the budget of that address.
    api_answer = ApiClient().post(
        "/api/user/login", {"email": "renter@test.example", "password": PASSWORD}, REMOTE_ADDR="198.51.100.77"
    )
    assert api_answer.status_code == 429


def test_staff_sign_in_to_the_admin_and_others_are_refused(users):
    staff = Client()
    assert _admin_sign_in(staff, "admin@test.example", PASSWORD).status_code == 302
    assert staff.get("/django-admin/").status_code == 200
    renter = Client()
    refused = _admin_sign_in(renter, "renter@test.example", PASSWORD)
    assert refused.status_code == 200 and "staff account" in refused.content.decode()
    assert renter.get("/django-admin/").status_code == 302


@pytest.fixture
def console():
    """What the site's log handler writes (LOGGING's console handler, on the root logger)."""
    [handler] = [h for h in logging.getLogger().handlers if isinstance(h, logging.StreamHandler) and h.filters]
    written = io.StringIO()
    previous = handler.setStream(written)
    yield written
    handler.setStream(previous)


def test_a_refusal_in_the_admin_is_logged_on_one_line(moderator_client, console):
    assert moderator_client.get("/django-admin/core/effect/").status_code == 403
    assert moderator_client.get(USERS, {"password__regex": "^p"}).status_code == 400
    logged = console.getvalue()
    assert "Forbidden (Permission denied): /django-admin/core/effect/" in logged
    assert "Filtering by password__regex not allowed" in logged
    assert "Traceback" not in logged
