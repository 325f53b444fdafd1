import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from apps.accounts.factories import PASSWORD
from apps.accounts.models import EmailChange, User
from apps.core.testing import ACTORS, ApiClient, check_role_matrix

pytestmark = pytest.mark.django_db

SIGNED_IN = ACTORS[1:]
NEW_PASSWORD = "N3w!password"


def login(email, password):
    return ApiClient().post("/api/user/login", {"email": email, "password": password}, format="json")


# --- Notification settings --------------------------------------------------------------------


def test_notification_settings_roles(clients):
    check_role_matrix(clients, "get", "/api/user/notification-settings", allowed=SIGNED_IN)
    check_role_matrix(
        clients,
        "put",
        "/api/user/notification-settings",
        allowed=SIGNED_IN,
        data={"settings": {"bookingCancelled": {"email": False}}},
    )


def test_notification_settings_defaults_and_kinds_by_role(clients):
    renter = clients["renter"].get("/api/user/notification-settings").json()["data"]
    assert renter["channels"] == ["inApp", "email", "push"]
    assert renter["settings"]["bookingApproved"] == {"inApp": True, "email": True, "push": True}
    keys = {kind["key"] for kind in renter["kinds"]}
    assert "bookingApproved" in keys and "verificationApproved" not in keys
    host_keys = {kind["key"] for kind in clients["host"].get("/api/user/notification-settings").json()["data"]["kinds"]}
    assert "verificationApproved" in host_keys and "bookingApproved" not in host_keys


