"""Failed logins per account, whatever address they come from.

From the ``LOGIN_FAILURES_BEFORE_DELAY``-th failure on, the account refuses logins (even with the
right password) for a delay that starts at ``BASE_DELAY_SECONDS`` and doubles with each further
failure up to ``MAX_DELAY_SECONDS``. The count lives a day after the last failure and is cleared by a
successful login. Unknown e-mails are counted the same way, so the answers never tell them apart.
Keys hold a digest of the e-mail in its normal form (``identifiers``), not the address.
"""

import math
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.crypto import salted_hmac

from .identifiers import normalize_email

BASE_DELAY_SECONDS = 30
MAX_DELAY_SECONDS = 15 * 60
WINDOW_SECONDS = 24 * 60 * 60


def _key(email: str) -> str:
    digest = salted_hmac("accounts.login-failures", normalize_email(email), algorithm="sha256").hexdigest()[:32]
    return f"accounts:login-failures:{digest}"


def _state(email: str) -> tuple[int, float]:
    key = _key(email)
    values = cache.get_many([key, f"{key}:last"])
    return int(values.get(key) or 0), float(values.get(f"{key}:last") or 0.0)


def record_failure(email: str) -> int:
    """Count one failure (atomically: parallel attempts each count); returns how many there are now."""
    key = _key(email)
    cache.add(key, 0, timeout=WINDOW_SECONDS)
    count = cache.incr(key)
    cache.touch(key, WINDOW_SECONDS)
    cache.set(f"{key}:last", time.time(), timeout=WINDOW_SECONDS)
    return count


def delay_for(count: int) -> int:
    threshold = settings.LOGIN_FAILURES_BEFORE_DELAY
    if count < threshold:
        return 0
    return min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 2 ** min(count - threshold, 16))


def seconds_locked(email: str) -> int:
    """How long the account still refuses logins (0: not locked)."""
    count, last = _state(email)
    delay = delay_for(count)
    if not delay:
        return 0
    return max(0, math.ceil(last + delay - time.time()))


def clear(email: str) -> None:
    cache.delete_many([_key(email), f"{_key(email)}:last"])
