"""Writes of the bookings app, one module per seam:

- ``planning``: the listing's rules checked and the time priced (quotes, requests, extensions);
- ``availability``: holding a space's time (occupancy rows, seat counts);
- ``lifecycle``: the request, the host's answer, disputes, time-driven changes (every status change
  goes through ``lifecycle.booking_transition``);
- ``cancellation``: cancellations by the renter and by the host;
- ``extensions``: extra time after check-out, its answer and its payment;
- ``payment``: where the booking's payment stands, recorded by the payments app.

Reviews have their own package, ``apps.bookings.reviews``.

The names other apps and the views call are importable from here (``services.booking_request``).
"""

from .availability import (
    CALENDAR_CONFLICT,
    SEATS_CONFLICT,
    SLOT_CONFLICT,
    hold_range,
    listing_time_lock,
    occupancy_hold,
    plan_time_free,
    seats_taken,
)
from .cancellation import booking_cancel_by_host, booking_cancel_by_renter, refund_amount_for
from .extensions import (
    booking_recompute_totals,
    extension_mark_paid,
    extension_plan,
    extension_request,
    extension_update_status,
)
from .lifecycle import (
    REQUEST_TTL,
    UNPAID_REASON,
    booking_expire,
    booking_expire_unpaid,
    booking_mark_disputed,
    booking_request,
    booking_request_paid,
    booking_resolve_dispute,
    booking_update_status,
    bookings_complete_due,
    bookings_expire_due,
    bookings_start_due,
)
from .payment import booking_payment_record
from .planning import (
    MAX_ADD_ONS,
    MAX_BOOKING_DAYS,
    BookingPlan,
    bookable_listing,
    booking_plan,
    check_notice_and_window,
    percentages_for,
    rates_for,
)

__all__ = [
    "CALENDAR_CONFLICT",
    "MAX_ADD_ONS",
    "MAX_BOOKING_DAYS",
    "REQUEST_TTL",
    "SEATS_CONFLICT",
    "SLOT_CONFLICT",
    "UNPAID_REASON",
    "BookingPlan",
    "bookable_listing",
    "booking_cancel_by_host",
    "booking_cancel_by_renter",
    "booking_expire",
    "booking_expire_unpaid",
    "booking_mark_disputed",
    "booking_payment_record",
    "booking_plan",
    "booking_recompute_totals",
    "booking_request",
    "booking_request_paid",
    "booking_resolve_dispute",
    "booking_update_status",
    "bookings_complete_due",
    "bookings_expire_due",
    "bookings_start_due",
    "check_notice_and_window",
    "extension_mark_paid",
    "extension_plan",
    "extension_request",
    "extension_update_status",
    "hold_range",
    "listing_time_lock",
    "occupancy_hold",
    "percentages_for",
    "plan_time_free",
    "rates_for",
    "refund_amount_for",
    "seats_taken",
]
