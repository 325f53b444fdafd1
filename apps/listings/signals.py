"""What the listings app announces to the apps above it (bookings). Each app's receivers are
listed in its ``subscribers.py``.

- ``listing_withdrawing`` (``sender=Listing, listing, action``): sent inside the transaction before
  a listing is deactivated, deleted or moved to another time zone. A receiver refuses by raising a
  domain error (the bookings app refuses while renters hold upcoming bookings).
- ``dates_searched`` (``sender=Listing, start, end``): a public search for the local days ``start``
  to ``end``. Each receiver returns the ids of listings with no room left over those days (a
  queryset of ids), which the search leaves out.
"""

from django.dispatch import Signal

listing_withdrawing = Signal()
dates_searched = Signal()
