"""Security of sign-in: client limits behind a proxy, per-account limits, code guessing, account
enumeration, token revocation and password quality (issue: security and robustness)."""

import io
import re
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from apps.accounts.factories import PASSWORD, UserFactory
from apps.accounts.models import OneTimeCode, User
from apps.core.testing import ApiClient

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
CHANGE_PASSWORD = "/api/user/change-password"


def last_code(email: str) -> str:
    message = [m for m in mail.outbox if email in m.to][-1]
    return re.search(r"\b(\d{5})\b", message.subject).group(1)


def wrong_code(code: str) -> str:
    return f"{(int(code) + 1) % 100000:05d}"


def login(client, email, password, ip="203.0.113.7", **extra):
    return client.post(LOGIN, {"email": email, "password": password}, format="json", REMOTE_ADDR=ip, **extra)


# --- 1. Client limits trust X-Forwarded-For only from configured proxies -------------------------


def test_rotating_x_forwarded_for_does_not_escape_the_login_limit(api):
    statuses = [
        login(api, f"nobody{i}@example.com", "Wrong1234!", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
        for i in range(30)
    ]
    assert statuses[:20] == [401] * 20
    assert set(statuses[20:]) == {429}


def test_behind_one_proxy_the_address_the_proxy_saw_is_the_client(api, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    from apps.core.clients import client_address

    class Request:
        META = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.9"}

    assert client_address(Request()) == "198.51.100.9"  # the spoofed first value is ignored
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    assert client_address(Request()) == "10.0.0.2"


def test_nginx_replaces_the_client_header():
    conf = (Path(django_settings.BASE_DIR) / "docker" / "nginx.conf").read_text()
    assert "$proxy_add_x_forwarded_for" not in conf
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf
    assert "TRUSTED_PROXY_COUNT=1" in (Path(django_settings.BASE_DIR) / "docker" / ".env.example").read_text()


# --- 1. Failed logins per account: a growing delay and a mail to the owner ----------------------


def test_failed_logins_on_one_account_slow_down_from_any_address_and_mail_the_owner(api, users):
    statuses = [login(api, "renter@test.example", "Wrong1234!", ip=f"198.51.100.{i}").status_code for i in range(5)]
    assert statuses == [401] * 5
    locked = login(api, "renter@test.example", PASSWORD, ip="192.0.2.50")
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) >= 30
    assert re.fullmatch(
        r"Too many failed sign-in attempts for this account\. Please try again in \d+ seconds\.",
        locked.json()["message"],
    )
    warnings = [m for m in mail.outbox if m.to == ["renter@test.example"]]
    assert len(warnings) == 1
    assert "sign-in" in warnings[0].subject.lower()
    # Another account is untouched.
    assert login(api, "host@test.example", PASSWORD, ip="192.0.2.51").status_code == 200


def test_the_delay_grows_with_each_further_failure(api, users):
    from apps.accounts import login_limits

    for _ in range(5):
        login_limits.record_failure("renter@test.example")
    first = login_limits.seconds_locked("renter@test.example")
    login_limits.record_failure("renter@test.example")
    second = login_limits.seconds_locked("renter@test.example")
    assert 0 < first < second <= login_limits.MAX_DELAY_SECONDS


def test_a_successful_login_clears_the_failures(api, users):
    for i in range(4):
        login(api, "renter@test.example", "Wrong1234!", ip=f"198.51.100.{i}")
    assert login(api, "renter@test.example", PASSWORD).status_code == 200
    for i in range(4):
        assert login(api, "renter@test.example", "Wrong1234!", ip=f"198.51.100.{i}").status_code == 401


def test_unknown_accounts_slow_down_the_same_way(api):
    for i in range(5):
        login(api, "nobody@test.example", "Wrong1234!", ip=f"198.51.100.{i}")
    assert login(api, "nobody@test.example", "Wrong1234!", ip="192.0.2.9").status_code == 429
    assert mail.outbox == []


# --- 4. One-time codes: daily caps per account and per client; a single-purpose reset step -----


def test_wrong_codes_are_capped_per_account_per_day(api, users, settings):
    user = users["renter"]
    now = timezone.now()
    for index in range(3):  # earlier today: three codes with five wrong tries each
        OneTimeCode.objects.create(
            user=user,
            purpose=OneTimeCode.Purpose.RESET_PASSWORD,
            code_hash=f"old{index}",
            created_at=now - timedelta(hours=index + 1),
            expires_at=now - timedelta(hours=index + 1) + timedelta(minutes=10),
            used_at=now - timedelta(hours=index + 1),
            attempts=5,
        )
    api.post(FORGOT, {"email": "renter@test.example"}, format="json")
    response = api.post(VERIFY, {"userID": str(user.pk), "otp": last_code("renter@test.example")}, format="json")
    assert response.status_code == 429
    assert "today" in response.json()["message"]
    assert not User.objects.get(pk=user.pk).check_password("N3w!Password")


def test_wrong_codes_are_capped_per_client_per_day(api, settings):
    settings.OTP_DAILY_WRONG_PER_CLIENT = 3
    people = [UserFactory(email=f"p{i}@example.com", account_verified=False) for i in range(4)]
    for person in people:
        person.one_time_codes.all().delete()
    client = ApiClient()
    for person in people[:3]:
        client.post(RESEND, {"email": person.email}, format="json", REMOTE_ADDR="198.51.100.1")
        wrong = client.post(
            VERIFY,
            {"userID": str(person.pk), "otp": wrong_code(last_code(person.email))},
            format="json",
            REMOTE_ADDR="198.51.100.1",
        )
        assert wrong.status_code == 400
    client.post(RESEND, {"email": people[3].email}, format="json", REMOTE_ADDR="198.51.100.1")
    blocked = client.post(
        VERIFY,
        {"userID": str(people[3].pk), "otp": last_code(people[3].email)},
        format="json",
        REMOTE_ADDR="198.51.100.1",
    )
    assert blocked.status_code == 429
    assert User.objects.get(pk=people[3].pk).account_verified is False


def _reset_token(api, user) -> str:
    api.post(FORGOT, {"email": user.email}, format="json")
    verify = api.post(VERIFY, {"userID": str(user.pk), "otp": last_code(user.email)}, format="json")
    assert verify.status_code == 200
    return verify.json()["data"]["token"]


def test_a_reset_code_does_not_sign_in(api, users):
    token = _reset_token(api, users["renter"])
    assert api.get(ME).status_code == 401  # no browser session either
    assert ApiClient().get(ME, HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401


def test_the_reset_token_works_once(api, users):
    token = _reset_token(api, users["renter"])
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    first = ApiClient().put(RESET, {"email": "renter@test.example", "password": "N3w!Password"}, format="json", **auth)
    assert first.status_code == 200
    second = ApiClient().put(RESET, {"email": "renter@test.example", "password": "Other!Pass9"}, format="json", **auth)
    assert second.status_code == 403
    assert "no longer valid" in second.json()["message"]
    assert User.objects.get(pk=users["renter"].pk).check_password("N3w!Password")


# --- 5. Enumeration: the same answers for known and unknown e-mails ------------------------------


@pytest.mark.parametrize("url", [FORGOT, RESEND])
def test_unknown_emails_get_the_same_answer(api, users, url):
    known = api.post(url, {"email": "renter@test.example"}, format="json")
    unknown = api.post(url, {"email": "nobody@test.example"}, format="json")
    assert known.status_code == unknown.status_code == 200
    assert known.json()["message"] == unknown.json()["message"]
    fake_id = unknown.json()["data"]["userID"]
    assert uuid.UUID(fake_id)
    assert not User.objects.filter(pk=fake_id).exists()
    again = api.post(url, {"email": "Nobody@Test.Example"}, format="json")
    assert again.status_code == 429  # as a known account within the resend wait
    assert again.json()["data"]["userID"] == fake_id
    real_again = api.post(url, {"email": "renter@test.example"}, format="json")
    assert real_again.status_code == 429
    assert again.json()["message"].split(" ")[:2] == real_again.json()["message"].split(" ")[:2]


def test_codes_for_an_unknown_email_fail_like_wrong_codes(api, users):
    known_id = api.post(FORGOT, {"email": "renter@test.example"}, format="json").json()["data"]["userID"]
    fake_id = api.post(FORGOT, {"email": "nobody@test.example"}, format="json").json()["data"]["userID"]
    real = api.post(VERIFY, {"userID": known_id, "otp": wrong_code(last_code("renter@test.example"))}, format="json")
    fake = api.post(VERIFY, {"userID": fake_id, "otp": "12345"}, format="json")
    assert (fake.status_code, fake.json()["message"]) == (real.status_code, real.json()["message"])


def test_login_checks_a_password_hash_for_unknown_emails_too(api, users, monkeypatch):
    from django.contrib.auth import hashers

    calls = []
    original = hashers.MD5PasswordHasher.verify

    def counting_verify(self, password, encoded):
        calls.append(1)
        return original(self, password, encoded)

    monkeypatch.setattr(hashers.MD5PasswordHasher, "verify", counting_verify)
    login(api, "renter@test.example", "Wrong1234!")
    known = len(calls)
    login(api, "nobody@test.example", "Wrong1234!", ip="198.51.100.77")
    assert known == 1
    assert len(calls) - known == 1


# --- 6. Tokens end with logout and a password change ---------------------------------------------


def test_access_token_stops_working_after_logout(users):
    client = ApiClient()
    tokens = login(client, "renter@test.example", PASSWORD).json()["data"]
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {tokens['token']}"}
    assert ApiClient().get(ME, **bearer).status_code == 200
    ApiClient().post(LOGOUT, {"refreshToken": tokens["refreshToken"]}, format="json", **bearer)
    assert ApiClient().get(ME, **bearer).status_code == 401


def test_access_tokens_stop_working_after_a_password_change(users):
    client = ApiClient()
    old = login(client, "renter@test.example", PASSWORD).json()["data"]
    other_device = {"HTTP_AUTHORIZATION": f"Bearer {old['token']}"}
    changed = ApiClient().put(
        CHANGE_PASSWORD, {"currentPassword": PASSWORD, "newPassword": "N3w!Password"}, format="json", **other_device
    )
    assert changed.status_code == 200
    assert ApiClient().get(ME, **other_device).status_code == 401
    fresh = {"HTTP_AUTHORIZATION": f"Bearer {changed.json()['data']['token']}"}
    assert ApiClient().get(ME, **fresh).status_code == 200


# --- 7. Common and similar passwords are refused --------------------------------------------------


@pytest.mark.parametrize(
    ("email", "password", "message"),
    [
        ("new@example.com", "Password1!", "This password is too common."),
        ("johnsmithson@example.com", "Johnsmithson1!", "The password is too similar to the email."),
    ],
)
def test_common_and_similar_passwords_are_refused(api, email, password, message):
    response = api.post(REGISTER, {"email": email, "password": password, "role": "renter"}, format="json")
    assert response.status_code == 400
    assert message in response.json()["errors"]["password"]
    assert not User.objects.filter(email=email).exists()


def test_a_common_password_is_refused_on_change(clients, users):
    response = clients["renter"].put(
        CHANGE_PASSWORD, {"currentPassword": PASSWORD, "newPassword": "Password1!"}, format="json"
    )
    assert response.status_code == 400
    assert User.objects.get(pk=users["renter"].pk).check_password(PASSWORD)


# --- 12. 401 answers say how to authenticate; replaced avatars leave the disk ---------------------


def test_wrong_password_and_failed_refresh_send_www_authenticate(api, users):
    wrong = login(api, "renter@test.example", "Wrong1234!")
    assert wrong.status_code == 401
    assert wrong["WWW-Authenticate"].startswith("Bearer")
    refresh = api.post(REFRESH, {"refreshToken": "garbage"}, format="json")
    assert refresh.status_code == 401
    assert refresh["WWW-Authenticate"].startswith("Bearer")


def _png(color) -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (40, 40), color).save(out, format="PNG")
    return SimpleUploadedFile("me.png", out.getvalue(), content_type="image/png")


def test_a_replaced_avatar_is_removed_from_storage(clients, users, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    url = f"/api/user/profile/{users['renter'].pk}"
    clients["renter"].put(url, {"avatar": _png("red")}, format="multipart")
    first = User.objects.get(pk=users["renter"].pk).avatar.name
    assert (tmp_path / first).exists()
    clients["renter"].put(url, {"avatar": _png("blue")}, format="multipart")
    second = User.objects.get(pk=users["renter"].pk).avatar.name
    assert second != first
    assert (tmp_path / second).exists()
    assert not (tmp_path / first).exists()
