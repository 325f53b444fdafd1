"""A page past the schema's declared maximum (1,000,000) is a 400 on every list (issue 24, 14)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    ["/api/listing/property-listing", "/api/listing/get-all", "/api/booking/get-all"],
)
def test_a_page_above_the_declared_maximum_is_a_400(clients, url):
    response = clients["host"].get(url, {"page": "1000001"})
    assert response.status_code == 400, (url, response.status_code)
    assert response.json()["errors"]["page"]
    assert clients["host"].get(url, {"page": "1000000"}).status_code == 200
