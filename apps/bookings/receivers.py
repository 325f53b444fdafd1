"""What the bookings app answers to the apps below it (the listings app's providers registry)."""

import datetime as dt

from django.db.models import Q
from django.db.models.signals import post_save

from apps.listings import providers, search_cache
from apps.listings.models import Listing

from . import selectors
from .models import Booking, Occupancy
from .policies import HOLDING_STATUSES
from .signals import booking_status_changed
from .times import zone_of


def booked_between(start: dt.date, end: dt.date):
    """Listings fully booked over the days ``start`` to ``end``, each read in its listing's own time
    zone (a Mumbai space's 1 June is Mumbai's). One subquery per zone in use, OR-ed together."""
    condition = Q(pk__in=[])
    for name in Listing.objects.order_by().values_list("time_zone", flat=True).distinct():
        tz = zone_of(name)
        booked = selectors.listings_booked_between(
            dt.datetime.combine(start, dt.time(0), tzinfo=tz),
            dt.datetime.combine(end + dt.timedelta(days=1), dt.time(0), tzinfo=tz),
        )
        condition |= Q(time_zone=name, pk__in=booked)
    return Listing.objects.filter(condition).values_list("pk", flat=True)


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
