from apps.accounts.models import Role
from apps.notifications.counters import register_counter

from .models import Payout, PayoutStatus


def payout_requests(user) -> int:
    """Payout requests waiting for a decision; only the admin decides them."""
    if user.role != Role.ADMIN:
        return 0
    return Payout.objects.filter(status=PayoutStatus.ONHOLD).count()


register_counter("payoutRequests", payout_requests)
