"""Security, round two (issue 24), accounts: look-alike e-mails, profile links, account enumeration."""

import pytest
from django.core import mail

from apps.accounts.factories import PASSWORD, UserFactory
from apps.accounts.models import EmailChange, User

pytestmark = pytest.mark.django_db

LOGIN = "/api/user/login"
REGISTER = "/api/user/register"
FORGOT = "/api/user/forgot-password"
CHANGE_EMAIL = "/api/user/change-email"


def login(api, email, password):
    return api.post(LOGIN, {"email": email, "password": password}, format="json")


# --- 5. One normal form for e-mails: lockout keys and lookups agree ---------------------------------


def test_normal_form_is_nfkc_and_casefold():
    from apps.accounts.identifiers import normalize_email

    assert normalize_email("  SIS921122@Example.ORG ") == "sis921122@example.org"
    assert normalize_email("ſis@example.org") == "sis@example.org"  # U+017F is a compatibility s
    assert normalize_email("ſıs@example.org") == "sıs@example.org"  # U+0131 stays a dotless i
    assert normalize_email("Ｓis@example.org") == "sis@example.org"  # full-width S


def test_a_look_alike_address_neither_signs_in_nor_escapes_the_lockout(api):
    UserFactory(email="sis921122@example.org")
    for _ in range(5):
        assert login(api, "sis921122@example.org", "Wrong-pass1!").status_code == 401
    assert login(api, "sis921122@example.org", PASSWORD).status_code == 429
    # The dotless-i spelling is another address (no account): it never reaches the locked account.
    for _ in range(6):
        assert login(api, "ſıs921122@example.org", PASSWORD).status_code in (401, 429)
    # A spelling that normalises to the account's address shares its lockout.
    assert login(api, "ſis921122@EXAMPLE.org", PASSWORD).status_code == 429
    assert login(api, "ＳＩＳ921122@example.org", PASSWORD).status_code in (400, 429)  # refused either way


def test_a_look_alike_of_an_unlocked_account_cannot_sign_in(api):
    UserFactory(email="sis921123@example.org")
    response = login(api, "ſıs921123@example.org", PASSWORD)
    assert response.status_code == 401
    assert login(api, "SIS921123@example.org", PASSWORD).status_code == 200


def test_forgot_password_finds_the_account_only_by_its_normal_form(api):
    user = UserFactory(email="sis921124@example.org", account_verified=True)
    look_alike = api.post(FORGOT, {"email": "ſıs921124@example.org"}, format="json")
    assert look_alike.status_code == 200
    assert look_alike.json()["data"]["userID"] != str(user.pk)
    assert mail.outbox == []
    same = api.post(FORGOT, {"email": "ſis921124@example.org"}, format="json")
    assert same.status_code == 200
    assert [m.to for m in mail.outbox] == [[user.email]]


def test_addresses_are_stored_in_their_normal_form(api):
    response = api.post(
        REGISTER, {"email": "New.Someone@Example.COM", "password": "Str0ng!pass", "role": "renter"}, format="json"
    )
    assert response.status_code == 201
    assert User.objects.filter(email="new.someone@example.com").exists()
    user = UserFactory(email="Mixed.Case@Example.com")
    user.refresh_from_db()
    assert user.email == "mixed.case@example.com"


# --- 9. A social link without its link is a field error ---------------------------------------------


@pytest.mark.parametrize(
    ("links", "message"),
    [
        ([{"label": "Facebook"}], "Link is required"),
        ([{"link": "https://facebook.com/me"}], "Choose a network"),
        ([{}], "Choose a network"),
    ],
)
def test_a_social_link_missing_a_part_is_a_400_naming_it(clients, users, links, message):
    user = users["renter"]
    response = clients["renter"].put(f"/api/user/profile/{user.pk}", {"socialMediaLinks": links}, format="json")
    assert response.status_code == 400, response.content
    assert message in str(response.json()["errors"])
    user.refresh_from_db()
    assert user.social_media_links == []


# --- 10. Register and change-email do not tell whether an address has an account --------------------


def _register(api, email, role="renter"):
    return api.post(REGISTER, {"email": email, "password": "Str0ng!pass", "role": role}, format="json")


def test_register_answers_alike_for_a_taken_address_and_mails_its_owner(api):
    owner = UserFactory(email="taken@example.com", first_name="Olga")
    fresh = _register(api, "fresh@example.com")
    mail.outbox.clear()
    taken = _register(api, "TAKEN@example.com")
    assert taken.status_code == fresh.status_code == 201
    assert taken.json()["message"] == fresh.json()["message"]
    assert set(taken.json()["data"]["user"]) == set(fresh.json()["data"]["user"])
    assert taken.json()["data"]["user"]["_id"] != str(owner.pk)
    assert taken.json()["data"]["user"]["firstName"] == ""
    assert User.objects.filter(email="taken@example.com").count() == 1
    owner.refresh_from_db()
    assert owner.first_name == "Olga"
    # The owner is told; no code goes out, and the id answered does not verify anything.
    assert [m.to for m in mail.outbox] == [["taken@example.com"]]
    assert "already has an account" in mail.outbox[0].body
    verify = api.post(
        "/api/user/verify-otp", {"userID": taken.json()["data"]["user"]["_id"], "otp": "12345"}, format="json"
    )
    assert verify.status_code == 400


def test_change_email_to_a_taken_address_answers_like_a_free_one(clients, users):
    UserFactory(email="owner@example.com")
    free = clients["renter"].post(CHANGE_EMAIL, {"email": "free@example.com", "password": PASSWORD}, format="json")
    mail.outbox.clear()
    taken = clients["host"].post(CHANGE_EMAIL, {"email": "Owner@example.com", "password": PASSWORD}, format="json")
    assert taken.status_code == free.status_code == 200
    assert taken.json()["message"] == free.json()["message"]
    assert [m.to for m in mail.outbox] == [["owner@example.com"]]
    assert "tried to" in mail.outbox[0].body
    # The code cannot be guessed into a takeover: every code is wrong, and the address stays its owner's.
    wrong = clients["host"].post(CHANGE_EMAIL + "/verify", {"otp": "12345"}, format="json")
    assert wrong.status_code == 400
    assert "not correct" in wrong.json()["message"]
    users["host"].refresh_from_db()
    assert users["host"].email == "host@test.example"
    assert EmailChange.objects.filter(user=users["host"]).count() == 1
