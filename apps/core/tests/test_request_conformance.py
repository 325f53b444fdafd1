"""Requests that do not conform to the schema are refused, not ignored (issue 24, 14)."""

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
