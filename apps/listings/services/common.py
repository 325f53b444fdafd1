"""What the listing services share: who acts for the host."""

from apps.accounts.models import User
from apps.accounts.policies import acting_host
from apps.core.exceptions import Forbidden


def host_acting_for(actor: User) -> User:
    host = acting_host(actor)
    if host is None:
        raise Forbidden("Only hosts and their sub-hosts manage listings.")
    return host
