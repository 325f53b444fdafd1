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
}
