"""Reads of the payments app, filtered by who is asking."""

from django.db.models import Q, QuerySet

from apps.accounts.models import Role, User
from apps.core.exceptions import Forbidden, NotFound
from apps.core.filters import is_uuid
from apps.core.policies import period_start
from apps.premium.models import Plan, Subscription

from .models import (
    ExtensionCharge,
    Invoice,
    Payment,
    Payout,
    SubscriptionPayment,
    SubscriptionPaymentStatus,
)


def _scope(user) -> Q:
    if user.role == Role.ADMIN:
        return Q()
    if user.role == Role.RENTER:
        return Q(renter=user)
    if user.role in (Role.HOST, Role.SUB_HOST):
        return Q(host_id=user.acting_host_id)
    raise Forbidden("Your account type cannot see payments.")


def payments_visible_to(user) -> QuerySet[Payment]:
    return Payment.objects.filter(_scope(user)).select_related("listing", "renter", "host", "booking")


def payment_list_for(*, user, filters: dict[str, str]) -> QuerySet[Payment]:
    qs = payments_visible_to(user)
    start = period_start(filters.get("period"))
    if start is not None:
        qs = qs.filter(created_at__gte=start)
    if filters.get("status"):
        qs = qs.filter(status=filters["status"][:20])
    return qs.order_by("-created_at")


def payment_get_for_booking(*, user, booking_id) -> Payment:
    payment = payments_visible_to(user).filter(booking_id=booking_id).first() if is_uuid(booking_id) else None
    if payment is None:
        raise NotFound("No payment was found for this booking.")
    return payment


def invoices_visible_to(user) -> QuerySet[Invoice]:
    scope = _scope(user)
    prefixed = Q(**{f"payment__{k}": v for k, v in scope.children}) if scope.children else Q()
    return (
        Invoice.objects.filter(prefixed)
        .select_related(
            "payment",
            "payment__listing",
            "payment__renter",
            "payment__host",
            "payment__booking",
            "payment__booking__listing",
            "refund",
        )
        .prefetch_related("payment__booking__extensions")
    )


def invoice_list_for(*, user, filters: dict[str, str]) -> QuerySet[Invoice]:
    qs = invoices_visible_to(user)
    start = period_start(filters.get("period"))
    if start is not None:
        qs = qs.filter(issued_at__gte=start)
    return qs.order_by("-issued_at", "-sequence")


def invoice_get_for(*, user, id) -> Invoice:
    invoice = invoices_visible_to(user).filter(pk=id).first() if is_uuid(id) else None
    if invoice is None:
        raise NotFound("Invoice not found.")
    return invoice


def payout_list_for(*, user, filters: dict[str, str]) -> QuerySet[Payout]:
    qs = Payout.objects.select_related("host")
    if user.role != Role.ADMIN:
        qs = qs.filter(host_id=user.acting_host_id)
    if filters.get("status"):
        qs = qs.filter(status=filters["status"][:20])
    start = period_start(filters.get("period"))
    if start is not None:
        qs = qs.filter(requested_at__gte=start)
    return qs


def checkout_session_is_renters(*, session_id: str, renter) -> bool:
    """Whether a checkout session (a booking's payment or an extension's charge) is this renter's."""
    return Payment.objects.filter(session_id=session_id, renter=renter).exists() or (
        ExtensionCharge.objects.filter(session_id=session_id, payment__renter=renter).exists()
    )


# --- Premium membership --------------------------------------------------------------------------


def plans_active() -> QuerySet[Plan]:
    return Plan.objects.filter(is_active=True)


def subscription_with_plan(subscription_id) -> Subscription:
    return Subscription.objects.select_related("plan").get(pk=subscription_id)


def subscription_payments_completed(*, host) -> QuerySet[SubscriptionPayment]:
    """A host's paid membership periods (the billing history)."""
    return SubscriptionPayment.objects.filter(host=host, status=SubscriptionPaymentStatus.COMPLETED).select_related(
        "plan"
    )


def host_get(*, host_id) -> User:
    """A live host account, for the admin giving it premium; 404 for anyone else."""
    host = User.objects.filter(pk=host_id, role=Role.HOST, is_deleted=False).first()
    if host is None:
        raise NotFound("This host was not found.")
    return host
