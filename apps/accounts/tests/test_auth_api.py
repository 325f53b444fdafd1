import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import timezone

from apps.accounts.factories import PASSWORD, UserFactory
from apps.accounts.models import OneTimeCode, Role, User

pytestmark = pytest.mark.django_db

REGISTER = "/api/user/register"
LOGIN = "/api/user/login"
VERIFY = "/api/user/verify-otp"
FORGOT = "/api/user/forgot-password"
RESET = "/api/user/reset-password"
RESEND = "/api/user/send/otp"
REFRESH = "/api/user/token/refresh"
LOGOUT = "/api/user/logout"
ME = "/api/user/me"


def last_code(email: str) -> str:
    message = [m for m in mail.outbox if email in m.to][-1]
    return re.search(r"\b(\d{5})\b", message.subject).group(1)


def register(api, email="new@example.com", password="Str0ng!pass", role="renter"):
    return api.post(REGISTER, {"email": email, "password": password, "role": role}, format="json")


def age_codes(user: User, seconds: int) -> None:
    """Pretend the user's codes were sent ``seconds`` ago."""
    past = timezone.now() - timedelta(seconds=seconds)
    OneTimeCode.objects.filter(user=user).update(created_at=past, expires_at=past + timedelta(minutes=10))


# --- Register -----------------------------------------------------------------


def test_register_creates_unverified_account_and_mails_a_code(api):
    response = register(api)
    assert response.status_code == 201
    body = response.json()
    assert body["data"]["user"]["email"] == "new@example.com"
    assert body["data"]["user"]["role"] == "renter"
    assert body["data"]["user"]["accountVerified"] is False
    assert body["data"]["token"] is None
    assert "password" not in response.content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["new@example.com"]
    code = last_code("new@example.com")
    assert code in message.body
    assert code in message.alternatives[0][0]  # HTML part
    assert code not in response.content.decode()
    stored = OneTimeCode.objects.get(user__email="new@example.com")
    assert code not in stored.code_hash


def test_register_as_host(api):
    assert register(api, role="host").json()["data"]["user"]["role"] == "host"


@pytest.mark.parametrize("role", ["admin", "moderator", "subHost", "superuser"])
def test_register_refuses_other_roles(api, role):
    response = register(api, role=role)
    assert response.status_code == 400
    assert response.json()["errors"]["role"] == ["Role must be renter or host."]
    assert not User.objects.filter(email="new@example.com").exists()


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("Ab1!", "Password must be at least 8 characters long"),
        ("lowercase1!", "Password Should Contain Atleast One Uppercase Letter."),
        ("NoDigits!!", "Password Should Contain Atleast One Number."),
        ("UPPERCASE1!", "Password Should Contain Atleast One Lowercase Letter."),
        ("NoSymbol12", "Password Should Contain Atleast One Special Character (!#@$%^&*)(+=._-)."),
        ("Ünïcode1!é", "Password can contain only letters, digits and common punctuation."),
    ],
)
def test_register_password_rules_have_the_spec_messages(api, password, message):
    response = register(api, password=password)
    assert response.status_code == 400
    assert message in response.json()["errors"]["password"]
    assert response.json()["message"]


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({"password": "Str0ng!pass", "role": "renter"}, "email", "Email is required"),
        ({"email": "", "password": "Str0ng!pass", "role": "renter"}, "email", "Email is required"),
        ({"email": "not-an-email", "password": "Str0ng!pass", "role": "renter"}, "email", "Please enter a valid email"),
        ({"email": "a@example.com", "role": "renter"}, "password", "Password is required"),
        ({"email": "a@example.com", "password": "Str0ng!pass"}, "role", "Role is required"),
        ({"email": "a@example.com", "password": "Str0ng!pass", "role": ""}, "role", "Role is required"),
    ],
)
def test_register_missing_and_malformed_fields(api, payload, field, message):
    response = api.post(REGISTER, payload, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][field] == [message]
    assert response.json()["message"] == message


