import re
from urllib.parse import parse_qs, urlparse

import pytest
from django.core import mail

from apps.accounts.factories import PASSWORD, UserFactory
from apps.accounts.models import Role, User
from apps.core.testing import ACTORS, ApiClient, check_role_matrix

pytestmark = pytest.mark.django_db

STAFF = ("admin", "moderator")


def invite_link(email: str) -> tuple[str, str]:
    message = [m for m in mail.outbox if email in m.to][-1]
    url = re.search(r"https?://\S+/set-password\?\S+", message.body).group(0)
    query = parse_qs(urlparse(url).query)
    return query["uid"][0], query["token"][0]


# --- Lists ------------------------------------------------------------------------------


def test_hosts_list_is_for_staff(clients):
    check_role_matrix(clients, "get", "/api/user/hosts", allowed=STAFF)


def test_hosts_list_page_shape_and_search(clients, users):
    UserFactory(role=Role.HOST, email="zed@venues.example", first_name="Zed")
    body = clients["moderator"].get("/api/user/hosts").json()["data"]
    assert body["totalCount"] == 3 and body["limit"] == 10 and body["page"] == 1
    assert {item["email"] for item in body["hosts"]} == {
        "host@test.example",
        "host2@test.example",
        "zed@venues.example",
    }
    item = body["hosts"][0]
    assert {"_id", "email", "firstName", "isVerified", "status", "createdAt"} <= set(item)
    found = clients["admin"].get("/api/user/hosts", {"filters[search]": "VENUES"}).json()["data"]["hosts"]
    assert [item["email"] for item in found] == ["zed@venues.example"]


def test_hosts_list_filters(clients, users):
    users["other_host"].is_verified = True
    users["other_host"].save()
    verified = clients["admin"].get("/api/user/hosts", {"filters[isVerified]": "true"}).json()["data"]["hosts"]
    assert [item["email"] for item in verified] == ["host2@test.example"]
    clients["admin"].patch(f"/api/user/update-status/{users['host'].pk}", {"status": "deleted"}, format="json")
    live = clients["admin"].get("/api/user/hosts").json()["data"]["hosts"]
    assert [item["email"] for item in live] == ["host2@test.example"]
    deleted = clients["admin"].get("/api/user/hosts", {"filters[status]": "deleted"}).json()["data"]["hosts"]
    assert [item["email"] for item in deleted] == ["host@test.example"]


@pytest.mark.parametrize(
    "params",
    [
        {"filters[status]": "gone"},
        {"filters[isVerified]": "maybe"},
        {"page": "abc"},
        {"page": "0"},
    ],
)
def test_hosts_list_bad_filters(clients, params):
    response = clients["admin"].get("/api/user/hosts", params)
    assert response.status_code == 400
    assert response.json()["message"]


@pytest.mark.parametrize("search", ["' OR 1=1 --", "%", "_", "ü" * 500, "<script>"])
def test_hosts_list_odd_searches_are_harmless(clients, search):
    response = clients["admin"].get("/api/user/hosts", {"filters[search]": search})
    assert response.status_code == 200
    assert response.json()["data"]["totalCount"] == 0


def test_renters_list_roles(clients, users):
    statuses = check_role_matrix(
        clients, "get", "/api/user/renters", allowed=(*STAFF, "host", "other_host", "sub_host")
    )
    assert statuses["host"] == 200
    renters = clients["admin"].get("/api/user/renters").json()["data"]["renters"]
    assert {item["email"] for item in renters} == {"renter@test.example", "renter2@test.example"}


def test_renters_list_for_a_host_shows_only_its_renters(clients):
    # Without bookings that name them, a host sees no renters at all.
    assert clients["host"].get("/api/user/renters").json()["data"]["renters"] == []
    assert clients["sub_host"].get("/api/user/renters").json()["data"]["totalCount"] == 0


def test_sub_hosts_list_only_for_hosts_and_only_their_own(clients, users):
    check_role_matrix(clients, "get", "/api/user/sub-hosts", allowed=("host", "other_host"))
    mine = clients["host"].get("/api/user/sub-hosts").json()["data"]["subHosts"]
    assert [item["email"] for item in mine] == ["subhost@test.example"]
    assert clients["other_host"].get("/api/user/sub-hosts").json()["data"]["subHosts"] == []


def test_moderators_list_only_for_admin(clients):
    check_role_matrix(clients, "get", "/api/user/moderators", allowed=("admin",))
    items = clients["admin"].get("/api/user/moderators").json()["data"]["moderators"]
    assert [item["email"] for item in items] == ["moderator@test.example"]


