"""Least privilege (issue 24): a subHost does not read the host's money or disputes through the API;
the host does. The subHost keeps what its screens need (the host dashboard, premium, bookings)."""

import uuid

import pytest

pytestmark = pytest.mark.django_db

REFUSED = [
    "/api/payment/get-all",
    f"/api/payment/get-single/{uuid.uuid4()}",
    f"/api/payment/details?paymentId={uuid.uuid4()}",
    "/api/invoice/get-all",
    f"/api/invoice/pdf/{uuid.uuid4()}",
    "/api/payout/balance",
    "/api/payout/get-all",
    "/api/dispute/get-all",
    "/api/dispute/dispute-requests",
    "/api/dispute/dispute-payments",
    f"/api/dispute/get-single/{uuid.uuid4()}",
    f"/api/dispute/evidence/{uuid.uuid4()}",
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
