"""Demo money: the premium annual plan, host@example.com as a premium member, a payment for each
seeded booking as its status implies (held, paid, released, refunded), invoices and credit
notes, and payouts in each status. Idempotent: only what is missing is created."""

from datetime import timedelta
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone

from apps.accounts.models import User
from apps.bookings.models import Booking
from apps.bookings.services.payment import booking_payment_record
from apps.core.effects import effects_run_due
from apps.premium.models import Plan, Subscription, SubscriptionSource, SubscriptionStatus, SubscriptionType
from apps.premium.policies import DELETION_CLAUSE

from . import payouts, services
from .models import (
    Earning,
    Payment,
    PaymentStatus,
    Payout,
    PayoutStatus,
    Refund,
    SubscriptionPayment,
    SubscriptionPaymentStatus,
)
from .policies import BOOKING_PAYMENT
from .premium import add_year

PREMIUM_FEATURES = [
    {"bold": "Unlimited", "normal": "active listings (free hosts keep 3 active)"},
    {"bold": "Featured placement", "normal": "of your premium listings at the top of search"},
    {"bold": "Premium badge", "normal": "on your profile and listings"},
    {
        "bold": "Billed annually.",
        "normal": f"Non refundable; premium listings are {DELETION_CLAUSE}.",
    },
]


def seed(stdout) -> None:
    plan, _ = Plan.objects.get_or_create(
        plan_id="premium-annual",
        defaults={
            "plan_name": "Premium Membership",
            "description": "One year of premium for hosts: more listings, more visibility.",
            "total_amount": Decimal("199.00"),
            "features": PREMIUM_FEATURES,
        },
    )
    host = User.objects.filter(email="host@example.com").first()
    if host is None:
        stdout.write("  payments skipped: host@example.com missing")
        return
    _premium_host(host, plan)
    made = _booking_payments()
    _payouts(host)
    stdout.write(f"  payments: {made} new booking payments, {Payout.objects.count()} payouts")


def _premium_host(host: User, plan: Plan) -> None:
    subscription, _ = Subscription.objects.get_or_create(host=host)
    if subscription.type == SubscriptionType.PREMIUM:
        return
    start = timezone.now() - timedelta(days=30)
    subscription.type = SubscriptionType.PREMIUM
    subscription.status = SubscriptionStatus.ACTIVE
    subscription.subscription_source = SubscriptionSource.LOCAL
    subscription.plan = plan
    subscription.start_date = start
    subscription.next_billing_date = add_year(start)
    subscription.save()
    SubscriptionPayment.objects.create(
        host=host,
        subscription=subscription,
        plan=plan,
        paid_by=host,
        total_amount=plan.total_amount,
        status=SubscriptionPaymentStatus.COMPLETED,
        gateway="local",
        gateway_payment_id="pi_local_seed_premium",
        period_start=start,
        period_end=subscription.next_billing_date,
        completed_at=start,
        created_at=start,
    )


def hold_demo_payment(booking) -> Payment:
    """A demo renter's card held for a pay-now request (as the local checkout would), so the host
    may approve it; the approval then captures it through the usual hook."""
    payment, _ = Payment.objects.get_or_create(
        booking=booking,
        defaults={
            "listing": booking.listing,
            "renter_id": booking.renter_id,
            "host_id": booking.host_id,
            "gateway": "local",
            "total_amount": booking.total_amount,
            "payment_id": f"pi_local_seed_{booking.pk.hex[:16]}",
            "status": PaymentStatus.AUTHORIZED,
            "authorized_at": booking.created_at,
            "created_at": booking.created_at,
        },
    )
    booking_payment_record(booking_id=booking.pk, state=BOOKING_PAYMENT[payment.status])
    return payment


def _booking_payments() -> int:
    made = 0
    # Bookings without a payment, and held demo payments whose booking moved on while the payments
    # hook was not running (it runs on commit, which a test's transaction never reaches).
    unsettled = Q(payment__isnull=True) | (Q(payment__status=PaymentStatus.AUTHORIZED) & ~Q(status="pending"))
    for booking in Booking.objects.filter(unsettled, total_amount__gt=0).select_related("listing"):
        payment = Payment.objects.filter(booking=booking).first()
        if payment is None:
            payment = Payment.objects.create(
                booking=booking,
                listing=booking.listing,
                renter_id=booking.renter_id,
                host_id=booking.host_id,
                gateway="local",
                total_amount=booking.price or booking.total_amount,
                payment_id=f"pi_local_seed_{booking.pk.hex[:16]}",
                status=PaymentStatus.AUTHORIZED,
                authorized_at=booking.created_at,
                created_at=booking.created_at,
            )
            booking_payment_record(booking_id=booking.pk, state=BOOKING_PAYMENT[PaymentStatus.AUTHORIZED])
            made += 1
        if booking.status in ("rejected", "expired"):
            services.payment_release(payment=payment)
            continue
        if booking.status == "pending":
            continue
        services.payment_capture(payment=payment)
        effects_run_due()  # demo data: carry out the capture now rather than on the worker
        payment.refresh_from_db()
        if booking.total_amount > payment.captured_amount:  # paid extensions
            Payment.objects.filter(pk=payment.pk).update(extended_amount=booking.total_amount - payment.captured_amount)
            payment.refresh_from_db()
        if booking.status == "cancelled":
            amount = booking.refund_amount if booking.refund_amount is not None else payment.captured_amount
            if amount and amount > 0:
                services.payment_refund(payment=payment, amount=amount, source=Refund.Source.CANCELLATION)
                effects_run_due()
        if booking.status == "completed":
            services.earning_record(payment=Payment.objects.select_related("booking").get(pk=payment.pk))
    return made


def _payouts(host: User) -> None:
    """One payout in each status, as far as the host's completed bookings allow."""

    if Payout.objects.filter(host=host).exists():
        return
    admin = User.objects.filter(role="admin").first()
    earnings = list(Earning.objects.filter(host=host, payout__isnull=True, amount__gt=0))
    if not earnings or admin is None:
        return
    _with_only(host, earnings[0], lambda: payouts.payout_request(user=host))
    first = Payout.objects.get(host=host, status=PayoutStatus.ONHOLD)
    payouts.payout_update_status(
        payout_id=first.pk, by=admin, status=PayoutStatus.RELEASED, note="Paid by bank transfer."
    )
    if len(earnings) < 2:
        return
    failed = payouts.payout_request(user=host)
    payouts.payout_update_status(
        payout_id=failed.pk, by=admin, status=PayoutStatus.FAILED, note="Bank details were wrong."
    )
    payouts.payout_request(user=host)  # waits: onhold (Pending)


def _with_only(host: User, earning: Earning, fn):
    """Run ``fn`` while only ``earning`` is available (the others are parked on a throwaway flag)."""
    others = list(Earning.objects.filter(host=host, payout__isnull=True).exclude(pk=earning.pk))
    parked = Payout.objects.create(host=host, amount=Decimal("0.01"), status=PayoutStatus.FAILED, note="parked")
    Earning.objects.filter(pk__in=[e.pk for e in others]).update(payout=parked)
    try:
        return fn()
    finally:
        Earning.objects.filter(payout=parked).update(payout=None)
        parked.delete()
