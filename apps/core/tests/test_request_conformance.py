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
