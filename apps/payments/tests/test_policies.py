"""When a payment is captured (apps/payments/policies.py), and the premium grace (apps/premium/policies.py)."""

import json
from pathlib import Path

from django.conf import settings

from apps.bookings.models import BookingStatus
from apps.payments import policies, premium
from apps.premium import policies as premium_policies

GOLDEN = json.loads((Path(settings.BASE_DIR) / "frontend/src/shared/policies.golden.json").read_text())


def test_a_held_payment_is_captured_once_the_host_accepted():
    captured = {status for status in BookingStatus.values if policies.captures(status)}
    assert captured == {"approved", "ongoing", "completed"}
    assert not policies.CAPTURE_BOOKING_STATUSES & policies.RELEASE_BOOKING_STATUSES
    # Pending waits for the host; disputed bookings were captured before the dispute.
    assert not policies.captures(BookingStatus.PENDING) and not policies.captures(BookingStatus.DISPUTED)


def test_premium_grace_is_one_constant_named_in_every_text():
    assert GOLDEN["premiumGraceDays"] == premium_policies.PREMIUM_GRACE_DAYS
    assert f"{premium_policies.PREMIUM_GRACE_DAYS} days after the membership is cancelled" in premium.PREMIUM_TERMS
    assert premium_policies.grace_text() in premium_policies.premium_terms()
