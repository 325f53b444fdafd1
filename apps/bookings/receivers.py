"""What the bookings app answers to the apps below it (the listings app's providers registry)."""

import datetime as dt

from django.db.models.signals import post_save

from apps.listings import providers, search_cache

from . import selectors
from .models import Booking, Occupancy
from .policies import HOLDING_STATUSES
from .signals import booking_status_changed
from .times import LOCAL_TZ


def booked_between(start: dt.date, end: dt.date):
    """Listings fully booked over the local days ``start`` to ``end``."""
    return selectors.listings_booked_between(
        dt.datetime.combine(start, dt.time(0), tzinfo=LOCAL_TZ),
        dt.datetime.combine(end + dt.timedelta(days=1), dt.time(0), tzinfo=LOCAL_TZ),
    )


def upcoming_bookings(listing_id):
    return selectors.listing_upcoming_bookings(listing_id=listing_id)


providers.provide("booked_between", booked_between)
providers.provide("upcoming_bookings", upcoming_bookings)


def time_held(sender, *, created: bool, raw: bool = False, **kwargs) -> None:
    """Time held on a space changes the answers of the public search with dates."""
    if created and not raw:
        search_cache.dates_changed()


post_save.connect(time_held, sender=Occupancy, dispatch_uid="search-dates-time-held")


def time_released(sender, *, from_status: str, to_status: str, **kwargs) -> None:
    """A booking that stops holding its time (rejected, cancelled, expired) frees dates in the search."""
    if from_status in HOLDING_STATUSES and to_status not in HOLDING_STATUSES:
        search_cache.dates_changed()


booking_status_changed.connect(time_released, sender=Booking, dispatch_uid="search-dates-time-released")
