"""Stripe subscription and invoice events applied to the membership (renewals, cancellations)."""

from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from apps.core.statemachine import record as record_status
from apps.premium.models import Plan, Subscription, SubscriptionStatus
from apps.premium.policies import PREMIUM_GRACE_DAYS, deletion_at

from ..models import SubscriptionPayment, SubscriptionPaymentStatus
from .common import SUBSCRIPTION_PAYMENT_MACHINE, display_date, host_notify, subscription_set_status
from .lifecycle import mail_deletion_warning

# --- Gateway events ------------------------------------------------------------------------------


@transaction.atomic
def subscription_sync_from_gateway(
    *,
    gateway_subscription_id: str,
    event_created: datetime,
    gateway_status: str | None = None,
    period_end: datetime | None = None,
    invoice_id: str = "",
    invoice_amount: Decimal | None = None,
) -> str:
    """Apply a Stripe subscription or invoice event. Events older than the newest one applied
    are ignored, so out-of-order deliveries never undo a later state."""
    subscription = (
        Subscription.objects.select_for_update(of=("self",))
        .select_related("host", "plan")
        .filter(gateway_subscription_id=gateway_subscription_id)
        .first()
    )
    if subscription is None:
        return "unknown subscription"
    outcome = []
    if invoice_id and invoice_amount is not None and period_end is not None:
        # A renewal invoice: record the payment (once) and extend the membership.
        renewal, created = SubscriptionPayment.objects.get_or_create(
            gateway_payment_id=invoice_id,
            defaults={
                "host": subscription.host,
                "subscription": subscription,
                "plan": subscription.plan or Plan.objects.filter(is_active=True).first(),
                "total_amount": invoice_amount,
                "status": SubscriptionPaymentStatus.COMPLETED,
                "gateway": "stripe",
                "period_start": subscription.next_billing_date,
                "period_end": period_end,
                "completed_at": timezone.now(),
            },
        )
        if created:
            record_status(
                renewal,
                machine=SUBSCRIPTION_PAYMENT_MACHINE.name,
                from_status="",
                to_status=renewal.status,
                reason="Renewal paid",
            )
        outcome.append("renewal recorded" if created else "renewal already recorded")
        if subscription.status != SubscriptionStatus.CANCELLED and (
            subscription.next_billing_date is None or period_end > subscription.next_billing_date
        ):
            subscription.next_billing_date = period_end
            subscription.expired_at = None
            subscription_set_status(subscription, SubscriptionStatus.ACTIVE, fields=["next_billing_date", "expired_at"])
            if created:
                host_notify(
                    subscription.host,
                    "subscriptionPaid",
                    f"Your premium membership was renewed until {display_date(period_end)}.",
                )
        return ", ".join(outcome)

    if subscription.gateway_synced_at and event_created < subscription.gateway_synced_at:
        return "stale event ignored"
    subscription.gateway_synced_at = event_created
    subscription.save(update_fields=["gateway_synced_at", "updated_at"])
    if gateway_status == "canceled":
        if subscription.status != SubscriptionStatus.CANCELLED:
            subscription.cancelled_at = event_created
            subscription_set_status(subscription, SubscriptionStatus.CANCELLED, fields=["cancelled_at"])
            deletion_date = display_date(deletion_at(event_created))
            mail_deletion_warning(subscription, days_left=PREMIUM_GRACE_DAYS, deletion_date=deletion_date)
            return "cancelled"
        return "already cancelled"
    extends = period_end is not None and (
        subscription.next_billing_date is None or period_end > subscription.next_billing_date
    )
    if gateway_status in ("active", "trialing") and extends and subscription.status != SubscriptionStatus.CANCELLED:
        subscription.next_billing_date = period_end
        subscription.expired_at = None
        subscription_set_status(subscription, SubscriptionStatus.ACTIVE, fields=["next_billing_date", "expired_at"])
        return "period extended"
    return "no change"
