from decimal import Decimal
from urllib.parse import urlsplit

import pytest

from apps.payments.models import Payment
from apps.premium.models import Plan

from .fake_stripe import FakeStripe

WEBHOOK_SECRET = "whsec_test_secret"


@pytest.fixture
def plan(db) -> Plan:
    return Plan.objects.create(
        plan_id="premium-annual",
        plan_name="Premium Annual",
        description="Everything a busy host needs.",
        total_amount=Decimal("199.00"),
        features=[{"bold": "Unlimited", "normal": "active listings"}, {"bold": "Featured", "normal": "in search"}],
    )


@pytest.fixture(scope="session")
def _fake_stripe_server():
    fake = FakeStripe().start()
    yield fake
    fake.stop()


@pytest.fixture
def fake_stripe(_fake_stripe_server, settings) -> FakeStripe:
    """Stripe is on (a secret key) and the SDK talks to the local fake server."""
    fake = _fake_stripe_server
    fake.objects.clear()
    fake.requests.clear()
    fake.fail_next = None
    fake.failures.clear()
    fake.idempotent.clear()
    fake.replayed.clear()
    fake.hold_path = None
    fake.require_authentication = False
    fake.held.clear()
    fake.release_held.clear()
    settings.STRIPE_SECRET_KEY = "sk_test_fake"
    settings.STRIPE_API_BASE = fake.url
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    return fake


@pytest.fixture
def local_gateway(settings):
    settings.STRIPE_SECRET_KEY = ""
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET


def pay_locally(api, renter_client, booking) -> Payment:
    """The renter pays for ``booking`` on the local checkout page (no Stripe keys): the payment is held."""
    response = renter_client.post("/api/payment/checkout", {"bookingId": str(booking.pk)}, format="json")
    assert response.status_code == 200, response.content
    path = urlsplit(response.json()["data"]["url"]).path
    assert api.get(path).status_code == 200
    assert api.post(path + "/pay").status_code == 302
    return Payment.objects.get(booking=booking)