# --- View user -----------------------------------------------------------------------------


def test_view_user_any_signed_in_user_may_open_a_host(clients, users):
    url = f"/api/user/view-user/{users['host'].pk}"
    check_role_matrix(clients, "get", url, allowed=ACTORS[1:])
    public = clients["renter"].get(url).json()["data"]
    assert public["firstName"] == users["host"].first_name
    assert "email" not in public and "verificationDocs" not in public
    full = clients["moderator"].get(url).json()["data"]
    assert full["email"] == "host@test.example" and full["verificationDocs"] == [] and full["status"] == "active"


def test_view_user_renter_is_hidden_from_other_renters_and_unrelated_hosts(clients, users):
    url = f"/api/user/view-user/{users['renter'].pk}"
    statuses = check_role_matrix(clients, "get", url, allowed=("renter", *STAFF), hidden_status=(404,))
    assert statuses["other_renter"] == 404 and statuses["host"] == 404
    assert clients["other_renter"].get(url).json()["message"] == "User not found."


def test_view_user_host_sees_its_sub_host_in_full(clients, users):
    data = clients["host"].get(f"/api/user/view-user/{users['sub_host'].pk}").json()["data"]
    assert data["email"] == "subhost@test.example"
    assert clients["other_host"].get(f"/api/user/view-user/{users['sub_host'].pk}").status_code == 404


def test_view_user_says_whether_identity_is_checked_and_where_the_public_page_is(clients, users):
    users["host"].user_name = "hannah"
    users["host"].save(update_fields=["user_name"])
    seen = {}
    for actor in ("admin", "moderator", "host", "sub_host", "renter"):
        data = clients["admin"].get(f"/api/user/view-user/{users[actor].pk}").json()["data"]
        seen[actor] = (data["verifiesIdentity"], data["publicPage"])
    assert seen == {
        "admin": (False, None),
        "moderator": (False, None),
        "host": (True, "/host/hannah"),
        "sub_host": (False, None),
        "renter": (False, None),
    }
    clients["admin"].patch(f"/api/user/update-status/{users['host'].pk}", {"status": "deleted"}, format="json")
    assert clients["admin"].get(f"/api/user/view-user/{users['host'].pk}").json()["data"]["publicPage"] is None


def test_view_user_unknown_and_malformed_ids(clients):
    assert clients["admin"].get("/api/user/view-user/7b7e0d5e-0000-4000-8000-000000000000").status_code == 404
    assert clients["admin"].get("/api/user/view-user/not-a-uuid").status_code == 404


@pytest.mark.parametrize(("actor", "message"), [("host", "Host is deleted"), ("renter", "Renter is deleted")])
def test_view_deleted_user_says_which(clients, users, actor, message):
    target = users[actor]
    clients["admin"].patch(f"/api/user/update-status/{target.pk}", {"status": "deleted"}, format="json")
    response = clients["other_host"].get(f"/api/user/view-user/{users['host'].pk}")
    if actor == "host":
        assert response.status_code == 404
        assert response.json()["message"] == "Host is deleted"
    staff_view = clients["moderator"].get(f"/api/user/view-user/{target.pk}")
    assert staff_view.status_code == 200
    assert staff_view.json()["message"] == message
    assert staff_view.json()["data"]["isDeleted"] is True


def test_view_deleted_moderator_says_user_is_deleted(clients, users):
    clients["admin"].delete(f"/api/user/moderators/{users['moderator'].pk}")
    response = clients["admin"].get(f"/api/user/view-user/{users['moderator'].pk}")
    assert response.json()["message"] == "User is deleted"


# --- Suspend, delete, restore ------------------------------------------------------------------


def test_update_status_roles(clients, users):
    url = f"/api/user/update-status/{users['other_renter'].pk}"
    check_role_matrix(clients, "patch", url, allowed=STAFF, data={"status": "suspended"}, hidden_status=(403, 404))


