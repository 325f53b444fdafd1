import datetime as dt
from decimal import Decimal
from urllib.parse import urlsplit

import pytest

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.bookings.models import Booking
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


def paid_completed_booking(api, clients, users, capture, day=None) -> Booking:
    """A booking of ``users["host"]``'s, paid by ``users["renter"]``, approved and completed: its
    earning is available for a payout."""
    listing = PricedEventListingFactory(host=users["host"])
    booking = booking_make(renter=users["renter"], listing=listing, day=day)
    pay_locally(api, clients["renter"], booking)
    with capture(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    with capture(execute=True):
        bookings.bookings_complete_due(now=booking.check_out + dt.timedelta(minutes=1))
    booking.refresh_from_db()
    assert booking.status == "completed"
    return booking
