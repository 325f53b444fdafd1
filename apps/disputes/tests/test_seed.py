import io

import pytest

from apps.accounts import seed as accounts_seed
from apps.bookings import seed as bookings_seed
from apps.disputes import seed as disputes_seed
from apps.disputes.models import Dispute
from apps.listings import seed as listings_seed
from apps.payments import seed as payments_seed
from apps.payments.models import Payment

pytestmark = pytest.mark.django_db


def test_demo_disputes_in_each_status_idempotently(django_capture_on_commit_callbacks):
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        for module in (accounts_seed, listings_seed, bookings_seed, payments_seed):
            module.seed(out)
        disputes_seed.seed(out)
    statuses = sorted(Dispute.objects.values_list("status", flat=True))
    assert statuses == ["approved", "pending", "rejected"], out.getvalue()

    pending = Dispute.objects.get(status="pending")
    assert pending.booking.status == "disputed" and pending.evidence.count() == 1
    approved = Dispute.objects.get(status="approved")
    payment = Payment.objects.get(booking=approved.booking)
    assert approved.refund_amount > 0 and payment.refunded_amount == approved.refund_amount
    rejected = Dispute.objects.get(status="rejected")
    assert rejected.reject_reason and rejected.booking.status == "completed"

    with django_capture_on_commit_callbacks(execute=True):
        disputes_seed.seed(out)
    assert Dispute.objects.count() == 3
    payment.refresh_from_db()
    assert payment.refunded_amount == approved.refund_amount
