"""The back-office access table (``apps.core.access``) is what the routes, the sidebar, the menu
counters and the API's role gates read: change a row there and all of them follow."""

import pytest

from apps.accounts.views_verification import VerificationStaff
from apps.core.access import BACK_OFFICE, Area, reaches
from apps.dashboard.navigation import ROUTES_BY_NAME, SIDEBAR, Entry, Group
from apps.listings.permissions import ReviewListings
from apps.notifications.counters import COUNTER_AREAS, COUNTER_ROLES
from apps.payments.views import PayoutDeciders

ROUTE_AREAS = {
    "payout-requests": Area.PAYOUT_REQUESTS,
    "booking-requests": Area.BOOKING_REQUESTS,
    "other-requests": Area.OTHER_REQUESTS,
    "dispute-requests": Area.DISPUTE_REQUESTS,
    "verificationRequest": Area.VERIFICATION_REQUESTS,
}


def _entries():
    for node in SIDEBAR:
        yield from node.children if isinstance(node, Group) else (node,)


@pytest.mark.parametrize(("route", "area"), ROUTE_AREAS.items())
def test_a_back_office_route_and_its_sidebar_entry_are_open_to_the_areas_roles(route, area):
    assert ROUTES_BY_NAME[route].roles == BACK_OFFICE[area]
    entries = [entry for entry in _entries() if isinstance(entry, Entry) and entry.route == route]
    assert entries and all(entry.roles == BACK_OFFICE[area] for entry in entries)


def test_every_counter_is_seen_by_the_roles_of_its_area():
    assert set(COUNTER_AREAS.values()) == set(Area)
    assert all(COUNTER_ROLES[name] == BACK_OFFICE[area] for name, area in COUNTER_AREAS.items())


@pytest.mark.parametrize(
    ("gate", "area"),
    [
        (PayoutDeciders, Area.PAYOUT_REQUESTS),
        (ReviewListings, Area.LISTING_REVIEWS),
        (VerificationStaff, Area.VERIFICATION_REQUESTS),
    ],
)
def test_the_api_gates_of_an_area_admit_its_roles(gate, area):
    assert gate.roles == BACK_OFFICE[area]


def test_payout_requests_are_the_admins_alone():
    assert [
        role for role in ("admin", "moderator", "host", "subHost", "renter") if reaches(role, Area.PAYOUT_REQUESTS)
    ] == ["admin"]