def test_register_duplicate_email_creates_nothing_whatever_the_case(api):
    # The answer is the same as for a new address (no enumeration, docs/security.md); nothing is created.
    first = register(api, email="dup@example.com")
    response = register(api, email="DUP@Example.com")
    assert response.status_code == 201
    assert response.json()["message"] == first.json()["message"]
    assert User.objects.filter(email="dup@example.com").count() == 1


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[]",
        '"a string"',
        '{"email": 5, "password": [], "role": {}}',
        '{"email": null, "password": null, "role": null}',
    ],
)
def test_register_bad_bodies_get_a_clear_400(api, body):
    response = api.post(REGISTER, body, content_type="application/json")
    assert response.status_code == 400
    assert isinstance(response.json()["message"], str) and response.json()["message"]


@pytest.mark.parametrize(
    "email",
    [
        "x" * 1_000_000 + "@example.com",
        "robert'); DROP TABLE accounts_user;--@example.com",
        "<script>alert(1)</script>@example.com",
        "nul\x00byte@example.com",
    ],
)
def test_register_hostile_emails_are_refused_cleanly(api, email):
    response = register(api, email=email)
    assert response.status_code == 400
    assert User.objects.count() == 0


def test_register_huge_password_is_refused(api):
    response = register(api, password="Aa1!" + "x" * 1_000_000)
    assert response.status_code == 400
    assert response.json()["errors"]["password"] == ["Password must be at most 128 characters long"]


