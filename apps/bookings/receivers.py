"""What the bookings app answers to the apps below it (the listings app's providers registry)."""

import datetime as dt

from apps.listings import providers

from . import selectors
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
