"""The signed-in area's routes and sidebar, in one table (spec sections 2.3 and 6).

``ROUTES`` says who may open each route; ``SIDEBAR`` says what the menu shows to whom. The page
views, the sidebar template and the tests all read these two tables, so they cannot disagree; the
front end draws the sidebar the server rendered and never keeps a copy of them.

Role groups are the ones spec section 6 names, plus the sidebar table's own role lists where a
route has a sidebar entry. ``OPEN`` routes have no role check at all (the spec's "open to any
signed-in user"); ``ALL`` is the group of every known role.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apps.accounts.models import Role
from apps.core.access import Area, area_roles
from apps.core.roles import HOST_SIDE_ROLES, STAFF_ROLES

ADMIN, MODERATOR, HOST, SUB_HOST, RENTER = (
    Role.ADMIN.value,
    Role.MODERATOR.value,
    Role.HOST.value,
    Role.SUB_HOST.value,
    Role.RENTER.value,
)
ROLES: tuple[str, ...] = (ADMIN, MODERATOR, HOST, SUB_HOST, RENTER)

# The role groups of spec section 6 (and the sidebar's single-role rows).
ALL = frozenset(ROLES)
STAFF = frozenset(STAFF_ROLES)
RENTER_ONLY = frozenset({RENTER})
STAFF_AND_HOSTS = frozenset({*STAFF_ROLES, *HOST_SIDE_ROLES})
HOSTS = frozenset(HOST_SIDE_ROLES)
HOST_ONLY = frozenset({HOST})
ADMIN_ONLY = frozenset({ADMIN})
ADMIN_AND_HOSTS = frozenset({ADMIN, HOST, SUB_HOST})
PAYING = frozenset({ADMIN, HOST, RENTER, SUB_HOST})
NOBODY: frozenset[str] = frozenset()
OPEN = None  # no role check: any signed-in user

# The back-office queues: who reaches each is ``apps.core.access``'s table, read here for the route
# and its sidebar entry alike (and by the menu counters and the API's role gates).
PAYOUT_REQUESTS = area_roles(Area.PAYOUT_REQUESTS)
BOOKING_REQUESTS = area_roles(Area.BOOKING_REQUESTS)
OTHER_REQUESTS = area_roles(Area.OTHER_REQUESTS)
DISPUTE_REQUESTS = area_roles(Area.DISPUTE_REQUESTS)
VERIFICATION_REQUESTS = area_roles(Area.VERIFICATION_REQUESTS)


@dataclass(frozen=True)
class Route:
    """A page of the signed-in area. ``path`` uses ``<id>`` for the one variable part."""

    name: str
    path: str
    title: str
    roles: frozenset[str] | None

    def allows(self, role: str) -> bool:
        if self.name in HIDDEN_ROUTES.get(role, ()):
            return False
        return self.roles is None or role in self.roles

    @property
    def pattern(self) -> str:
        return self.path.replace("<id>", "<str:id>")


ROUTES: tuple[Route, ...] = (
    Route("dashboard", "dashboard", "Dashboard", OPEN),
    Route("listing", "listing", "Listings", STAFF_AND_HOSTS),
    Route("listing-requests", "listing-requests", "Listing Requests", STAFF_AND_HOSTS),
    Route("other-requests", "other-requests", "Other Requests", OTHER_REQUESTS),
    Route("listing-detail", "listing-detail/<id>", "Listing", OPEN),
    Route("edit-listing", "edit-listing/<id>", "Edit Listing", STAFF_AND_HOSTS),
    Route("add-new-listing", "add-new-listing", "Add New Listing", HOSTS),
    Route("booking", "booking", "Bookings", ALL),
    Route("booking-requests", "booking-requests", "Booking Requests", BOOKING_REQUESTS),
    Route("booking-detail", "booking-detail/<id>", "Booking Detail", OPEN),
    Route("booking-request-details", "booking-request-details/<id>", "Reservation", STAFF_AND_HOSTS),
    Route("payments", "payments", "Payments", ADMIN_AND_HOSTS),
    Route("payout-requests", "payout-requests", "Payout Requests", PAYOUT_REQUESTS),
    Route("payout", "payout", "Payout", ADMIN_AND_HOSTS),
    Route("payment-details", "payment-details", "Payment Details", ADMIN_AND_HOSTS),
    Route("invoices", "invoices", "Invoices", PAYING),
    Route("disputes", "disputes", "Disputes", ALL),
    Route("dispute-requests", "dispute-requests", "Dispute Requests", DISPUTE_REQUESTS),
    Route("dispute-payments", "dispute-payments", "Dispute", OPEN),
    Route("hosts", "hosts", "Hosts", STAFF),
    Route("addhost", "addhost", "Add Host", STAFF),
    Route("add-subhost", "add-subhost", "Add Sub Host", HOST_ONLY),
    Route("sub-hosts", "sub-hosts", "Sub Hosts", HOST_ONLY),
    Route("view-user", "view-user/<id>", "User", OPEN),
    Route("verificationRequest", "verificationRequest", "Verification Requests", VERIFICATION_REQUESTS),
    Route("renters", "renters", "Renters", STAFF_AND_HOSTS),
    Route("moderators", "moderators", "Moderators", ADMIN_ONLY),
    Route("add-moderator", "add-moderator", "Add Moderator", ADMIN_ONLY),
    Route("cms", "cms", "CMS Pages", STAFF),
    Route("message", "message", "Message", ALL),
    Route("profile", "profile", "Information", ALL),
    Route("profile-edit", "profile/edit", "Edit Profile", OPEN),
    Route("general", "general", "General Settings", ALL),
    Route("favourites", "favourites", "Favourites", RENTER_ONLY),
    Route("review-setting", "review-setting", "Reviews Settings", STAFF),
    Route("manage-amenities", "manage-amenities", "Manage Amenities", STAFF),
    Route("search-listing", "search-listing", "Search Listing", NOBODY),
    Route("notifications", "notifications", "Notifications", ALL),
    Route("calender", "calender", "My Calender", ALL),
)
ROUTES_BY_NAME: dict[str, Route] = {route.name: route for route in ROUTES}


@dataclass(frozen=True)
class Entry:
    """A sidebar link. ``counter`` names a pending counter (or ``messages`` for chat)."""

    label: str
    route: str
    roles: frozenset[str]
    counter: str | None = None
    icon: str = "dot"

    @property
    def href(self) -> str:
        return "/" + ROUTES_BY_NAME[self.route].path


@dataclass(frozen=True)
class Group:
    """A collapsible sidebar group. ``labels`` overrides the label per role."""

    key: str
    label: str
    roles: frozenset[str]
    children: tuple[Entry, ...]
    labels: dict[str, str] = field(default_factory=dict)
    icon: str = "dot"

    def label_for(self, role: str) -> str:
        return self.labels.get(role, self.label)


SIDEBAR: tuple[Entry | Group, ...] = (
    Entry("Dashboards", "dashboard", ALL, icon="home"),
    Group(
        "profile",
        "Profile",
        ALL,
        (
            Entry("Information", "profile", ALL),
            Entry("General Settings", "general", ALL),
            Entry("CMS Pages", "cms", STAFF),
            Entry("Reviews Settings", "review-setting", STAFF),
        ),
        icon="user",
    ),
    Entry("Manage Amenities", "manage-amenities", STAFF, icon="star"),
    Group(
        "listing",
        "My Listing",
        STAFF_AND_HOSTS,
        (
            Entry("Listings", "listing", ALL),
            Entry("Listing Requests", "listing-requests", STAFF_AND_HOSTS, counter="pendingListings"),
            Entry("Other Requests", "other-requests", OTHER_REQUESTS, counter="otherRequests"),
        ),
        labels={ADMIN: "Manage Listing"},
        icon="building",
    ),
    Group(
        "booking",
        "Manage Booking",
        ALL,
        (
            Entry("Bookings", "booking", ALL),
            Entry("Booking Requests", "booking-requests", BOOKING_REQUESTS, counter="pendingBookings"),
        ),
        labels={RENTER: "My Booking"},
        icon="calendar",
    ),
    Entry("Message", "message", ALL, counter="messages", icon="chat"),
    Group(
        "payments",
        "Payments",
        PAYING,
        (
            Entry("Invoices", "invoices", PAYING),
            Entry("Payments", "payments", ADMIN_AND_HOSTS),
            Entry("Payout", "payout", ADMIN_AND_HOSTS),
            Entry("Payout Requests", "payout-requests", PAYOUT_REQUESTS, counter="payoutRequests"),
        ),
        icon="card",
    ),
    Entry("Favourites", "favourites", RENTER_ONLY, icon="heart"),
    Entry("My Calender", "calender", ALL, icon="calendar"),
    Group(
        "disputes",
        "Disputes",
        ALL,
        (
            Entry("Disputes", "disputes", ALL),
            Entry("Dispute Requests", "dispute-requests", DISPUTE_REQUESTS, counter="pendingDisputes"),
        ),
        icon="flag",
    ),
    Group(
        "users",
        "Users",
        STAFF_AND_HOSTS,
        (
            Entry("Hosts", "hosts", STAFF),
            Entry("Renters", "renters", STAFF_AND_HOSTS),
            Entry(
                "Verification Requests",
                "verificationRequest",
                VERIFICATION_REQUESTS,
                counter="pendingVerificationRequest",
            ),
            Entry("Sub Hosts", "sub-hosts", HOST_ONLY),
        ),
        icon="users",
    ),
    Entry("Moderators", "moderators", ADMIN_ONLY, icon="shield"),
    Entry("Search Listing", "search-listing", NOBODY),  # the hidden entry: no role sees it
)


# "SubHost users do not see the Payments and Disputes groups" (spec 2.3), whatever their rows say;
# nor do they open those groups' pages, the payment details or a dispute (the API refuses them the
# host's money and disputes: docs/security.md "Round two"), and see their dashboard instead.
HIDDEN_GROUPS: dict[str, frozenset[str]] = {SUB_HOST: frozenset({"payments", "disputes"})}
HIDDEN_ROUTES: dict[str, frozenset[str]] = {
    SUB_HOST: frozenset(
        {"invoices", "payments", "payout", "payment-details", "disputes", "dispute-requests", "dispute-payments"}
    )
}


def route_for_path(path: str) -> Route | None:
    """The route a URL path (``/booking-detail/123``) belongs to, or None."""
    path = path.strip("/")
    for route in ROUTES:
        regex = "^" + re.escape(route.path).replace(re.escape("<id>"), "[^/]+") + "$"
        if re.match(regex, path):
            return route
    return None


def counter_text(value: int | None) -> str:
    """What a menu counter shows: nothing for 0, the number up to 9, then ``9+``."""
    if not value or value <= 0:
        return ""
    return "9+" if value > 9 else str(value)


def short_name(name: str) -> str:
    """The sidebar user name: at most 6 characters, then two dots when it was longer."""
    name = (name or "").strip()
    return name[:6] + ".." if len(name) > 6 else name


def sidebar_for(role: str, current_path: str = "", counters: dict[str, int] | None = None) -> list[dict]:
    """The menu a role sees, ready for the template: groups open when the current route is a child."""
    counters = counters or {}
    current = route_for_path(current_path)
    current_name = current.name if current else None

    def item(entry: Entry) -> dict:
        value = counters.get(entry.counter, 0) if entry.counter else 0
        return {
            "label": entry.label,
            "route": entry.route,
            "href": entry.href,
            "icon": entry.icon,
            "counter": entry.counter,
            "count": value,
            "countText": counter_text(value),
            "active": entry.route == current_name,
        }

    menu: list[dict] = []
    for node in SIDEBAR:
        if isinstance(node, Entry):
            if role in node.roles:
                menu.append({"kind": "entry", **item(node)})
            continue
        if role not in node.roles or node.key in HIDDEN_GROUPS.get(role, ()):
            continue
        children = [item(child) for child in node.children if role in child.roles]
        if not children:
            continue
        total = sum(child["count"] for child in children)
        menu.append(
            {
                "kind": "group",
                "key": node.key,
                "label": node.label_for(role),
                "icon": node.icon,
                "children": children,
                "open": any(child["active"] for child in children),
                "count": total,
                "countText": counter_text(total),
                "counters": [child["counter"] for child in children if child["counter"]],
            }
        )
    return menu
