"""The account and back-office pages of the dashboard mount their island for every role the route
table allows, and show the role's own dashboard to the others (spec 2.3)."""

import json

import pytest

from apps.dashboard.navigation import ROUTES_BY_NAME

pytestmark = pytest.mark.django_db

ROLE_ACTORS = {"admin": "admin", "moderator": "moderator", "host": "host", "subHost": "sub_host", "renter": "renter"}
EVERYONE = set(ROLE_ACTORS)
STAFF = {"admin", "moderator"}

PAGES = [
    ("/profile", "profile", "DashboardProfile", {"view": "profile"}, EVERYONE),
    ("/profile/edit", "profile-edit", "DashboardProfile", {"view": "edit"}, EVERYONE),
    ("/general", "general", "DashboardSettings", {}, EVERYONE),
    ("/hosts", "hosts", "DashboardUsers", {"view": "list", "kind": "hosts"}, STAFF),
    ("/renters", "renters", "DashboardUsers", {"view": "list", "kind": "renters"}, STAFF | {"host", "subHost"}),
    ("/sub-hosts", "sub-hosts", "DashboardUsers", {"view": "list", "kind": "subHosts"}, {"host"}),
    ("/moderators", "moderators", "DashboardUsers", {"view": "list", "kind": "moderators"}, {"admin"}),
    ("/addhost", "addhost", "DashboardUsers", {"view": "add", "kind": "hosts"}, STAFF),
    ("/add-subhost", "add-subhost", "DashboardUsers", {"view": "add", "kind": "subHosts"}, {"host"}),
    ("/add-moderator", "add-moderator", "DashboardUsers", {"view": "add", "kind": "moderators"}, {"admin"}),
    ("/view-user/abc", "view-user", "DashboardUsers", {"view": "user", "id": "abc"}, EVERYONE),
    ("/verificationRequest", "verificationRequest", "DashboardVerification", {}, STAFF),
    ("/cms", "cms", "DashboardContent", {"view": "cms"}, STAFF),
    ("/review-setting", "review-setting", "DashboardContent", {"view": "reviews"}, STAFF),
]


def page_props(html: str) -> dict:
    script = html.split('<script id="page-props" type="application/json">', 1)[1].split("</script>", 1)[0]
    return json.loads(script)


@pytest.mark.parametrize(("path", "route", "island", "expected", "allowed"), PAGES, ids=[p[0] for p in PAGES])
def test_page_mounts_its_island_for_allowed_roles(client, users, path, route, island, expected, allowed):
    assert (ROUTES_BY_NAME[route].roles is None) or allowed == set(ROUTES_BY_NAME[route].roles)
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        response = client.get(path)
        assert response.status_code == 200
        html = response.content.decode()
        props = page_props(html)
        if role in allowed:
            assert f'data-island="{island}"' in html, role
            assert "This page is coming soon" not in html
            assert props["route"] == route and props["role"] == role
            assert props["userId"] == str(users[actor].pk)
            for key, value in expected.items():
                assert props[key] == value, (role, key)
        else:
            assert props["route"] == "dashboard", role
            assert f'data-island="{island}"' not in html
