"""Which island draws each page of the signed-in area, and its initial props.

A route missing here shows the "coming soon" panel. An app that builds a page adds a line.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest

from apps.accounts.policies import close_account_refusal, closing_notes, is_host_side, is_staff_role, sets_tax
from apps.bookings.policies import booking_side, booking_tabs
from apps.messaging.selectors import side_for_role
from apps.payments.policies import requests_payouts, sees_every_host, sees_payments, sees_payout_balance
from apps.premium.selectors import host_is_premium

from .policies import dashboard_props


@dataclass(frozen=True)
class Page:
    island: str
    props: Callable[[HttpRequest, dict], dict] = lambda request, kwargs: {}


def _with_id(request: HttpRequest, kwargs: dict) -> dict:
    return {"id": kwargs.get("id", "")}


def _query(*names: str) -> Callable[[HttpRequest, dict], dict]:
    """Props read from the query string (``/message?userId=``), cut short; the island checks them."""
    return lambda request, kwargs: {name: request.GET.get(name, "")[:64] for name in names}


def _listing_form(request: HttpRequest, *, mode: str, id: str) -> dict:
    """The listing form's props: the host's tax and premium standing, and the map tiles for the pin."""
    host_id = request.user.acting_host_id
    host = request.user.host if host_id and host_id != request.user.pk else request.user
    return {
        "mode": mode,
        "id": id,
        # Staff edit any host's listing through the moderation form, never the host's draft.
        "staff": is_staff_role(request.user),
        "hostTax": str(getattr(host, "tax", "0")) if host_id else "0",
        "isPremiumHost": bool(host_id) and host_is_premium(host_id),
        "tileUrl": settings.MAP_TILE_URL,
        "attribution": settings.MAP_TILE_ATTRIBUTION,
    }


def _bookings(request: HttpRequest, kwargs: dict, **props) -> dict:
    """The booking pages' props: the user's side of a booking (labels), the list's status tabs, and
    whether the detail loads the booking's payment record (the moderator sees no money)."""
    user = request.user
    return {**props, "side": booking_side(user), "tabs": booking_tabs(user), "seesPayment": sees_payments(user)}


def _disputes(request: HttpRequest, kwargs: dict, **props) -> dict:
    """The dispute pages' props: the user's side (the list's other-party column) and whether the user
    decides disputes (staff: the conversation and the decision form of the detail)."""
    return {**props, "side": booking_side(request.user), "staff": is_staff_role(request.user)}


def _listings(request: HttpRequest, kwargs: dict, **props) -> dict:
    """The listing pages' props: whether the user works on every listing (staff: Manage Listing, the
    Host column, reviews) or on its host's own (host side: Add new listing, the iCal link)."""
    return {**props, "staff": is_staff_role(request.user), "hostSide": is_host_side(request.user)}


def _settings(request: HttpRequest, kwargs: dict) -> dict:
    """What the General Settings page offers this user: the tax (host), the premium payment history
    (host side), closing the account (everyone but the admin) and what closing it does."""
    user = request.user
    return {
        "setsTax": sets_tax(user),
        "seesPremiumHistory": is_host_side(user),
        "closesAccount": close_account_refusal(user) is None,
        "closingNotes": closing_notes(user),
    }


def _payout(request: HttpRequest, kwargs: dict) -> dict:
    """What the Payout page offers this user: the request button, the balance, every host's rows."""
    user = request.user
    return {
        "view": "payout",
        "requestsPayouts": requests_payouts(user),
        "seesBalance": sees_payout_balance(user),
        "withHost": sees_every_host(user),
    }


