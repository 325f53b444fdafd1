"""Which roles reach each back-office area: the one table of it.

A back-office area is a queue that someone works through (payout requests, listing reviews,
verification requests, booking and dispute requests). The dashboard's routes and sidebar, the
menu counters (``notifications.counters``) and the API's role gates (``core.permissions``) and
services all read ``reaches``, so "payout requests are admin-only" is written once, here.
Which rows of an area a role sees (its own, or everyone's) is still the selectors' business.
"""

from enum import StrEnum

from .roles import HOST_SIDE_ROLES, STAFF_ROLES, Role


class Area(StrEnum):
    PAYOUT_REQUESTS = "payoutRequests"
    LISTING_REVIEWS = "listingReviews"
    VERIFICATION_REQUESTS = "verificationRequests"
    BOOKING_REQUESTS = "bookingRequests"
    OTHER_REQUESTS = "otherRequests"
    DISPUTE_REQUESTS = "disputeRequests"
    STUCK_EFFECTS = "stuckEffects"


BACK_OFFICE: dict[Area, frozenset[str]] = {
    # Payouts are decided by the admin alone: moderators do not touch money.
    Area.PAYOUT_REQUESTS: frozenset({Role.ADMIN}),
    # New listings and edits wait for an admin or a moderator.
    Area.LISTING_REVIEWS: frozenset(STAFF_ROLES),
    Area.VERIFICATION_REQUESTS: frozenset(STAFF_ROLES),
    # A host and its subHosts answer the booking requests and see the edits waiting for review.
    Area.BOOKING_REQUESTS: frozenset(HOST_SIDE_ROLES),
    Area.OTHER_REQUESTS: frozenset(HOST_SIDE_ROLES),
    # Open disputes: staff decide them, the host side answers them.
    Area.DISPUTE_REQUESTS: frozenset({*STAFF_ROLES, *HOST_SIDE_ROLES}),
    # Effects (captures, refunds, mail) that keep failing.
    Area.STUCK_EFFECTS: frozenset({Role.ADMIN}),
}


def area_roles(area: Area) -> frozenset[str]:
    return BACK_OFFICE[area]


def reaches(user, area: Area) -> bool:
    """True when ``user`` (or a role name) works in ``area``."""
    role = user if isinstance(user, str) else getattr(user, "role", None)
    return role in BACK_OFFICE[area]
