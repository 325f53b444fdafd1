"""Every receiver the bookings app connects, listed in ``SUBSCRIBERS`` (connected by ``apps.py``).

- The listings app asks, through its signals, which listings are fully booked over searched days
  (``listings_fully_booked``) and whether a listing may be taken down (``listing_refuse_with_upcoming_bookings``).
- Time held or released on a space changes the public search's answers with dates.
"""

import datetime as dt

from django.db.models.signals import post_save

from apps.core.dispatch import Subscriber
from apps.core.django_internals import loaded_relation
from apps.core.exceptions import Conflict
from apps.listings import search_cache
from apps.listings.models import Listing
from apps.listings.signals import dates_searched, listing_withdrawing

from . import selectors
from .models import Booking, Occupancy
from .policies import HOLDING_STATUSES
from .signals import booking_status_changed


def listings_fully_booked(sender, *, start: dt.date, end: dt.date, **kwargs) -> list:
    """Listings fully booked over the days ``start`` to ``end``, each read in its listing's own time
    zone (``selectors.listings_fully_booked_on``: one query)."""
    return selectors.listings_fully_booked_on(start, end)


def listing_refuse_with_upcoming_bookings(sender, *, listing, action: str, **kwargs) -> None:
    """A listing with bookings still to come cannot be taken down: renters were promised the space.
    The host answers or cancels them first (the bookings services refund the renters)."""
    count = selectors.listing_upcoming_bookings(listing_id=listing.pk).count()
    if count:
        bookings = "booking" if count == 1 else "bookings"
        raise Conflict(
            f"This listing has {count} upcoming {bookings} (pending, approved or ongoing). "
            f"Reject or cancel {'it' if count == 1 else 'them'} before you {action} the listing."
        )


def _scopes_of(booking) -> set[str] | None:
    """The search scopes of the booking's listing when it is loaded (no query), else None (everywhere)."""
    listing = loaded_relation(booking, "listing") if booking is not None else None
    if listing is None:
        return None
    values = listing.__dict__
    return search_cache.place_scopes(values.get("city"), values.get("latitude"), values.get("longitude"))


def time_held(sender, instance, *, created: bool, raw: bool = False, **kwargs) -> None:
    """Time held on a space changes the answers of the public search with dates."""
    if created and not raw:
        booking = loaded_relation(instance, "booking")
        search_cache.dates_changed(_scopes_of(booking))


def time_released(sender, *, from_status: str, to_status: str, **kwargs) -> None:
    """A booking that stops holding its time (rejected, cancelled, expired) frees dates in the search."""
    if from_status in HOLDING_STATUSES and to_status not in HOLDING_STATUSES:
        search_cache.dates_changed(_scopes_of(kwargs.get("booking")))


SUBSCRIBERS = (
    Subscriber(dates_searched, listings_fully_booked, sender=Listing, uid="bookings-listings-fully-booked"),
    Subscriber(listing_withdrawing, listing_refuse_with_upcoming_bookings, sender=Listing, uid="bookings-upcoming"),
    Subscriber(post_save, time_held, sender=Occupancy, uid="search-dates-time-held"),
    Subscriber(booking_status_changed, time_released, sender=Booking, uid="search-dates-time-released"),
)
