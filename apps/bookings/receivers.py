"""What the bookings app answers to the apps below it (the listings app's providers registry)."""

import datetime as dt

from django.db.models import Q

from apps.listings import providers
from apps.listings.models import Listing

from . import selectors
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
