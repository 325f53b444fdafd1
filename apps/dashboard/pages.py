"""Which island draws each page of the signed-in area, and its initial props.

A route missing here shows the "coming soon" panel. An app that builds a page adds a line.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest


@dataclass(frozen=True)
class Page:
    island: str
    props: Callable[[HttpRequest, dict], dict] = lambda request, kwargs: {}


def _with_id(request: HttpRequest, kwargs: dict) -> dict:
    return {"id": kwargs.get("id", "")}


PAGES: dict[str, Page] = {
    "dashboard": Page("DashboardHome"),
    "booking": Page("DashboardBookings", lambda request, kwargs: {"view": "list", "mode": "bookings"}),
    "booking-requests": Page("DashboardBookings", lambda request, kwargs: {"view": "list", "mode": "requests"}),
    "booking-detail": Page(
        "DashboardBookings", lambda request, kwargs: {"view": "detail", **_with_id(request, kwargs)}
    ),
    "booking-request-details": Page(
        "DashboardBookings", lambda request, kwargs: {"view": "request", **_with_id(request, kwargs)}
    ),
    "invoices": Page("DashboardInvoices"),
    "payments": Page("DashboardPayments"),
    "payout": Page("DashboardPayout", lambda request, kwargs: {"view": "payout"}),
    "payout-requests": Page("DashboardPayout", lambda request, kwargs: {"view": "requests"}),
    # People and the back office
    "profile": Page("DashboardProfile", lambda request, kwargs: {"view": "profile"}),
    "profile-edit": Page("DashboardProfile", lambda request, kwargs: {"view": "edit"}),
    "general": Page("DashboardSettings"),
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