def test_notification_settings_update_merges(clients, users):
    put = clients["host"].put
    put("/api/user/notification-settings", {"settings": {"bookingRequested": {"email": False}}}, format="json")
    response = put(
        "/api/user/notification-settings", {"settings": {"bookingRequested": {"push": False}}}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["message"] == "Notification settings updated successfully."
    assert response.json()["data"]["settings"]["bookingRequested"] == {"inApp": True, "email": False, "push": False}
    users["host"].refresh_from_db()
    assert users["host"].notification_settings == {"bookingRequested": {"email": False, "push": False}}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "settings is required"),
        ({"settings": []}, "Notification settings must be an object keyed by notification kind."),
        ({"settings": {"nope": {"email": False}}}, "Unknown notification kind: nope."),
        (
            {"settings": {"bookingApproved": True}},
            "Settings for bookingApproved must be an object with inApp, email and push.",
        ),
        (
            {"settings": {"bookingApproved": {"sms": True}}},
            "Unknown channel sms for bookingApproved; use inApp, email or push.",
        ),
        ({"settings": {"bookingApproved": {"email": "no"}}}, "bookingApproved.email must be true or false."),
        ({"settings": {"x" * 10000: {}}}, "Unknown notification kind: " + "x" * 50 + "."),
    ],
)
def test_notification_settings_bad_input(clients, body, message):
    response = clients["renter"].put("/api/user/notification-settings", body, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == message


# --- Password change --------------------------------------------------------------------------------


def test_password_change_roles(clients):
    body = {"currentPassword": "wrong", "newPassword": NEW_PASSWORD}
    check_role_matrix(clients, "put", "/api/user/change-password", allowed=SIGNED_IN, data=body)


def test_password_change_works_and_signs_out_other_devices(clients, users):
    renter = users["renter"]
    other_device = login(renter.email, PASSWORD).json()["data"]["refreshToken"]
    response = clients["renter"].put(
        "/api/user/change-password",
        {"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["message"] == "Password updated successfully"
    assert response.json()["data"]["token"]
    assert login(renter.email, PASSWORD).status_code == 401
    assert login(renter.email, NEW_PASSWORD).status_code == 200
    refreshed = ApiClient().post("/api/user/token/refresh", {"refreshToken": other_device}, format="json")
    assert refreshed.status_code == 401
    assert any("password was changed" in m.subject for m in mail.outbox if renter.email in m.to)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"newPassword": NEW_PASSWORD}, "Current password is required"),
        ({"currentPassword": "Wrong!pass1", "newPassword": NEW_PASSWORD}, "Current password is incorrect."),
        ({"currentPassword": PASSWORD}, "Password is required"),
        ({"currentPassword": PASSWORD, "newPassword": "short"}, "Password must be at least 8 characters long"),
        (
            {"currentPassword": PASSWORD, "newPassword": "nouppercase1!"},
            "Password Should Contain Atleast One Uppercase Letter.",
        ),
        (
            {"currentPassword": PASSWORD, "newPassword": PASSWORD},
            "The new password must be different from the current one.",
        ),
        ({"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD, "confirmPassword": "x"}, "Passwords must match"),
        (
            {"currentPassword": PASSWORD, "newPassword": "Abcdef1!€"},
            "Password can contain only letters, digits and common punctuation.",
        ),
        (
            {"currentPassword": PASSWORD, "newPassword": "A1!" + "a" * 200},
            "Password must be at most 128 characters long",
        ),
    ],
)
def test_password_change_bad_input(clients, users, body, message):
    response = clients["renter"].put("/api/user/change-password", body, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == message
    assert login(users["renter"].email, PASSWORD).status_code == 200


# --- E-mail change -------------------------------------------------------------------------------------


def _code_for(email):
    message = [m for m in mail.outbox if email in m.to][-1]
    return re.search(r"\b(\d{5})\b", message.subject).group(1)


def test_email_change_roles(clients):
    body = {"email": "fresh@example.com", "password": "wrong"}
    check_role_matrix(clients, "post", "/api/user/change-email", allowed=SIGNED_IN, data=body)
    check_role_matrix(clients, "post", "/api/user/change-email/verify", allowed=SIGNED_IN, data={"otp": "12345"})


def test_email_change_with_code(clients, users):
    renter = users["renter"]
    response = clients["renter"].post(
        "/api/user/change-email", {"email": "Fresh@Example.com", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200
    code = _code_for("fresh@example.com")
    assert renter.email == "renter@test.example"
    wrong = "00000" if code != "00000" else "11111"
    bad = clients["renter"].post("/api/user/change-email/verify", {"otp": wrong}, format="json")
    assert bad.status_code == 400 and bad.json()["message"] == "The code is not correct. 4 tries left."
    done = clients["renter"].post("/api/user/change-email/verify", {"otp": code}, format="json")
    assert done.status_code == 200
    assert done.json()["message"] == "Email updated successfully."
    assert done.json()["data"]["email"] == "fresh@example.com"
    renter.refresh_from_db()
    assert renter.email == "fresh@example.com"
    assert EmailAddress.objects.get(user=renter).email == "fresh@example.com"
    assert login("fresh@example.com", PASSWORD).status_code == 200
    assert any("e-mail address was changed" in m.subject for m in mail.outbox if "renter@test.example" in m.to)
    again = clients["renter"].post("/api/user/change-email/verify", {"otp": code}, format="json")
    assert again.status_code == 400


def test_email_change_wait_and_expiry(clients, users):
    body = {"email": "fresh@example.com", "password": PASSWORD}
    assert clients["renter"].post("/api/user/change-email", body, format="json").status_code == 200
    too_soon = clients["renter"].post("/api/user/change-email", body, format="json")
    assert too_soon.status_code == 429
    code = _code_for("fresh@example.com")
    change = EmailChange.objects.get(user=users["renter"])
    change.expires_at -= timedelta(hours=1)
    change.save()
    expired = clients["renter"].post("/api/user/change-email/verify", {"otp": code}, format="json")
    assert expired.json()["message"] == "This code has expired. Request a new one."


def test_email_change_five_wrong_tries_kill_the_code(clients):
    clients["renter"].post(
        "/api/user/change-email", {"email": "fresh@example.com", "password": PASSWORD}, format="json"
    )
    code = _code_for("fresh@example.com")
    wrong = "00000" if code != "00000" else "11111"
    for _ in range(5):
        clients["renter"].post("/api/user/change-email/verify", {"otp": wrong}, format="json")
    response = clients["renter"].post("/api/user/change-email/verify", {"otp": code}, format="json")
    assert response.json()["message"] == "Too many wrong tries. Request a new code."


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"password": PASSWORD}, 400, "Email is required"),
        ({"email": "bad", "password": PASSWORD}, 400, "Please enter a valid email"),
        ({"email": "fresh@example.com"}, 400, "Password is required"),
        ({"email": "fresh@example.com", "password": "Wrong!pass1"}, 400, "Current password is incorrect."),
        ({"email": "RENTER@test.example", "password": PASSWORD}, 400, "This is already your email address."),
        # A taken address answers like a free one (docs/security.md, Round two): its owner is mailed instead.
        (
            {"email": "host@test.example", "password": PASSWORD},
            200,
            "We sent a 5-digit code to your new email. Enter it to confirm the change.",
        ),
    ],
)
def test_email_change_bad_input(clients, body, status, message):
    response = clients["renter"].post("/api/user/change-email", body, format="json")
    assert response.status_code == status
    assert response.json()["message"] == message


