"""Least privilege (issue 24): a subHost does not read the host's money or disputes through the API;
the host does. The subHost keeps what its screens need (the host dashboard, premium, bookings)."""

import pytest

pytestmark = pytest.mark.django_db

# A fixed id that matches nothing: the refusal comes before any lookup (the test ids stay the same
# in every test worker, as pytest-xdist needs).
SOME_ID = "5b0d6c1e-3a55-4d7e-9f2a-6c1f0e9b7a21"

REFUSED = [
    "/api/payment/get-all",
    f"/api/payment/get-single/{SOME_ID}",
    f"/api/payment/details?paymentId={SOME_ID}",
    "/api/invoice/get-all",
    f"/api/invoice/pdf/{SOME_ID}",
    "/api/payout/balance",
    "/api/payout/get-all",
    "/api/dispute/get-all",
    "/api/dispute/dispute-requests",
    "/api/dispute/dispute-payments",
    f"/api/dispute/get-single/{SOME_ID}",
    f"/api/dispute/evidence/{SOME_ID}",
]


@pytest.mark.parametrize("url", REFUSED)
def test_a_sub_host_is_refused_the_hosts_money_and_disputes(clients, url):
    response = clients["sub_host"].get(url)
    assert response.status_code == 403, url
    assert response.json()["message"]
    assert clients["host"].get(url).status_code in (200, 400, 404)


@pytest.mark.parametrize("url", ["/api/subscription", "/api/dashboard/pending-counter", "/api/booking/get-all"])
def test_a_sub_host_keeps_what_its_screens_need(clients, url):
    assert clients["sub_host"].get(url).status_code == 200
