"""What the Dashboard page (spec 2.4) shows each role.

Admin and moderator see the platform's numbers and widgets; money (revenue, payout requests) is the
admin's alone, as in the statistics API. Hosts, subHosts and renters see their own numbers, and
everyone but the moderator their recent invoices.
"""

from apps.accounts.models import HOST_SIDE_ROLES, Role
from apps.core.roles import STAFF_ROLES
from apps.listings.models import Listing

PLATFORM_WIDGETS = (
    "totalUsers",
    "highDemandLocations",
    "highDemandAmenities",
    "geoChart",
    "popularHosts",
    "popularSpaces",
    "recentRequests",
    "recentBookings",
    "recentListings",
    "newReservations",
)


def dashboard_widgets(user) -> list[str]:
    """The platform widgets, in page order; none for a role outside the staff."""
    if user.role == Role.ADMIN:
        return ["revenue", *PLATFORM_WIDGETS, "payoutRequests"]
    if user.role == Role.MODERATOR:
        return list(PLATFORM_WIDGETS)
    return []


def dashboard_props(user) -> dict:
    host_side = user.role in HOST_SIDE_ROLES
    return {
        "widgets": dashboard_widgets(user),
        # Staff cards count the platform (Total Revenue for the admin, Total Bookings for the moderator).
        "platformNumbers": user.role in STAFF_ROLES,
        "seesInvoices": user.role != Role.MODERATOR,
        # The money card: what renters paid is the host's income, and the renter's own spending.
        "moneyLabel": "Total earnings" if host_side else "Total rent paid",
        # A host side with no listing yet is shown the way to its first one.
        "firstListing": host_side
        and not Listing.objects.filter(host_id=user.acting_host_id, is_deleted=False).exists(),
    }
