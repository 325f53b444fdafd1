"""Requests that do not conform to the schema are refused, not ignored (issue 24, 14)."""

import json

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    ["/api/payment/get-all", "/api/dashboard/revenue-statistics", "/api/listing/draft", "/api/user/me"],
)
def test_a_body_on_a_read_is_a_400(clients, url):
    response = clients["host"].generic("GET", url, '{"unexpected": true}', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"] == "This request takes no body: send its values in the address."
    assert clients["host"].get(url).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/user/verification-docs/{document_id}/file",
        "/api/dispute/evidence/{evidence_id}",
        "/api/chat/attachment/{attachment_id}",
    ],
)
def test_private_file_downloads_declare_the_types_they_send(path):
    from pathlib import Path

    import yaml
    from django.conf import settings

    schema = yaml.safe_load((Path(settings.BASE_DIR) / "docs" / "openapi.yaml").read_text())
    declared = set(schema["paths"][path]["get"]["responses"]["200"]["content"])
    # What private_file_response sends: the stored type, a re-encoded image or a PDF.
    assert declared == {"image/jpeg", "image/png", "application/pdf"}


@pytest.mark.parametrize(("actor", "view"), [("admin", "full"), ("renter", "public")])
def test_a_viewed_user_says_which_branch_of_the_schema_it_is(clients, users, actor, view):
    from pathlib import Path

    import yaml
    from django.conf import settings

    from apps.core.schema_check import check

    schema = yaml.safe_load((Path(settings.BASE_DIR) / "docs" / "openapi.yaml").read_text())
    assert schema["components"]["schemas"]["ViewedUser"]["discriminator"]["propertyName"] == "view"
    body = clients[actor].get(f"/api/user/view-user/{users['host'].pk}").json()
    assert body["data"]["view"] == view
    check("ViewUserResponse", body)


def _schema_operations():
    from pathlib import Path

    import yaml
    from django.conf import settings

    schema = yaml.safe_load((Path(settings.BASE_DIR) / "docs" / "openapi.yaml").read_text())
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if isinstance(operation, dict) and "responses" in operation:
                yield path, method.upper(), operation


def _example_path(path: str) -> str:
    import re
    import uuid

    samples = {"token": "example", "interval": "month", "property_type": "all"}
    return re.sub(r"\{(\w+)\}", lambda match: samples.get(match.group(1), str(uuid.uuid4())), path)


