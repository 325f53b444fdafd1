"""What the listings app needs to know from the apps above it, asked through a registry.

Listings sit below bookings and payments, so they never import them. Those apps register the
answers when they start (``payments/receivers.py``, ``bookings/apps.py``):

- ``premium_now(host_field)``: a query expression, true when that host is premium now;
- ``active_listing_limit(host_id)``: how many active listings the host may have (None: no limit);
- ``host_is_premium(host_id)``;
- ``booked_between(start_date, end_date)``: ids of listings fully booked over those local days;
- ``upcoming_bookings(listing_id)``: the listing's bookings still to come.

Every deployment runs those apps, so asking for an answer nobody registered is an error.
"""

from collections.abc import Callable

_providers: dict[str, Callable] = {}

NAMES = ("premium_now", "active_listing_limit", "host_is_premium", "booked_between", "upcoming_bookings")


def provide(name: str, fn: Callable) -> Callable:
    if name not in NAMES:
        raise ValueError(f"unknown listings provider {name!r}")
    _providers[name] = fn
    return fn


def _get(name: str) -> Callable:
    try:
        return _providers[name]
    except KeyError:
        raise RuntimeError(f"No app provides {name!r} to the listings app.") from None


def premium_now(host_field: str):
    return _get("premium_now")(host_field)


def active_listing_limit(host_id) -> int | None:
    return _get("active_listing_limit")(host_id)


def host_is_premium(host_id) -> bool:
    return _get("host_is_premium")(host_id)


def booked_between(start_date, end_date):
    return _get("booked_between")(start_date, end_date)


def upcoming_bookings(listing_id):
    return _get("upcoming_bookings")(listing_id)
