"""Django's private names that apps.core.django_internals reads still work as it expects, and no
other module reads them (an upgrade of Django then breaks one module and this test, not the site)."""

import pathlib
import re

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils.html import json_script
from django.views.decorators.csp import csp_override
from rest_framework.request import Request

from apps.accounts.factories import UserFactory
from apps.core import django_internals
from apps.core.models import StatusChange

APPS = pathlib.Path(__file__).resolve().parents[2]
PRIVATE = re.compile(
    r"run_on_commit|savepoint_ids|_json_script_escapes|_state\.fields_cache|_prefetched_objects_cache"
    r"|_csp_config|\._request\b|from django[\w.]* import (?:\(\s*)?_[a-z]"
)


def test_json_script_escapes_are_those_of_json_script():
    text = "</script><b>&"
    escaped = text.translate(django_internals.JSON_SCRIPT_ESCAPES)
    assert "<" not in escaped and ">" not in escaped and "&" not in escaped
    assert escaped in json_script(text)


@pytest.mark.django_db(transaction=True)
def test_on_commit_callbacks_and_savepoints_are_read_as_registered():
    def first():
        pass

    def inner():
        pass

    with transaction.atomic():
        assert django_internals.open_savepoints(connection) == set()
        transaction.on_commit(first)
        with transaction.atomic():
            (savepoint,) = django_internals.open_savepoints(connection)
            transaction.on_commit(inner)
            assert django_internals.pending_on_commit(connection) == [(set(), first), ({savepoint}, inner)]
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_loaded_relation_and_prefetched_relations():
    user = UserFactory()
    change = StatusChange.objects.create(
        machine="test",
        content_type=ContentType.objects.get_for_model(user),
        object_id="1",
        from_status="",
        to_status="a",
        actor=user,
    )
    fresh = StatusChange.objects.get(pk=change.pk)
    assert django_internals.loaded_relation(fresh, "actor") is None
    loaded = StatusChange.objects.select_related("actor").get(pk=change.pk)
    assert django_internals.loaded_relation(loaded, "actor") == user

    assert django_internals.prefetched_or_empty(user) == {}
    django_internals.prefetched(user)["things"] = ["known"]
    assert django_internals.prefetched_or_empty(user) == {"things": ["known"]}
    user.refresh_from_db()
    assert django_internals.prefetched_or_empty(user) == {}


def test_a_views_own_csp_is_read_and_set_where_csp_override_puts_it():
    chosen = {"default-src": ["'self'"]}
    response = csp_override(chosen)(lambda request: HttpResponse())(RequestFactory().get("/"))
    assert django_internals.response_csp(response, None) == chosen
    assert django_internals.response_csp(HttpResponse(), {"default": True}) == {"default": True}
    plain = HttpResponse()
    django_internals.set_response_csp(plain, chosen)
    assert django_internals.response_csp(plain, None) == chosen


def test_the_django_request_inside_a_drf_request():
    django_request = RequestFactory().get("/")
    assert django_internals.http_request(Request(django_request)) is django_request


def test_no_other_module_reads_django_private_names():
    offenders = [
        f"{path.relative_to(APPS.parent)}:{number}"
        for path in APPS.rglob("*.py")
        if path.name != "django_internals.py" and "tests" not in path.parts and "migrations" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert offenders == [], "Django's private API is read through apps.core.django_internals only"
