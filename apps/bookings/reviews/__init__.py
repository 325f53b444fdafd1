"""Reviews after a completed booking, both ways, double-blind.

The renter reviews the space (``Review``) and the host reviews the renter (``RenterReview``).
Neither side sees the other's review before writing its own: both are revealed together when the
second one is written, or when the review period (``REVIEW_PERIOD`` after check-out) ends, whatever
was written by then. After the period nobody can add a review. A renter's review also waits for a
moderator when the review settings say so (``is_published``). The listing's rating counts only
reviews that are both published and revealed.

Package layout: ``services`` (writes), ``selectors`` (reads), ``policies`` (who may moderate),
``serializers``, ``views`` and ``urls``; the review rules shared with bookings (the period, who may
write or reply) stay in ``apps.bookings.policies``, and the models in ``apps.bookings.models`` (a
review belongs to a booking).
"""