def test_register_accepts_unicode_names(api):
    response = api.post(
        REGISTER,
        {
            "email": "zoe@example.com",
            "password": "Str0ng!pass",
            "role": "host",
            "firstName": "Zoë",
            "lastName": "Ōtani 山田",
        },
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["data"]["user"]["lastName"] == "Ōtani 山田"


# --- Verify OTP -----------------------------------------------------------------


def test_verify_otp_verifies_and_signs_in(api):
    user_id = register(api).json()["data"]["user"]["_id"]
    response = api.post(VERIFY, {"userID": user_id, "otp": last_code("new@example.com")}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["message"] == "User account verified successfully"
    assert body["data"]["user"]["accountVerified"] is True
    assert body["data"]["token"] and body["data"]["refreshToken"]
    me = api.get(ME, HTTP_AUTHORIZATION=f"Bearer {body['data']['token']}")
    assert me.json()["data"]["email"] == "new@example.com"


def test_verify_otp_starts_a_browser_session(api):
    user_id = register(api).json()["data"]["user"]["_id"]
    api.post(VERIFY, {"userID": user_id, "otp": last_code("new@example.com")}, format="json")
    assert "sessionid" in api.cookies
    assert api.cookies["sessionid"]["httponly"]
    assert api.get(ME).status_code == 200  # the cookie alone identifies the user


def test_a_code_works_once(api):
    user_id = register(api).json()["data"]["user"]["_id"]
    code = last_code("new@example.com")
    assert api.post(VERIFY, {"userID": user_id, "otp": code}, format="json").status_code == 200
    again = api.post(VERIFY, {"userID": user_id, "otp": code}, format="json")
    assert again.status_code == 400
    assert again.json()["message"] == "There is no active code. Request a new one."


def test_wrong_code_counts_down_then_locks(api):
    user_id = register(api).json()["data"]["user"]["_id"]
    code = last_code("new@example.com")
    wrong = "00000" if code != "00000" else "11111"
    messages = [api.post(VERIFY, {"userID": user_id, "otp": wrong}, format="json").json()["message"] for _ in range(5)]
    assert messages[0] == "The code is not correct. 4 tries left."
    assert messages[3] == "The code is not correct. 1 try left."
    locked = api.post(VERIFY, {"userID": user_id, "otp": code}, format="json")
    assert locked.status_code == 429
    assert locked.json()["message"] == "Too many wrong tries. Request a new code."
    assert User.objects.get(pk=user_id).account_verified is False


def test_expired_code_is_refused(api):
    user_id = register(api).json()["data"]["user"]["_id"]
    code = last_code("new@example.com")
    OneTimeCode.objects.filter(user_id=user_id).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = api.post(VERIFY, {"userID": user_id, "otp": code}, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == "This code has expired. Request a new one."


def test_code_is_valid_for_ten_minutes(api):
    user_id = register(api).json()["data"]["user"]["_id"]
    code = OneTimeCode.objects.get(user_id=user_id)
    assert timedelta(minutes=9, seconds=59) < code.expires_at - code.created_at <= timedelta(minutes=10)


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"otp": "12345"}, "userID"),
        ({"userID": "not-a-uuid", "otp": "12345"}, "userID"),
        ({"userID": "00000000-0000-0000-0000-000000000000"}, "otp"),
        ({"userID": "00000000-0000-0000-0000-000000000000", "otp": "12a45"}, "otp"),
        ({"userID": "00000000-0000-0000-0000-000000000000", "otp": "123456"}, "otp"),
    ],
)
def test_verify_otp_bad_input(api, payload, field):
    response = api.post(VERIFY, payload, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_verify_otp_unknown_user(api):
    """An id without an account fails like a wrong code (it does not say the account is missing)."""
    response = api.post(VERIFY, {"userID": "00000000-0000-0000-0000-000000000000", "otp": "12345"}, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == "The code is not correct. 4 tries left."


# --- Resend ---------------------------------------------------------------------


def test_resend_waits_120_seconds_and_says_how_long(api):
    register(api)
    response = api.post(RESEND, {"email": "new@example.com"}, format="json")
    assert response.status_code == 429
    assert re.fullmatch(r"Please wait (\d+) seconds before requesting a new code\.", response.json()["message"])
    assert 115 <= response.json()["data"]["retryAfter"] <= 120
    assert len(mail.outbox) == 1


def test_resend_after_the_wait_sends_a_new_code_and_kills_the_old(api):
    user_id = register(api).json()["data"]["user"]["_id"]
    old = last_code("new@example.com")
    age_codes(User.objects.get(pk=user_id), 121)
    response = api.post(RESEND, {"email": "new@example.com"}, format="json")
    assert response.status_code == 200
    handle = response.json()["data"]["userID"]
    assert handle != user_id  # the address's code handle, not the account's id
    new = last_code("new@example.com")
    assert len(mail.outbox) == 2
    if new != old:
        assert api.post(VERIFY, {"userID": user_id, "otp": old}, format="json").status_code == 400
    assert api.post(VERIFY, {"userID": handle, "otp": new}, format="json").status_code == 200


def test_resend_unknown_email(api):
    """The same answer as for an account (no mail is sent): the answer never tells who has an account."""
    response = api.post(RESEND, {"email": "nobody@example.com"}, format="json")
    assert response.status_code == 200
    assert response.json()["message"] == "A new code was sent to your email."
    assert not User.objects.filter(pk=response.json()["data"]["userID"]).exists()
    assert mail.outbox == []


# --- Login ----------------------------------------------------------------------


def test_login_returns_user_and_token(api, users):
    response = api.post(LOGIN, {"email": "renter@test.example", "password": PASSWORD}, format="json")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["user"]["email"] == "renter@test.example"
    assert data["token"] and data["refreshToken"]
    assert "password" not in response.content.decode()


def test_login_email_is_case_insensitive(api, users):
    assert api.post(LOGIN, {"email": "Renter@Test.Example", "password": PASSWORD}, format="json").status_code == 200


@pytest.mark.parametrize(
    ("email", "password"), [("renter@test.example", "Wrong1234!"), ("nobody@test.example", PASSWORD)]
)
def test_login_wrong_credentials(api, users, email, password):
    response = api.post(LOGIN, {"email": email, "password": password}, format="json")
    assert response.status_code == 401
    assert response.json()["message"] == "Invalid email or password."


def test_login_short_password_message(api):
    response = api.post(LOGIN, {"email": "a@example.com", "password": "short"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["password"] == ["Password must be at least 8 characters"]


def test_unverified_login_gets_403_with_user_id_and_a_fresh_code(api):
    user = UserFactory(email="late@example.com", account_verified=False)
    response = api.post(LOGIN, {"email": "late@example.com", "password": PASSWORD}, format="json")
    assert response.status_code == 403
    body = response.json()
    assert body["data"]["userID"] == str(user.pk)
    assert "token" not in body["data"]
    assert len(mail.outbox) == 1
    verify = api.post(VERIFY, {"userID": str(user.pk), "otp": last_code("late@example.com")}, format="json")
    assert verify.status_code == 200


def test_deleted_and_suspended_accounts_cannot_log_in(api):
    UserFactory(email="gone@example.com", is_deleted=True)
    UserFactory(email="paused@example.com", is_active=False)
    gone = api.post(LOGIN, {"email": "gone@example.com", "password": PASSWORD}, format="json")
    paused = api.post(LOGIN, {"email": "paused@example.com", "password": PASSWORD}, format="json")
    assert (gone.status_code, gone.json()["message"]) == (403, "This account has been deleted.")
    assert (paused.status_code, paused.json()["message"]) == (403, "This account is suspended. Please contact support.")


# --- Forgot and reset password ----------------------------------------------------


def test_forgot_then_reset_password(api, users):
    forgot = api.post(FORGOT, {"email": "renter@test.example"}, format="json")
    assert forgot.status_code == 200
    user_id = forgot.json()["data"]["userID"]
    assert user_id != str(users["renter"].pk)  # the address's code handle: it names no account
    verify = api.post(VERIFY, {"userID": user_id, "otp": last_code("renter@test.example")}, format="json")
    token = verify.json()["data"]["token"]
    reset = api.put(
        RESET,
        {"email": "renter@test.example", "password": "N3w!Password"},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert reset.status_code == 200
    assert reset.json()["message"] == "Password updated successfully"
    fresh = type(api)()
    assert fresh.post(LOGIN, {"email": "renter@test.example", "password": PASSWORD}, format="json").status_code == 401
    assert (
        fresh.post(LOGIN, {"email": "renter@test.example", "password": "N3w!Password"}, format="json").status_code
        == 200
    )


def test_reset_needs_a_token_from_the_reset_code(api, users):
    login = api.post(LOGIN, {"email": "renter@test.example", "password": PASSWORD}, format="json")
    token = login.json()["data"]["token"]
    response = type(api)().put(
        RESET,
        {"email": "renter@test.example", "password": "N3w!Password"},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 403
    assert (
        type(api)().put(RESET, {"email": "renter@test.example", "password": "N3w!Password"}, format="json").status_code
        == 401
    )


def test_reset_refuses_weak_password_and_other_email(api, users):
    api.post(FORGOT, {"email": "renter@test.example"}, format="json")
    token = api.post(
        VERIFY, {"userID": str(users["renter"].pk), "otp": last_code("renter@test.example")}, format="json"
    ).json()["data"]["token"]
    client = type(api)()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    weak = client.put(RESET, {"email": "renter@test.example", "password": "weakpassword"}, format="json", **auth)
    assert weak.status_code == 400
    other = client.put(RESET, {"email": "host@test.example", "password": "N3w!Password"}, format="json", **auth)
    assert other.status_code == 403


def test_reset_revokes_refresh_tokens(api, users):
    login = api.post(LOGIN, {"email": "renter@test.example", "password": PASSWORD}, format="json").json()["data"]
    api.post(FORGOT, {"email": "renter@test.example"}, format="json")
    token = api.post(
        VERIFY, {"userID": str(users["renter"].pk), "otp": last_code("renter@test.example")}, format="json"
    ).json()["data"]["token"]
    type(api)().put(
        RESET,
        {"email": "renter@test.example", "password": "N3w!Password"},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    refresh = type(api)().post(REFRESH, {"refreshToken": login["refreshToken"]}, format="json")
    assert refresh.status_code == 401


def test_forgot_password_unknown_email(api):
    response = api.post(FORGOT, {"email": "nobody@example.com"}, format="json")
    assert response.status_code == 200
    assert response.json()["message"] == "We sent a 5-digit code to your email."
    assert mail.outbox == []


# --- Tokens ---------------------------------------------------------------------


def test_refresh_rotates_and_blacklists_the_old_refresh_token(api, users):
    login = api.post(LOGIN, {"email": "renter@test.example", "password": PASSWORD}, format="json").json()["data"]
    first = api.post(REFRESH, {"refreshToken": login["refreshToken"]}, format="json")
    assert first.status_code == 200
    assert first.json()["data"]["refreshToken"] != login["refreshToken"]
    reuse = api.post(REFRESH, {"refreshToken": login["refreshToken"]}, format="json")
    assert reuse.status_code == 401


def test_refresh_with_garbage(api):
    response = api.post(REFRESH, {"refreshToken": "garbage"}, format="json")
    assert response.status_code == 401
    assert response.json()["message"] == "Your session has expired. Please log in again."


def test_logout_blacklists_the_refresh_token_and_ends_the_session(api, users):
    login = api.post(LOGIN, {"email": "renter@test.example", "password": PASSWORD}, format="json").json()["data"]
    assert api.get(ME).status_code == 200
    csrf = api.cookies.get("csrftoken")
    response = api.post(
        LOGOUT,
        {"refreshToken": login["refreshToken"]},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {login['token']}",
        **({"HTTP_X_CSRFTOKEN": csrf.value} if csrf else {}),
    )
    assert response.status_code == 200
    assert api.post(REFRESH, {"refreshToken": login["refreshToken"]}, format="json").status_code == 401
    assert type(api)().get(ME).status_code == 401


def test_bad_bearer_token_is_401(api):
    response = api.get(ME, HTTP_AUTHORIZATION="Bearer not.a.token")
    assert response.status_code == 401
    assert response.json()["message"] == "Your session is not valid. Please log in again."


def test_session_cookie_calls_need_the_csrf_header(users):
    from apps.core.testing import ApiClient

    client = ApiClient(enforce_csrf_checks=True)
    client.post(LOGIN, {"email": "renter@test.example", "password": PASSWORD}, format="json")
    user_id = str(users["renter"].pk)
    without = client.put(f"/api/user/profile/{user_id}", {"bio": "x"}, format="json")
    assert without.status_code == 403
    client.get(ME)
    with_header = client.put(
        f"/api/user/profile/{user_id}", {"bio": "x"}, format="json", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value
    )
    assert with_header.status_code == 200


# --- Rate limits ----------------------------------------------------------------


@override_settings(
    REST_FRAMEWORK={
        **__import__("django.conf", fromlist=["settings"]).settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "otp": "2/min", "contact": "5/min"},
    }
)
@pytest.mark.parametrize(
    ("url", "limit"), [(LOGIN, 3), (REGISTER, 3), (REFRESH, 3), (FORGOT, 2), (VERIFY, 2), (RESEND, 2)]
)
def test_auth_endpoints_are_rate_limited(api, url, limit):
    from rest_framework.settings import api_settings
    from rest_framework.throttling import SimpleRateThrottle

    original_rates = SimpleRateThrottle.THROTTLE_RATES
    SimpleRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
    try:
        statuses = [api.post(url, {"email": f"x{i}@example.com"}, format="json").status_code for i in range(limit + 1)]
        response = api.post(url, {"email": "y@example.com"}, format="json")
    finally:
        SimpleRateThrottle.THROTTLE_RATES = original_rates  # later tests see the real rates again
    assert 429 not in statuses[:limit]
    assert statuses[limit] == 429
    assert re.fullmatch(r"Too many requests\. Please try again in \d+ seconds\.", response.json()["message"])
    assert int(response["Retry-After"]) > 0


# --- Profile --------------------------------------------------------------------


def test_profile_update_own_fields(clients, users):
    user = users["host"]
    response = clients["host"].put(
        f"/api/user/profile/{user.pk}",
        {
            "firstName": "Ana",
            "userName": "ana.spaces",
            "bio": "Hosting since 2020",
            "fmcToken": "tok",
            "emergencyPhone": "2261234567",
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert (data["firstName"], data["userName"], data["fmcToken"], data["emergencyPhone"]) == (
        "Ana",
        "ana.spaces",
        "tok",
        "2261234567",
    )
    user.refresh_from_db()
    assert user.bio == "Hosting since 2020"


def test_profile_fields_outside_the_editable_list_are_ignored(clients, users):
    user = users["renter"]
    response = clients["renter"].put(
        f"/api/user/profile/{user.pk}",
        {"role": "admin", "isVerified": True, "tax": 50, "email": "x@y.z"},
        format="json",
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert (user.role, user.is_verified, user.email) == (Role.RENTER, False, "renter@test.example")


def test_profile_update_of_someone_else_is_refused(clients, users):
    target = users["other_renter"]
    response = clients["renter"].put(f"/api/user/profile/{target.pk}", {"firstName": "Hacked"}, format="json")
    assert response.status_code == 403
    target.refresh_from_db()
    assert target.first_name != "Hacked"


def test_profile_user_name_must_be_unique(clients, users):
    response = clients["renter"].put(f"/api/user/profile/{users['renter'].pk}", {"userName": "HOSTY"}, format="json")
    assert response.status_code == 409


def test_avatar_upload_is_reencoded(clients, users, settings, tmp_path):
    import io

    from PIL import Image

    settings.MEDIA_ROOT = tmp_path
    image = Image.new("RGB", (1200, 900), "red")
    exif = Image.Exif()
    exif[0x8825] = {1: "N", 2: (40.0, 26.0, 46.0)}  # GPS block
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", exif=exif)
    buffer.name = "me.jpg"
    buffer.seek(0)
    user = users["renter"]
    response = clients["renter"].put(f"/api/user/profile/{user.pk}", {"avatar": buffer}, format="multipart")
    assert response.status_code == 200
    user.refresh_from_db()
    with Image.open(user.avatar.path) as stored:
        assert max(stored.size) == 512
        assert not stored.getexif().get(0x8825)
    assert response.json()["data"]["avatar"].startswith("/uploads/avatars/")


def test_avatar_that_is_not_an_image(clients, users):
    import io

    fake = io.BytesIO(b"#!/bin/sh\necho pwned\n")
    fake.name = "avatar.jpg"
    response = clients["renter"].put(f"/api/user/profile/{users['renter'].pk}", {"avatar": fake}, format="multipart")
    assert response.status_code == 400
    assert "avatar" in response.json()["errors"]


def test_default_avatar_when_none_uploaded(clients):
    assert clients["renter"].get(ME).json()["data"]["avatar"].endswith("default-avatar.svg")


def test_profile_update_of_the_shown_fields(clients, users):
    user = users["renter"]
    links = [{"label": "Instagram", "link": "https://instagram.com/ren"}]
    response = clients["renter"].put(
        f"/api/user/profile/{user.pk}",
        {
            "gender": "female",
            "city": "Toronto",
            "emergencyContactname": "Sam Doe",
            "emergencyRelationship": "Sister",
            "socialMediaLinks": links,
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert (data["gender"], data["city"], data["emergencyContactname"]) == ("female", "Toronto", "Sam Doe")
    assert data["socialMediaLinks"] == links
    user.refresh_from_db()
    assert user.emergency_relationship == "Sister"


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"gender": "robot"}, "gender"),
        ({"socialMediaLinks": [{"label": "MySpace", "link": "https://x.example"}]}, "socialMediaLinks"),
        ({"socialMediaLinks": [{"label": "Twitter", "link": "not a link"}]}, "socialMediaLinks"),
        (
            {"socialMediaLinks": [{"label": "Twitter", "link": "https://a.example"}] * 2, "city": "Rome"},
            "socialMediaLinks",
        ),
    ],
)
def test_bad_profile_fields_are_refused_and_change_nothing(clients, users, payload, field):
    user = users["renter"]
    response = clients["renter"].put(f"/api/user/profile/{user.pk}", payload, format="json")
    assert response.status_code == 400
    assert any(key.startswith(field) for key in response.json()["errors"])
    user.refresh_from_db()
    assert (user.gender, user.social_media_links, user.city) == ("", [], "")
