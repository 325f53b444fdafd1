"""Who may decide a dispute: staff (admin or moderator) decide a pending one, once.

Read by the services (which refuse), the views (which gate the call and offer the refundable
amount) and the API's ``can.decide`` (which shows or hides the decision form).
"""

from apps.core.exceptions import Conflict, DomainError, Forbidden
from apps.core.roles import STAFF_ROLES

from .models import Dispute, DisputeStatus

DECIDER_ROLES = STAFF_ROLES


def decides_disputes(user) -> bool:
    """The caller's role decides disputes (whichever dispute it is)."""
    return user is not None and getattr(user, "role", None) in DECIDER_ROLES


def decide_refusal(user, dispute: Dispute | None = None) -> DomainError | None:
    """Why ``user`` may not decide ``dispute`` (or any dispute, without one); None when it may."""
    if not decides_disputes(user):
        return Forbidden("Only an admin or a moderator can decide a dispute.")
    if dispute is not None and dispute.status != DisputeStatus.PENDING:
        return Conflict(f"This dispute was already {dispute.status}; a decision cannot be changed.")
    return None


def dispute_can(user, dispute: Dispute) -> dict[str, bool]:
    """The ``can`` flags of a dispute for ``user``."""
    return {"decide": decide_refusal(user, dispute) is None}
