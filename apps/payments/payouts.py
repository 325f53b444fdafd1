"""Host payouts: a host asks for its available balance; the admin releases, holds or fails it.

An earning joins a payout by a conditional update (``payout IS NULL``), so the same earning can
never be in two payouts; a failed payout gives its earnings back to the balance.
"""

from decimal import Decimal

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from apps.accounts.models import Role, User
from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotFound

from .gateway import gateway_named, get_gateway
from .models import ZERO, Earning, HostPayoutAccount, Payout, PayoutStatus

TRANSITIONS: dict[str, frozenset[str]] = {
    PayoutStatus.ONHOLD: frozenset({PayoutStatus.RELEASED, PayoutStatus.FAILED, PayoutStatus.ONHOLD}),
    PayoutStatus.RELEASED: frozenset(),
    PayoutStatus.FAILED: frozenset(),
}


def host_balance(*, host_id) -> dict[str, Decimal]:
    def total(qs) -> Decimal:
        return qs.aggregate(total=Sum("amount"))["total"] or ZERO

    earnings = Earning.objects.filter(host_id=host_id)
    return {
        "available": total(earnings.filter(payout__isnull=True)),
        "pending": total(earnings.filter(payout__status=PayoutStatus.ONHOLD)),
        "paid": total(earnings.filter(payout__status=PayoutStatus.RELEASED)),
    }


@transaction.atomic
def payout_request(*, user: User) -> Payout:
    """The host (not a subHost) asks to be paid everything available."""
    if user.role != Role.HOST:
        raise Forbidden("Only the host can request a payout.")
    User.objects.select_for_update().filter(pk=user.pk).first()  # one request at a time per host
    if Payout.objects.filter(host=user, status=PayoutStatus.ONHOLD).exists():
        raise Conflict("You already have a payout request waiting for approval.")
    available = Earning.objects.filter(host=user, payout__isnull=True, amount__gt=0)
    amount = available.aggregate(total=Sum("amount"))["total"] or ZERO
    if amount <= ZERO:
        raise InvalidInput("You have no available balance to pay out.")
    payout = Payout.objects.create(host=user, amount=amount)
    claimed = Earning.objects.filter(pk__in=list(available.values_list("pk", flat=True)), payout__isnull=True).update(
        payout=payout
    )
    total = payout.earnings.aggregate(total=Sum("amount"))["total"] or ZERO
    if not claimed or total != amount:
        raise Conflict("Your balance changed while requesting; please try again.")
    _counters(staff=True)
    return payout


def _counters(**kwargs) -> None:
    try:
        from apps.notifications.services import counters_changed
    except ImportError:  # pragma: no cover
        return
    counters_changed(**kwargs)


@transaction.atomic
def payout_update_status(*, payout_id, by: User, status: str, note: str = "") -> Payout:
    if by.role != Role.ADMIN:
        raise Forbidden("Only an admin can decide payouts.")
    payout = Payout.objects.select_for_update().filter(pk=payout_id).first()
    if payout is None:
        raise NotFound("Payout request not found.")
    if status not in PayoutStatus.values:
        raise InvalidInput("status must be released, onhold or failed.", errors={"status": ["Not a payout status."]})
    if status not in TRANSITIONS[payout.status]:
        raise Conflict(f"This payout is already {payout.get_status_display().lower()}.")
    payout.note = (note or "")[:500]
    if status == PayoutStatus.RELEASED:
        account = HostPayoutAccount.objects.filter(host_id=payout.host_id).exclude(stripe_account_id="").first()
        if account is not None and get_gateway().name == "stripe":
            payout.transfer_id = gateway_named("stripe").transfer(
                amount=payout.amount,
                destination=account.stripe_account_id,
                description=f"Payout {payout.pk}",
                metadata={"payoutId": str(payout.pk)},
            )
            payout.method = "stripe"
        else:
            payout.method = "manual"
    elif status == PayoutStatus.FAILED:
        payout.earnings.update(payout=None)
    payout.status = status
    payout.decided_by = by
    payout.decided_at = timezone.now()
    payout.save()
    if status == PayoutStatus.RELEASED:
        try:
            from apps.notifications.services import notify
        except ImportError:  # pragma: no cover
            notify = None
        if notify is not None:
            host, amount = payout.host, payout.amount
            transaction.on_commit(
                lambda: notify(
                    user=host, kind="payoutReleased", content=f"${amount:,.2f} was paid out to you.", link="/payout"
                ),
                robust=True,
            )
    _counters(staff=True)
    return payout