@pytest.mark.parametrize(
    ("otp", "message"),
    [
        ("", "Please enter the 5-digit code"),
        ("12a45", "The code must be 5 digits"),
        ("123456", "The code must be 5 digits"),
    ],
)
def test_email_change_verify_bad_codes(clients, otp, message):
    response = clients["renter"].post("/api/user/change-email/verify", {"otp": otp}, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == message


def test_email_change_verify_without_request(clients):
    response = clients["renter"].post("/api/user/change-email/verify", {"otp": "12345"}, format="json")
    assert response.json()["message"] == "There is no pending email change. Request a new code."


# --- Account deletion -------------------------------------------------------------------------------------


def test_delete_account_roles(clients):
    check_role_matrix(clients, "post", "/api/user/delete-account", allowed=SIGNED_IN, data={"password": "Wrong!pass1"})


def test_delete_account_needs_password_and_soft_deletes(clients, users):
    bad = clients["renter"].post("/api/user/delete-account", {"password": "Wrong!pass1"}, format="json")
    assert bad.status_code == 400 and bad.json()["message"] == "Current password is incorrect."
    missing = clients["renter"].post("/api/user/delete-account", {}, format="json")
    assert missing.json()["message"] == "Password is required"
    response = clients["renter"].post("/api/user/delete-account", {"password": PASSWORD}, format="json")
    assert response.status_code == 200 and response.json()["message"] == "Your account was deleted."
    renter = User.objects.get(pk=users["renter"].pk)
    assert renter.is_deleted and renter.deleted_at
    assert login(renter.email, PASSWORD).json()["message"] == "This account has been deleted."
    assert clients["renter"].get("/api/user/me").status_code == 401


def test_host_deleting_its_account_takes_sub_hosts(clients, users):
    clients["host"].post("/api/user/delete-account", {"password": PASSWORD}, format="json")
    users["sub_host"].refresh_from_db()
    assert users["sub_host"].is_deleted


def test_admin_cannot_delete_own_account(clients):
    response = clients["admin"].post("/api/user/delete-account", {"password": PASSWORD}, format="json")
    assert response.status_code == 403
    assert response.json()["message"] == "The admin account cannot be deleted."


# --- Host tax -----------------------------------------------------------------------------------


def test_tax_is_set_by_the_host_alone(clients, users):
    statuses = check_role_matrix(clients, "put", "/api/user/tax", allowed=("host", "other_host"), data={"tax": "13.5"})
    assert statuses["host"] == statuses["other_host"] == 200
    for actor in ("renter", "other_renter", "sub_host", "moderator", "admin"):
        users[actor].refresh_from_db()
        assert users[actor].tax == 0, actor
    users["host"].refresh_from_db()
    assert str(users["host"].tax) == "13.50"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("101", "Tax must be a number from 0 to 100."),
        ("-1", "Tax must be a number from 0 to 100."),
        ("abc", "Tax must be a number from 0 to 100."),
        ("1.234", "Tax can have at most 2 decimals."),
        (None, "Tax is required"),
    ],
)
def test_bad_tax_is_refused_and_changes_nothing(clients, users, value, message):
    users["host"].tax = 5
    users["host"].save()
    response = clients["host"].put("/api/user/tax", {} if value is None else {"tax": value}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["tax"] == [message]
    users["host"].refresh_from_db()
    assert users["host"].tax == 5