def test_suspend_blocks_login_and_tokens_and_restore_brings_it_back(clients, users):
    renter = users["renter"]
    response = clients["moderator"].patch(
        f"/api/user/update-status/{renter.pk}", {"status": "suspended"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["message"] == "Account suspended successfully."
    assert response.json()["data"]["status"] == "suspended"
    assert clients["renter"].get("/api/user/me").status_code == 401
    login = ApiClient().post("/api/user/login", {"email": renter.email, "password": PASSWORD}, format="json")
    assert login.json()["message"] == "This account is suspended. Please contact support."
    again = clients["moderator"].patch(f"/api/user/update-status/{renter.pk}", {"status": "suspended"}, format="json")
    assert again.status_code == 409
    restored = clients["moderator"].patch(f"/api/user/update-status/{renter.pk}", {"status": "active"}, format="json")
    assert restored.json()["message"] == "Account restored successfully."
    login = ApiClient().post("/api/user/login", {"email": renter.email, "password": PASSWORD}, format="json")
    assert login.status_code == 200


def test_deleting_a_host_takes_its_sub_hosts_and_restoring_brings_them_back(clients, users):
    host, sub_host = users["host"], users["sub_host"]
    clients["admin"].patch(f"/api/user/update-status/{host.pk}", {"status": "deleted"}, format="json")
    sub_host.refresh_from_db()
    assert sub_host.is_deleted and not sub_host.is_active
    assert ApiClient().post("/api/user/login", {"email": sub_host.email, "password": PASSWORD}).status_code == 403
    clients["admin"].patch(f"/api/user/update-status/{host.pk}", {"status": "active"}, format="json")
    sub_host.refresh_from_db()
    assert not sub_host.is_deleted and sub_host.is_active


def test_restoring_a_host_keeps_sub_hosts_it_removed_itself(clients, users):
    clients["host"].delete(f"/api/user/sub-hosts/{users['sub_host'].pk}")
    clients["admin"].patch(f"/api/user/update-status/{users['host'].pk}", {"status": "deleted"}, format="json")
    clients["admin"].patch(f"/api/user/update-status/{users['host'].pk}", {"status": "active"}, format="json")
    users["sub_host"].refresh_from_db()
    assert users["sub_host"].is_deleted


@pytest.mark.parametrize(("actor", "target"), [("moderator", "admin"), ("admin", "admin"), ("moderator", "moderator")])
def test_staff_cannot_change_admin_or_peers(clients, users, actor, target):
    response = clients[actor].patch(
        f"/api/user/update-status/{users[target].pk}", {"status": "suspended"}, format="json"
    )
    assert response.status_code == 403
    users[target].refresh_from_db()
    assert users[target].is_active


def test_admin_can_suspend_a_moderator(clients, users):
    response = clients["admin"].patch(
        f"/api/user/update-status/{users['moderator'].pk}", {"status": "suspended"}, format="json"
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Status is required"),
        ({"status": ""}, "Status is required"),
        ({"status": "banned"}, "Status must be active, suspended or deleted."),
        ({"status": ["deleted"]}, "Status must be active, suspended or deleted."),
    ],
)
def test_update_status_bad_input(clients, users, body, message):
    response = clients["admin"].patch(f"/api/user/update-status/{users['renter'].pk}", body, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == message


# --- Adding accounts and invitations -----------------------------------------------------------


def test_add_host_roles(clients):
    for index, actor in enumerate(ACTORS):
        body = {"email": f"newhost{index}@example.com", "firstName": "New", "lastName": "Host"}
        response = clients[actor].post("/api/user/addhost", body, format="json")
        expected = 201 if actor in STAFF else (401 if actor == "anonymous" else 403)
        assert response.status_code == expected, (actor, response.json())


def test_added_host_gets_a_link_not_a_password_and_sets_it(clients, api):
    response = clients["moderator"].post(
        "/api/user/addhost",
        {"email": "New.Host@Example.com", "firstName": "Nia", "lastName": "Host", "userName": "nia", "tax": "13.5"},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["data"]["passwordSet"] is False
    user = User.objects.get(email="new.host@example.com")
    assert user.role == Role.HOST and str(user.tax) == "13.50" and not user.has_usable_password()
    message = [m for m in mail.outbox if "new.host@example.com" in m.to][-1]
    assert "as a host" in message.subject
    assert "password:" not in message.body.lower()
    uid, token = invite_link("new.host@example.com")
    # Cannot log in before choosing a password.
    assert api.post("/api/user/login", {"email": "new.host@example.com", "password": "x" * 8}).status_code == 401
    bad = api.post("/api/user/set-password", {"uid": uid, "token": token, "password": "weak"}, format="json")
    assert bad.status_code == 400 and bad.json()["message"] == "Password must be at least 8 characters long"
    done = api.post("/api/user/set-password", {"uid": uid, "token": token, "password": "Str0ng!pass"}, format="json")
    assert done.status_code == 200
    assert done.json()["message"] == "Password set successfully. You can log in now."
    login = api.post("/api/user/login", {"email": "new.host@example.com", "password": "Str0ng!pass"}, format="json")
    assert login.status_code == 200
    reused = api.post("/api/user/set-password", {"uid": uid, "token": token, "password": "Other1!pass"}, format="json")
    assert reused.status_code == 400
    assert reused.json()["message"] == "This link is invalid or has expired. Ask for a new invitation."


@pytest.mark.parametrize(
    "body",
    [
        {"uid": "garbage", "token": "x", "password": "Str0ng!pass"},
        {"uid": "", "token": "", "password": "Str0ng!pass"},
        {"uid": "MTIz", "token": "abc-def", "password": "Str0ng!pass"},
        {"uid": "x" * 65, "token": "y", "password": "Str0ng!pass"},
    ],
)
def test_set_password_bad_links(api, body):
    response = api.post("/api/user/set-password", body, format="json")
    assert response.status_code == 400


def test_set_password_page(client, clients):
    clients["admin"].post("/api/user/add-moderator", {"email": "mo@example.com", "firstName": "Mo", "lastName": "D"})
    uid, token = invite_link("mo@example.com")
    page = client.get(f"/set-password?uid={uid}&token={token}")
    assert page.status_code == 200 and b"mo@example.com" in page.content
    mismatch = client.post(
        "/set-password", {"uid": uid, "token": token, "password": "Str0ng!pass", "confirm_password": "x"}
    )
    assert b"Passwords does not match" in mismatch.content
    done = client.post(
        "/set-password", {"uid": uid, "token": token, "password": "Str0ng!pass", "confirm_password": "Str0ng!pass"}
    )
    assert done.status_code == 200 and b"Password set successfully" in done.content
    assert client.get(f"/set-password?uid={uid}&token={token}").status_code == 400
    assert client.get("/set-password?uid=<script>&token=1").status_code == 400


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"firstName": "A", "lastName": "B"}, "Email is required"),
        ({"email": "bad", "firstName": "A", "lastName": "B"}, "Please enter a valid email"),
        ({"email": "a@example.com", "lastName": "B"}, "First name is required"),
        (
            {"email": "a@example.com", "firstName": "A" * 51, "lastName": "B"},
            "First name must be at most 50 characters long",
        ),
        (
            {"email": "a@example.com", "firstName": "A", "lastName": "B", "tax": "101"},
            "Tax must be a number from 0 to 100.",
        ),
        (
            {"email": "a@example.com", "firstName": "A", "lastName": "B", "tax": "abc"},
            "Tax must be a number from 0 to 100.",
        ),
        ({"email": "a@example.com", "firstName": "A", "lastName": "B", "userName": "a b"}, None),
    ],
)
def test_add_host_bad_input(clients, body, message):
    response = clients["admin"].post("/api/user/addhost", body, format="json")
    assert response.status_code == 400
    if message:
        assert response.json()["message"] == message