PAGES: dict[str, Page] = {
    "dashboard": Page("DashboardHome", lambda request, kwargs: dashboard_props(request.user)),
    "booking": Page(
        "DashboardBookings", lambda request, kwargs: _bookings(request, kwargs, view="list", mode="bookings")
    ),
    "booking-requests": Page(
        "DashboardBookings", lambda request, kwargs: _bookings(request, kwargs, view="list", mode="requests")
    ),
    "booking-detail": Page(
        "DashboardBookings",
        lambda request, kwargs: _bookings(request, kwargs, view="detail", **_with_id(request, kwargs)),
    ),
    "booking-request-details": Page(
        "DashboardBookings",
        lambda request, kwargs: _bookings(request, kwargs, view="request", **_with_id(request, kwargs)),
    ),
    "listing": Page("DashboardListings", lambda request, kwargs: _listings(request, kwargs, view="list")),
    "listing-requests": Page("DashboardListings", lambda request, kwargs: _listings(request, kwargs, view="requests")),
    "other-requests": Page(
        "DashboardListings", lambda request, kwargs: _listings(request, kwargs, view="otherRequests")
    ),
    "listing-detail": Page(
        "DashboardListings",
        lambda request, kwargs: _listings(
            request,
            kwargs,
            view="detail",
            **_with_id(request, kwargs),
            requestId=request.GET.get("request", "")[:36],
        ),
    ),
    "add-new-listing": Page("DashboardListingForm", lambda request, kwargs: _listing_form(request, mode="add", id="")),
    "edit-listing": Page(
        "DashboardListingForm", lambda request, kwargs: _listing_form(request, mode="edit", **_with_id(request, kwargs))
    ),
    "manage-amenities": Page("DashboardAmenities"),
    "favourites": Page("DashboardFavourites"),
    "calender": Page("DashboardCalendar", lambda request, kwargs: {"hostSide": is_host_side(request.user)}),
    "invoices": Page("DashboardInvoices"),
    "payments": Page("DashboardPayments", lambda request, kwargs: {"withHost": sees_every_host(request.user)}),
    "payout": Page("DashboardPayout", _payout),
    "payout-requests": Page("DashboardPayout", lambda request, kwargs: {"view": "requests"}),
    "payment-details": Page("DashboardPaymentDetails", _query("paymentId", "bookingId")),
    "message": Page(
        "DashboardMessages",
        lambda request, kwargs: {
            # The side of a conversation the user speaks for (renter or host); staff (None) only read
            # a disputed booking's conversation from its dispute.
            "side": side_for_role(request.user),
            # ``userId`` is the signed-in user in every page's props: the one to talk to is ``withUserId``.
            "withUserId": request.GET.get("userId", "")[:64],
            # ``listingId``: a renter's question to the host before booking (the listing page's "Message host").
            **_query("conversationId", "bookingId", "listingId")(request, kwargs),
        },
    ),
    "notifications": Page("DashboardNotifications", _query("tab")),
    "disputes": Page(
        "DashboardDisputes", lambda request, kwargs: _disputes(request, kwargs, view="list", mode="disputes")
    ),
    "dispute-requests": Page(
        "DashboardDisputes", lambda request, kwargs: _disputes(request, kwargs, view="list", mode="requests")
    ),
    "dispute-payments": Page(
        "DashboardDisputes",
        lambda request, kwargs: _disputes(request, kwargs, view="detail", **_query("id")(request, kwargs)),
    ),
    # People and the back office
    "profile": Page("DashboardProfile", lambda request, kwargs: {"view": "profile"}),
    "profile-edit": Page("DashboardProfile", lambda request, kwargs: {"view": "edit"}),
    "general": Page("DashboardSettings", _settings),
    "hosts": Page("DashboardUsers", lambda request, kwargs: {"view": "list", "kind": "hosts"}),
    "renters": Page("DashboardUsers", lambda request, kwargs: {"view": "list", "kind": "renters"}),
    "sub-hosts": Page("DashboardUsers", lambda request, kwargs: {"view": "list", "kind": "subHosts"}),
    "moderators": Page("DashboardUsers", lambda request, kwargs: {"view": "list", "kind": "moderators"}),
    "addhost": Page("DashboardUsers", lambda request, kwargs: {"view": "add", "kind": "hosts"}),
    "add-subhost": Page("DashboardUsers", lambda request, kwargs: {"view": "add", "kind": "subHosts"}),
    "add-moderator": Page("DashboardUsers", lambda request, kwargs: {"view": "add", "kind": "moderators"}),
    "view-user": Page("DashboardUsers", lambda request, kwargs: {"view": "user", **_with_id(request, kwargs)}),
    "verificationRequest": Page("DashboardVerification"),
    "cms": Page("DashboardContent", lambda request, kwargs: {"view": "cms"}),
    "review-setting": Page("DashboardContent", lambda request, kwargs: {"view": "reviews"}),
}