def test_the_body_rule_follows_the_schema():
    """Every operation refuses a body exactly when the schema declares none for it."""
    from django.urls import resolve

    from apps.core.middleware import takes_body

    checked = 0
    for path, method, operation in _schema_operations():
        if method in ("GET", "HEAD"):
            continue
        view = resolve(_example_path(path)).func
        assert takes_body(view, method) == ("requestBody" in operation), f"{method} {path}"
        checked += 1
    assert checked > 80


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("DELETE", "/api/listing/draft"),
        ("POST", "/api/payout/request"),
        ("PATCH", "/api/notifications/mark-all-as-read"),
    ],
)
def test_a_body_on_an_operation_that_takes_none_is_a_400(clients, method, url):
    response = clients["host"].generic(method, url, '{"unexpected": true}', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"] == "This request takes no body: send its values in the address."


def test_an_operation_that_takes_no_body_accepts_an_empty_one(clients):
    """What a client's ``post(url, {})`` sends: no body, an empty JSON object or an empty form."""
    assert clients["host"].delete("/api/listing/draft").status_code == 200
    assert (
        clients["host"].generic("DELETE", "/api/listing/draft", "{}", content_type="application/json").status_code
        == 200
    )
    empty_form = clients["host"].generic(
        "DELETE", "/api/listing/draft", "--b0undary--\r\n", content_type="multipart/form-data; boundary=b0undary"
    )
    assert empty_form.status_code == 200


MALFORMED_FORM = "--b0undary\r\nunnamed text--b0undary--\r\n"


@pytest.mark.parametrize(
    ("method", "url"),
    [("PUT", "/api/user/profile/{host}")],
)
def test_a_form_with_no_named_part_is_a_400(clients, users, method, url):
    url = url.replace("{host}", str(users["host"].pk))
    response = clients["host"].generic(
        method, url, MALFORMED_FORM, content_type="multipart/form-data; boundary=b0undary"
    )
    assert response.status_code == 400
    assert response.json()["message"] == "The request body could not be read. Send valid JSON or form data."
    # An empty form is still one.
    empty = clients["host"].generic(
        method, url, "--b0undary--\r\n", content_type="multipart/form-data; boundary=b0undary"
    )
    assert empty.status_code == 200


def test_an_empty_optional_query_parameter_is_read_as_absent(clients):
    """The schema lets every optional query parameter be sent empty (``allowEmptyValue``): the API
    answers ``?name=`` as it answers the request without it."""
    checked = 0
    for path, method, operation in _schema_operations():
        if method != "GET" or "{" in path:
            continue
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "query" or parameter.get("required"):
                continue
            assert parameter.get("allowEmptyValue") is True, f"{path} {parameter['name']}"
            without = clients["admin"].get(path)
            empty = clients["admin"].get(path, {parameter["name"]: ""})
            assert empty.status_code == without.status_code, f"{path}?{parameter['name']}= {empty.content[:200]!r}"
            checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("POST", "/api/user/logout", {"refreshToken": 5}),
        ("PUT", "/api/user/profile/{host}", {"firstName": 5}),
        ("PUT", "/api/user/profile/{host}", {"emergencyPhone": 5551234}),
        ("POST", "/api/user/logout", {"refreshToken": "x" + " " * 2000}),
        ("PUT", "/api/user/profile/{host}", {"firstName": "    Rita" + " " * 50}),
    ],
)
def test_a_number_or_overlong_text_where_the_schema_says_text_is_a_400(clients, users, method, url, body):
    url = url.replace("{host}", str(users["host"].pk))
    response = clients["host"].generic(method, url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    users["host"].refresh_from_db()
    assert users["host"].first_name != "5"
    assert users["host"].emergency_phone != "5551234"
    assert clients["host"].get("/api/user/me").status_code == 200  # still signed in


def test_text_is_still_text(clients, users):
    url = f"/api/user/profile/{users['host'].pk}"
    response = clients["host"].put(url, {"firstName": "Rita", "emergencyPhone": "5551234"}, format="json")
    assert response.status_code == 200
    assert response.json()["data"]["firstName"] == "Rita"


# --- Forms only where an input has a file; a method the path does not declare is a 405 ---------------


@pytest.mark.parametrize("content_type", ["form", "multipart"])
def test_a_form_to_an_operation_that_takes_json_only_is_a_415(api, clients, users, content_type):
    from django.core import mail
    from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
    from django.utils.http import urlencode

    fields = {"email": users["renter"].email}
    if content_type == "form":
        body, kind = urlencode(fields), "application/x-www-form-urlencoded"
    else:
        body, kind = encode_multipart(BOUNDARY, fields), MULTIPART_CONTENT
    response = api.generic("POST", "/api/user/forgot-password", body, content_type=kind)
    assert response.status_code == 415
    assert response.json() == {
        "message": "This request takes a JSON body: send it with Content-Type: application/json.",
        "errors": {},
    }
    assert mail.outbox == []  # nothing was read, nothing was sent
    # A form still reaches an operation whose input has a file (the profile's avatar).
    profile = clients["renter"].generic(
        "PUT",
        f"/api/user/profile/{users['renter'].pk}",
        encode_multipart(BOUNDARY, {"firstName": "Formed"}),
        content_type=MULTIPART_CONTENT,
    )
    assert profile.status_code == 200
    users["renter"].refresh_from_db()
    assert users["renter"].first_name == "Formed"


def test_the_schema_lists_forms_only_where_an_input_has_a_file():
    from pathlib import Path

    import yaml
    from django.conf import settings

    schema = yaml.safe_load((Path(settings.BASE_DIR) / "docs" / "openapi.yaml").read_text())
    paths = schema["paths"]
    assert set(paths["/api/user/forgot-password"]["post"]["requestBody"]["content"]) == {"application/json"}
    assert "multipart/form-data" in paths["/api/user/profile/{user_id}"]["put"]["requestBody"]["content"]


@pytest.mark.parametrize(
    ("method", "url", "allowed"),
    [
        ("DELETE", "/api/user/login", "POST, OPTIONS"),
        ("GET", "/api/user/forgot-password", "POST, OPTIONS"),
        ("PUT", "/api/user/verify-otp", "POST, OPTIONS"),
        ("DELETE", "/api/listing/update/{uuid}", "PUT, OPTIONS"),
    ],
)
def test_a_method_the_path_does_not_declare_is_a_405_whatever_the_body(clients, method, url, allowed):
    import uuid

    url = url.replace("{uuid}", str(uuid.uuid4()))
    response = clients["host"].generic(method, url, '{"email": "a@example.com"}', content_type="application/json")
    assert response.status_code == 405
    assert response.json()["message"] and response.json()["errors"] == {}
    assert response["Allow"] == allowed
