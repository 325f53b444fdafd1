"""Rules every list of the API shares: the page size, the paginator's window and ``filters[period]``.

One meaning each, for the server and (through ``frontend/src/shared/constants.json`` and the
golden cases in ``frontend/src/shared/policies.golden.json``, which both sides test) for the client:

- ``filters[period]``: a rolling window ending now: ``daily`` the last 24 hours, ``weekly`` the
  last 7 days, ``monthly`` the last 30 days. Every list that offers the filter (bookings,
  listings, listing requests, payments, invoices, disputes) reads it through ``period_start``.
- The paginator (spec section 9): every page when there are 10 or fewer; otherwise a window of
  the first five pages while the current page is 4 or less (so both its neighbours show), the last
  five while it is within 3 of the end, else the first and last pages around the current page and
  its neighbours.
"""

import datetime as dt

from django.utils import timezone

from .exceptions import InvalidInput

PAGE_SIZE = 10
"""Rows per page everywhere (notifications, invoices, listings, bookings, payments...)."""

PERIODS: dict[str, dt.timedelta] = {
    "daily": dt.timedelta(days=1),
    "weekly": dt.timedelta(days=7),
    "monthly": dt.timedelta(days=30),
}
PERIOD_NAMES: tuple[str, ...] = tuple(PERIODS)
PERIOD_MESSAGE = "Period must be daily, weekly or monthly."

PAGINATION_ALL_PAGES_UP_TO = 10
PAGINATION_EDGE_WINDOW = 5


def period_start(period: str | None, *, now: dt.datetime | None = None) -> dt.datetime | None:
    """The first moment ``filters[period]`` includes, or None when no period is asked for.

    An unknown period is refused (400) with the message under ``filters[period]``.
    """
    if period is None or str(period).strip() == "":
        return None
    period = str(period).strip()
    if period not in PERIODS:
        raise InvalidInput(PERIOD_MESSAGE, errors={"filters[period]": [PERIOD_MESSAGE]})
    return (now or timezone.now()) - PERIODS[period]


def page_window(current: int, total: int) -> list[int | None]:
    """The page numbers a paginator shows; ``None`` marks a gap ("...")."""
    if total <= 0:
        return []
    current = min(max(1, current), total)
    if total <= PAGINATION_ALL_PAGES_UP_TO:
        return list(range(1, total + 1))
    edge = PAGINATION_EDGE_WINDOW
    if current <= edge - 1:
        return [*range(1, edge + 1), None, total]
    if current >= total - (edge - 2):
        return [1, None, *range(total - edge + 1, total + 1)]
    return [1, None, current - 1, current, current + 1, None, total]
