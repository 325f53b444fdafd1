"""Forgot-password and resend answer alike for every address: no account id, the same status and shape."""

import re
import uuid

import pytest
from django.core import mail

from apps.accounts.factories import PASSWORD, UserFactory
from apps.core.testing import ApiClient

pytestmark = pytest.mark.django_db

FORGOT = "/api/user/forgot-password"
RESEND = "/api/user/send/otp"
VERIFY = "/api/user/verify-otp"
RESET = "/api/user/reset-password"
LOGIN = "/api/user/login"


def last_code(email: str) -> str:
    message = [m for m in mail.outbox if email in m.to][-1]
    return re.search(r"\b(\d{5})\b", message.subject).group(1)


def shape(body):
    if isinstance(body, dict):
        return {key: shape(value) for key, value in body.items() if key != "userID"} | (
            {"userID": "uuid"} if "userID" in body else {}
        )
    return type(body).__name__


@pytest.mark.parametrize("url", [FORGOT, RESEND])
def test_the_answer_names_no_account_and_looks_the_same_for_unknown_addresses(url):
    owner = UserFactory(email="owner@example.org", account_verified=True)
    viewer = UserFactory(email="viewer@example.org")
    known = ApiClient().post(url, {"email": "owner@example.org"}, format="json")
    unknown = ApiClient().post(url, {"email": "nobody-here@example.org"}, format="json")
    assert (known.status_code, unknown.status_code) == (200, 200)
    assert known.json()["message"] == unknown.json()["message"]
    assert shape(known.json()) == shape(unknown.json())
    answered = known.json()["data"]["userID"]
    assert answered != str(owner.pk)
    # The answered id opens no profile: it answers like a made-up id.
    reader = ApiClient().as_user(viewer)
    assert reader.get(f"/api/user/view-user/{answered}").status_code == 404
    assert reader.get(f"/api/user/view-user/{uuid.uuid4()}").status_code == 404
    # Asking again within the resend wait: the same 429 for both, still without the account's id.
    again_known = ApiClient().post(url, {"email": "owner@example.org"}, format="json")
    again_unknown = ApiClient().post(url, {"email": "nobody-here@example.org"}, format="json")
    assert (again_known.status_code, again_unknown.status_code) == (429, 429)
    assert shape(again_known.json()) == shape(again_unknown.json())
    assert again_known.json()["data"]["userID"] == answered
    assert len([m for m in mail.outbox if "owner@example.org" in m.to]) == 1  # one code per wait


def test_the_reset_flow_works_with_the_answered_id():
    UserFactory(email="forgetful@example.org", account_verified=True)
    forgot = ApiClient().post(FORGOT, {"email": "Forgetful@Example.org"}, format="json")
    handle = forgot.json()["data"]["userID"]
    wrong = ApiClient().post(VERIFY, {"userID": handle, "otp": "00000"}, format="json")
    code = last_code("forgetful@example.org")
    if code == "00000":  # pragma: no cover - one chance in 100,000
        wrong = ApiClient().post(VERIFY, {"userID": handle, "otp": "11111"}, format="json")
    assert (wrong.status_code, wrong.json()["message"]) == (400, "The code is not correct. 4 tries left.")
    verify = ApiClient().post(VERIFY, {"userID": handle, "otp": code}, format="json")
    assert verify.status_code == 200
    token = verify.json()["data"]["token"]
    reset = ApiClient().put(
        RESET,
        {"email": "forgetful@example.org", "password": "N3w!Password"},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert reset.status_code == 200
    assert ApiClient().post(LOGIN, {"email": "forgetful@example.org", "password": PASSWORD}).status_code == 401
    new_login = ApiClient().post(LOGIN, {"email": "forgetful@example.org", "password": "N3w!Password"})
    assert new_login.status_code == 200


def test_the_answered_id_keeps_the_per_account_code_limits():
    UserFactory(email="target@example.org", account_verified=True)
    handle = ApiClient().post(FORGOT, {"email": "target@example.org"}, format="json").json()["data"]["userID"]
    code = last_code("target@example.org")
    wrong = f"{(int(code) + 1) % 100000:05d}"
    answers = [
        ApiClient().post(VERIFY, {"userID": handle, "otp": wrong}, format="json", REMOTE_ADDR=f"198.51.100.{i}")
        for i in range(5)
    ]
    assert [a.status_code for a in answers] == [400] * 5
    # The code is dead after five wrong tries, whichever client tries it.
    late = ApiClient().post(VERIFY, {"userID": handle, "otp": code}, format="json", REMOTE_ADDR="192.0.2.7")
    assert late.status_code == 429
