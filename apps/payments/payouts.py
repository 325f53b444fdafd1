"""Host payouts: a host asks for its available balance; the admin releases, holds or fails it.

An earning joins a payout by a conditional update (``payout IS NULL``), so the same earning can
never be in two payouts; a failed payout gives its earnings back to the balance.
"""

from decimal import Decimal

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from apps.accounts.models import User
from apps.core.access import Area, reaches
from apps.core.effects import effect_enqueue
from apps.core.exceptions import Conflict, Forbidden, InvalidInput, NotFound
from apps.core.statemachine import StateMachine, record
from apps.notifications.services import counters_changed, notify

from .gateway import get_gateway
from .models import ZERO, Earning, HostPayoutAccount, Payout, PayoutStatus
from .policies import payout_available, payout_request_refusal, requests_payouts

PAYOUT_MACHINE = StateMachine(
    "payout",
    {
        PayoutStatus.ONHOLD: {PayoutStatus.RELEASED, PayoutStatus.FAILED},
        PayoutStatus.RELEASED: set(),
        PayoutStatus.FAILED: set(),
    },
)
TRANSITIONS = PAYOUT_MACHINE.table


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
    if not requests_payouts(user):
        raise Forbidden("Only the host can request a payout.")
    # One request at a time per host. FOR NO KEY UPDATE: a refund or release running meanwhile
    # writes rows that refer to the host (a notification, a status change), which take a key-share
    # lock on this row; a plain FOR UPDATE would wait for them while they wait for the earnings
    # this request claims (a deadlock, answered 500).
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
    if refusal := payout_request_refusal(user):
        raise refusal
    available = payout_available(user.pk)
    amount = available.aggregate(total=Sum("amount"))["total"] or ZERO
    payout = Payout.objects.create(host=user, amount=amount)
    record(payout, machine=PAYOUT_MACHINE.name, from_status="", to_status=PayoutStatus.ONHOLD, actor=user)
    claimed = Earning.objects.filter(pk__in=list(available.values_list("pk", flat=True)), payout__isnull=True).update(
        payout=payout
    )
    total = payout.earnings.aggregate(total=Sum("amount"))["total"] or ZERO
    if not claimed or total != amount:
        raise Conflict("Your balance changed while requesting; please try again.")
    _counters(staff=True)
    return payout


def _counters(**kwargs) -> None:
    counters_changed(**kwargs)


REFUNDED_BEFORE_RELEASE = "Its bookings were refunded before it was paid; nothing is left to pay."


def payout_recompute(*, payout: Payout, actor=None) -> Payout:
    """A payout waiting for the admin (locked by the caller) is the sum of its earnings as they are
    now: a refund lowers it, and when nothing is left it is rejected and its earnings go back to the
    balance (a payout is never for $0.00)."""
    total = payout.earnings.aggregate(total=Sum("amount"))["total"] or ZERO
    if total > ZERO:
        if total != payout.amount:
            payout.amount = total
            payout.save(update_fields=["amount"])
        return payout
    payout.earnings.update(payout=None)
    PAYOUT_MACHINE.transition(
        payout, PayoutStatus.FAILED, actor=actor, reason=REFUNDED_BEFORE_RELEASE, note=REFUNDED_BEFORE_RELEASE
    )
    _counters(staff=True)
    return payout


@transaction.atomic
def payout_update_status(*, payout_id, by: User, status: str, note: str = "") -> Payout:
    if not reaches(by, Area.PAYOUT_REQUESTS):
        raise Forbidden("Only an admin can decide payouts.")
    payout = Payout.objects.select_for_update().filter(pk=payout_id).first()
    if payout is None:
        raise NotFound("Payout request not found.")
    if status not in PayoutStatus.values:
        raise InvalidInput("status must be released, onhold or failed.", errors={"status": ["Not a payout status."]})
    if status == payout.status == PayoutStatus.ONHOLD:  # "hold" keeps it waiting, with a new note
        payout.note = (note or "")[:500]
        payout.decided_by, payout.decided_at = by, timezone.now()
        payout.save(update_fields=["note", "decided_by", "decided_at"])
        return payout
    if not PAYOUT_MACHINE.can(payout.status, status):
        raise Conflict(f"This payout is already {payout.get_status_display().lower()}.")
    fields = {"note": (note or "")[:500], "decided_by": by, "decided_at": timezone.now()}
    destination = ""
    if status == PayoutStatus.RELEASED:
        # Paid as its earnings stand now (a refund since the request lowered them), never for a
        # refunded booking.
        total = sum((earning.amount for earning in payout.earnings.select_for_update()), ZERO)
        if total <= ZERO:
            raise Conflict("Nothing is left to pay in this payout: its bookings were refunded. Reject it instead.")
        fields["amount"] = total
        account = HostPayoutAccount.objects.filter(host_id=payout.host_id).exclude(stripe_account_id="").first()
        if account is not None and get_gateway().name == "stripe":
            destination = account.stripe_account_id
        fields["method"] = "stripe" if destination else "manual"
    elif status == PayoutStatus.FAILED:
        payout.earnings.update(payout=None)
    PAYOUT_MACHINE.transition(payout, status, actor=by, reason=fields["note"], **fields)
    if destination:
        # The transfer is an effect: sent by the worker with the payout as its idempotency key.
        effect_enqueue(
            "payments.transfer",
            {"payout_id": str(payout.pk), "destination": destination},
            key=f"payout-transfer:{payout.pk}",
        )
    if status == PayoutStatus.RELEASED:
        notify(
            user=payout.host,
            kind="payoutReleased",
            content=f"${payout.amount:,.2f} was paid out to you.",
            link="/payout",
        )
    _counters(staff=True)
    return payout
