"""What the membership modules share: the status machine, the acting host, dates as shown."""

from datetime import datetime

from django.conf import settings

from apps.accounts.models import User
from apps.accounts.policies import acting_host as host_acted_for
from apps.core.exceptions import Forbidden
from apps.core.statemachine import StateMachine
from apps.notifications.services import notify
from apps.premium.models import Subscription, SubscriptionStatus

from ..models import SubscriptionPaymentStatus

SUBSCRIPTION_MACHINE = StateMachine(
    "subscription",
    {
        SubscriptionStatus.ACTIVE: {SubscriptionStatus.CANCELLED, SubscriptionStatus.EXPIRED},
        SubscriptionStatus.CANCELLED: {SubscriptionStatus.ACTIVE},
        SubscriptionStatus.EXPIRED: {SubscriptionStatus.ACTIVE, SubscriptionStatus.CANCELLED},
    },
    label="membership",
)
TRANSITIONS = SUBSCRIPTION_MACHINE.table
# A membership payment: completed when its checkout is paid, cancelled when abandoned.
SUBSCRIPTION_PAYMENT_MACHINE = StateMachine(
    "subscriptionPayment",
    {
        SubscriptionPaymentStatus.PENDING: {
            SubscriptionPaymentStatus.COMPLETED,
            SubscriptionPaymentStatus.CANCELLED,
            SubscriptionPaymentStatus.FAILED,
        },
        SubscriptionPaymentStatus.COMPLETED: set(),
        SubscriptionPaymentStatus.CANCELLED: set(),
        SubscriptionPaymentStatus.FAILED: set(),
    },
    label="membership payment",
)


def acting_host(user: User) -> User:
    """The host whose membership ``user`` manages (itself, or a subHost's host)."""
    host = host_acted_for(user)
    if host is None:
        raise Forbidden("Only hosts and their sub-hosts have a premium membership.")
    return host


def host_notify(user, kind: str, content: str, link: str = "/dashboard") -> None:
    notify(user=user, kind=kind, content=content, link=link)


def display_date(moment: datetime | None) -> str:
    if moment is None:
        return ""
    from zoneinfo import ZoneInfo

    return moment.astimezone(ZoneInfo(settings.DISPLAY_TIME_ZONE)).strftime("%d-%m-%Y")


def subscription_get_or_create(*, host: User, lock: bool = False) -> Subscription:
    subscription, _ = Subscription.objects.get_or_create(host=host)
    if lock:
        subscription = Subscription.objects.select_for_update().get(pk=subscription.pk)
    return subscription


def subscription_set_status(
    subscription: Subscription, status: str, *, fields: list[str], actor=None, reason: str = ""
) -> None:
    """Every membership status change: checked against the table, saved with its history row (a
    membership that stays active, e.g. free to premium, only saves its fields)."""
    if subscription.status == status:
        subscription.save(update_fields=[*dict.fromkeys([*fields, "updated_at"])])
        return
    SUBSCRIPTION_MACHINE.transition(
        subscription,
        status,
        actor=actor,
        reason=reason,
        message=f"A {subscription.status} membership cannot become {status}.",
        **{name: getattr(subscription, name) for name in fields},
    )
