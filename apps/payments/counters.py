from apps.notifications.counters import register_counter

from .models import Payout, PayoutStatus


def payout_requests(user):
    """Payout requests waiting for a decision (who sees the counter: ``apps.core.access``)."""
    return Payout.objects.filter(status=PayoutStatus.ONHOLD)


register_counter("payoutRequests", payout_requests)