def test_add_host_existing_email_conflicts(clients):
    response = clients["admin"].post(
        "/api/user/addhost", {"email": "RENTER@test.example", "firstName": "A", "lastName": "B"}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["message"] == "An account with this email already exists."


def test_add_sub_host_roles_and_result(clients, users):
    for index, actor in enumerate(ACTORS):
        body = {"email": f"helper{index}@example.com", "firstName": "Help", "lastName": "Er"}
        response = clients[actor].post("/api/user/add-subhost", body, format="json")
        expected = 201 if actor in ("host", "other_host") else (401 if actor == "anonymous" else 403)
        assert response.status_code == expected, actor
    helper = User.objects.get(email="helper3@example.com")
    assert helper.role == Role.SUB_HOST and helper.host_id == users["host"].pk
    assert "for " in [m for m in mail.outbox if helper.email in m.to][-1].body


def test_host_edits_and_removes_its_sub_host_only(clients, users):
    url = f"/api/user/sub-hosts/{users['sub_host'].pk}"
    check_role_matrix(clients, "get", url, allowed=("host",), hidden_status=(403, 404))
    assert clients["other_host"].put(url, {"firstName": "X"}, format="json").status_code == 404
    response = clients["host"].put(url, {"firstName": "Samuel", "isActive": False}, format="json")
    assert response.status_code == 200
    assert response.json()["data"]["firstName"] == "Samuel" and response.json()["data"]["status"] == "suspended"
    assert clients["host"].put(url, {"isActive": "maybe"}, format="json").status_code == 400
    assert clients["host"].put(url, {"lastName": "L" * 51}, format="json").status_code == 400
    assert clients["other_host"].delete(url).status_code == 404
    removed = clients["host"].delete(url)
    assert removed.status_code == 200 and removed.json()["message"] == "Sub-host removed successfully."
    users["sub_host"].refresh_from_db()
    assert users["sub_host"].is_deleted
    assert clients["host"].delete(url).status_code == 404


def test_moderators_added_and_removed_by_admin_only(clients, users):
    for index, actor in enumerate(ACTORS):
        body = {"email": f"mod{index}@example.com", "firstName": "Mo", "lastName": "D"}
        response = clients[actor].post("/api/user/add-moderator", body, format="json")
        expected = 201 if actor == "admin" else (401 if actor == "anonymous" else 403)
        assert response.status_code == expected, actor
    url = f"/api/user/moderators/{users['moderator'].pk}"
    check_role_matrix(clients, "delete", url, allowed=("admin",))
    users["moderator"].refresh_from_db()
    assert users["moderator"].is_deleted
    assert clients["admin"].delete(f"/api/user/moderators/{users['host'].pk}").status_code == 404


def test_resend_invitation(clients, users):
    clients["host"].post("/api/user/add-subhost", {"email": "late@example.com", "firstName": "L", "lastName": "T"})
    late = User.objects.get(email="late@example.com")
    mail.outbox.clear()
    assert clients["other_host"].post(f"/api/user/resend-invitation/{late.pk}").status_code == 404
    assert clients["host"].post(f"/api/user/resend-invitation/{late.pk}").status_code == 200
    assert clients["admin"].post(f"/api/user/resend-invitation/{late.pk}").status_code == 200
    assert len([m for m in mail.outbox if "late@example.com" in m.to]) == 2
    assert clients["renter"].post(f"/api/user/resend-invitation/{late.pk}").status_code == 403
    conflict = clients["admin"].post(f"/api/user/resend-invitation/{users['renter'].pk}")
    assert conflict.status_code == 409


def test_hosts_see_the_renters_who_booked_them(clients, users):
    from decimal import Decimal

    from apps.bookings.tests.conftest import make_booking
    from apps.listings.factories import ListingFactory

    listing = ListingFactory(host=users["host"], hourly=Decimal("50"), daily=Decimal("300"), guest=20, opening_hours={})
    make_booking(users["renter"], listing)
    for actor in ("host", "sub_host"):
        renters = clients[actor].get("/api/user/renters").json()["data"]["renters"]
        assert [item["email"] for item in renters] == ["renter@test.example"], actor
    assert clients["other_host"].get("/api/user/renters").json()["data"]["renters"] == []
    url = f"/api/user/view-user/{users['renter'].pk}"
    assert clients["host"].get(url).status_code == 200
    assert clients["sub_host"].get(url).status_code == 200
    assert "email" not in clients["host"].get(url).json()["data"]
    assert clients["other_host"].get(url).status_code == 404
    assert clients["other_renter"].get(url).status_code == 404


def test_unverified_tab_lists_hosts_without_approved_identity_and_renters_without_confirmed_email(clients, users):
    users["other_host"].is_verified = True
    users["other_host"].save()
    hosts = clients["admin"].get("/api/user/hosts", {"filters[status]": "unverified"}).json()["data"]["hosts"]
    assert [item["email"] for item in hosts] == ["host@test.example"]
    users["renter"].account_verified = False
    users["renter"].save()
    users["other_renter"].account_verified = True
    users["other_renter"].save()
    renters = clients["moderator"].get("/api/user/renters", {"filters[status]": "unverified"}).json()["data"]
    assert [item["email"] for item in renters["renters"]] == ["renter@test.example"]


def test_an_invited_moderator_and_sub_host_show_in_the_default_tab_and_set_a_password_on_a_styled_page(
    clients, users, client
):
    assert clients["admin"].post(
        "/api/user/add-moderator", {"email": "new.mod@example.com", "firstName": "Nia", "lastName": "Mod"}
    ).status_code in (200, 201)
    assert clients["host"].post(
        "/api/user/add-subhost", {"email": "new.sub@example.com", "firstName": "Sam", "lastName": "Sub"}
    ).status_code in (200, 201)
    moderators = clients["admin"].get("/api/user/moderators?filters[status]=active").json()["data"]["moderators"]
    sub_hosts = clients["host"].get("/api/user/sub-hosts?filters[status]=active").json()["data"]["subHosts"]
    assert "new.mod@example.com" in [row["email"] for row in moderators]
    assert "new.sub@example.com" in [row["email"] for row in sub_hosts]

    uid, token = invite_link("new.mod@example.com")
    page = client.get(f"/set-password?uid={uid}&token={token}").content.decode()
    assert 'class="auth-page"' in page and "css/auth-page" in page
    assert 'class="form-field__input" id="password"' in page
