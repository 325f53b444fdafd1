"""Dashboard statistics API (spec section 7, dashboard calls) as one declared table of widgets.

Each widget is a row of ``WIDGETS``: its path, who may call it, its OpenAPI description and how it
answers (an aggregate from ``snapshots.answer``: live for renters and hosts, precomputed for the
platform; or a page of the newest rows from a selector). One view class serves every row: a new
widget is a new row (and, for a new aggregate, a ``snapshots`` entry).
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.models import Role
from apps.core.api import ERROR_ENVELOPE, PAGE_SIZE, envelope, enveloped, enveloped_page, page_response, paginate
from apps.core.exceptions import InvalidInput
from apps.core.permissions import AdminOnly, AdminOrModerator, AnyRole, NotRenter, role_permission
from apps.payments.selectors import invoices_visible_to
from apps.payments.serializers import InvoiceSerializer, PayoutSerializer

from . import intervals, selectors, snapshots
from .serializers import (
    AvailabilityPeriodSerializer,
    BookingRowSerializer,
    DashboardNumbersSerializer,
    GeoChartSerializer,
    HighDemandAmenitySerializer,
    HighDemandLocationSerializer,
    ListingRowSerializer,
    PopularHostSerializer,
    PopularSpaceSerializer,
    RevenuePeriodSerializer,
    TotalUsersSerializer,
    TypedPeriodSerializer,
)

ERRORS = dict.fromkeys((400, 401, 403), ERROR_ENVELOPE)
TAGS = ["dashboard"]
SeesMoney = role_permission("SeesMoney", *selectors.MONEY_ROLES)
SeesRevenue = role_permission("SeesRevenue", Role.ADMIN, Role.HOST, Role.SUB_HOST)

INTERVAL_DOC = (
    "week: this week, Sunday to Saturday; month: this year, January to December; year: the last 10 years. "
    "Periods are days, months and years in America/New_York."
)
PAGE_PARAMS = [
    OpenApiParameter("page", OpenApiTypes.INT, description="Page, from 1 (newest first)."),
    OpenApiParameter("limit", OpenApiTypes.INT, description="Rows per page, at most 10."),
]


def _choice(value: str | None, allowed, name: str, message: str) -> str:
    if value not in allowed:
        raise InvalidInput(message, errors={name: [message]})
    return value


def _whole(request, name: str, default: int) -> int:
    raw = request.query_params.get(name) or str(default)
    if not raw.isdigit() or int(raw) < 1 or len(raw) > 6:
        message = f"{name} must be a whole number, 1 or more."
        raise InvalidInput(message, errors={name: [message]})
    return int(raw)


def _recent_page(request, queryset, serializer_class, key: str):
    """A page of the newest rows with ``hasMore`` instead of a total: counting a million bookings
    costs more than the page itself, and the full lists (bookings, listings) carry their counts."""
    page, limit = _whole(request, "page", 1), min(_whole(request, "limit", PAGE_SIZE), PAGE_SIZE)
    start = (page - 1) * limit
    rows = list(queryset[start : start + limit + 1])
    data = serializer_class(rows[:limit], many=True).data
    return envelope({key: data, "page": page, "limit": limit, "hasMore": len(rows) > limit})


def recent_page_schema(name: str, key: str, item_serializer: type):
    return enveloped(
        name,
        inline_serializer(
            f"{name}Data",
            {
                key: item_serializer(many=True),
                "page": serializers.IntegerField(),
                "limit": serializers.IntegerField(),
                "hasMore": serializers.BooleanField(help_text="Whether older rows follow."),
            },
        ),
    )


# --- How a widget answers ------------------------------------------------------------------------

Answer = Callable[..., Response]


def aggregate(key: str) -> Answer:
    """A precomputed (platform) or live (own) aggregate; an ``interval`` in the path is checked first."""

    def answer(request: Request, interval: str | None = None) -> Response:
        if interval is None:
            return envelope(snapshots.answer(request.user, key))
        return envelope(snapshots.answer(request.user, key, interval=intervals.check_interval(interval)))

    return answer


def newest(selector: Callable, serializer_class: type, key: str) -> Answer:
    """A page of the newest rows the caller may see (``selector(user=...)``)."""

    def answer(request: Request) -> Response:
        return _recent_page(request, selector(user=request.user), serializer_class, key)

    return answer


def revenue(request: Request) -> Response:
    interval = intervals.check_interval(request.query_params.get("interval") or "month")
    property_type = request.query_params.get("propertyType") or "all"
    _choice(
        property_type,
        ("all", *selectors.PROPERTY_TYPES),
        "propertyType",
        "propertyType must be all, eventSpace or officeSpace.",
    )
    data = snapshots.answer(request.user, "revenue-statistics", interval=interval, property_type=property_type)
    return envelope(data)


def payment_invoices(request: Request) -> Response:
    invoices = invoices_visible_to(request.user).order_by("-issued_at", "-sequence")
    return page_response(paginate(request, invoices), InvoiceSerializer, "invoices", context={"user": request.user})


def payout_requests(request: Request, status: str) -> Response:
    _choice(status, selectors.PAYOUT_STATUSES, "status", "Status must be all, onhold, released or failed.")
    payouts, total = selectors.payout_requests(status=status)
    return page_response(paginate(request, payouts), PayoutSerializer, "payouts", totalAmount=str(total))


def high_demand_amenities(request: Request, property_type: str) -> Response:
    _choice(
        property_type,
        selectors.AMENITY_SCOPES,
        "propertyType",
        "Property type must be all, eventSpace or officeSpace.",
    )
    return envelope(snapshots.answer(request.user, "high-demand-amenities", property_type=property_type))


# --- The table -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Widget:
    """One dashboard call: ``path`` under /api/dashboard/, its URL ``name``, who may call it, how it
    answers and its OpenAPI operation (``schema``: the ``extend_schema`` arguments besides the tag)."""

    path: str
    name: str
    permission: type[BasePermission]
    answer: Answer
    schema: dict = field(default_factory=dict)


def _recent(name: str, key: str, item_serializer: type, summary: str) -> dict:
    return {
        "summary": summary,
        "parameters": PAGE_PARAMS,
        "responses": {200: recent_page_schema(name, key, item_serializer), **ERRORS},
    }


WIDGETS: tuple[Widget, ...] = (
    Widget(
        "get-dashboard-numbers/<str:interval>",
        "numbers",
        AnyRole,
        aggregate("get-dashboard-numbers"),
        {
            "summary": "Stat cards for this week, month or year",
            "description": "Renter: its own bookings and payments; host and subHost: their listings'; admin and "
            "moderator: the platform's, plus eventSpaceCount, workSpaceCount and totalUsers. totalRentPaid is "
            "absent for a moderator; totalRevenue is given to the admin only.",
            "responses": {200: enveloped("DashboardNumbersResponse", DashboardNumbersSerializer()), **ERRORS},
        },
    ),
    Widget(
        "property-statistics/<str:interval>",
        "property",
        AnyRole,
        aggregate("property-statistics"),
        {
            "summary": "Bookings per period by property type (the Statistic overview chart)",
            "description": f"{INTERVAL_DOC} One entry per period, oldest first, each counting the booking "
            "requests made in it, per property type of the listing.",
            "responses": {
                200: enveloped("PropertyStatisticsResponse", TypedPeriodSerializer(many=True)),
                **ERRORS,
            },
        },
    ),
    Widget(
        "availability-statistics/<str:interval>",
        "availability",
        NotRenter,
        aggregate("availability-statistics"),
        {
            "summary": "Occupied and available spaces per period",
            "description": INTERVAL_DOC,
            "responses": {
                200: enveloped("AvailabilityStatisticsResponse", AvailabilityPeriodSerializer(many=True)),
                **ERRORS,
            },
        },
    ),
    Widget(
        "total-users",
        "total-users",
        AdminOrModerator,
        aggregate("total-users"),
        {
            "summary": "Accounts by role (not deleted)",
            "responses": {200: enveloped("TotalUsersResponse", TotalUsersSerializer()), **ERRORS},
        },
    ),
    Widget(
        "revenue-statistics",
        "revenue",
        SeesRevenue,
        revenue,
        {
            "summary": "Revenue and commission per period",
            "description": f"{INTERVAL_DOC} Admin: the platform; host and subHost: their listings.",
            "parameters": [
                OpenApiParameter("propertyType", OpenApiTypes.STR, enum=["all", "eventSpace", "officeSpace"]),
                OpenApiParameter(
                    "interval", OpenApiTypes.STR, enum=list(intervals.INTERVALS), description="Default month."
                ),
            ],
            "responses": {200: enveloped("RevenueStatisticsResponse", RevenuePeriodSerializer(many=True)), **ERRORS},
        },
    ),
    Widget(
        "listing-statistics/<str:interval>",
        "listing",
        NotRenter,
        aggregate("listing-statistics"),
        {
            "summary": "Listings added per period by property type",
            "description": INTERVAL_DOC,
            "responses": {200: enveloped("ListingStatisticsResponse", TypedPeriodSerializer(many=True)), **ERRORS},
        },
    ),
    Widget(
        "popular-hosts",
        "popular-hosts",
        AdminOrModerator,
        aggregate("popular-hosts"),
        {
            "summary": "The 10 hosts with the most confirmed bookings",
            "responses": {200: enveloped("PopularHostsResponse", PopularHostSerializer(many=True)), **ERRORS},
        },
    ),
    Widget(
        "recent-requests",
        "recent-requests",
        NotRenter,
        newest(selectors.recent_requests, BookingRowSerializer, "requests"),
        _recent("RecentRequests", "requests", BookingRowSerializer, "Newest booking requests waiting for the host"),
    ),
    Widget(
        "recent-bookings",
        "recent-bookings",
        AnyRole,
        newest(selectors.recent_bookings, BookingRowSerializer, "bookings"),
        _recent("RecentBookings", "bookings", BookingRowSerializer, "Newest bookings, any status"),
    ),
    Widget(
        "payment-invoices",
        "payment-invoices",
        SeesMoney,
        payment_invoices,
        {
            "summary": "Newest invoices and credit notes (the Recent invoices table)",
            "description": "Renter: its own; host and subHost: their listings'; admin: all. Not for moderator.",
            "parameters": PAGE_PARAMS,
            "responses": {200: enveloped_page("PaymentInvoices", "invoices", InvoiceSerializer), **ERRORS},
        },
    ),
    Widget(
        "payout-requests/<str:status>",
        "payout-requests",
        AdminOnly,
        payout_requests,
        {
            "summary": "Newest payout requests with a status (all, onhold, released, failed)",
            "parameters": [
                OpenApiParameter("status", str, OpenApiParameter.PATH, enum=list(selectors.PAYOUT_STATUSES)),
                *PAGE_PARAMS,
            ],
            "responses": {
                200: enveloped_page(
                    "PayoutRequests",
                    "payouts",
                    PayoutSerializer,
                    extra={
                        "totalAmount": serializers.DecimalField(
                            max_digits=14, decimal_places=2, help_text="The sum of every payout with this status."
                        )
                    },
                ),
                **ERRORS,
            },
        },
    ),
    Widget(
        "popular-spaces",
        "popular-spaces",
        NotRenter,
        aggregate("popular-spaces"),
        {
            "summary": "The 10 spaces with the most confirmed bookings",
            "responses": {200: enveloped("PopularSpacesResponse", PopularSpaceSerializer(many=True)), **ERRORS},
        },
    ),
    Widget(
        "new-reservations",
        "new-reservations",
        NotRenter,
        newest(selectors.new_reservations, BookingRowSerializer, "reservations"),
        _recent(
            "NewReservations",
            "reservations",
            BookingRowSerializer,
            "Newest confirmed bookings still to come or under way",
        ),
    ),
    Widget(
        "recent-listings",
        "recent-listings",
        NotRenter,
        newest(selectors.recent_listings, ListingRowSerializer, "listings"),
        _recent("RecentListings", "listings", ListingRowSerializer, "Newest listings (not deleted)"),
    ),
    Widget(
        "cancelled-bookings",
        "cancelled-bookings",
        AnyRole,
        newest(selectors.cancelled_bookings, BookingRowSerializer, "bookings"),
        _recent("CancelledBookings", "bookings", BookingRowSerializer, "Newest cancelled bookings"),
    ),
    Widget(
        "high-demand-locations",
        "high-demand-locations",
        NotRenter,
        aggregate("high-demand-locations"),
        {
            "summary": "The 10 cities with the most confirmed bookings",
            "responses": {
                200: enveloped(
                    "HighDemandLocations",
                    inline_serializer(
                        "HighDemandLocationsData", {"highDemandLocations": HighDemandLocationSerializer(many=True)}
                    ),
                ),
                **ERRORS,
            },
        },
    ),
    Widget(
        "high-demand-amenities/<str:property_type>",
        "high-demand-amenities",
        NotRenter,
        high_demand_amenities,
        {
            "summary": "The 10 amenities of the most booked listings; the path names a property type or all",
            "responses": {
                200: enveloped(
                    "HighDemandAmenities",
                    inline_serializer(
                        "HighDemandAmenitiesData", {"highDemandAmenities": HighDemandAmenitySerializer(many=True)}
                    ),
                ),
                **ERRORS,
            },
        },
    ),
    Widget(
        "geo-chart",
        "geo-chart",
        NotRenter,
        aggregate("geo-chart"),
        {
            "summary": "Confirmed bookings per country, with progress bars",
            "responses": {200: enveloped("GeoChartResponse", GeoChartSerializer()), **ERRORS},
        },
    ),
)


# Answers one row of ``WIDGETS`` (a subclass per row carries its permission and OpenAPI operation).
# No docstring: the schema would show it as every widget's description.
class WidgetView(APIView):
    widget: Widget

    def get(self, request, **kwargs):
        return self.widget.answer(request, **kwargs)


def widget_view(widget: Widget):
    name = "".join(part.capitalize() for part in widget.name.split("-")) + "WidgetView"
    view = type(name, (WidgetView,), {"widget": widget, "permission_classes": [widget.permission]})
    return extend_schema(tags=TAGS, **widget.schema)(view).as_view()


def widget_urls() -> list:
    return [path(widget.path, widget_view(widget), name=widget.name) for widget in WIDGETS]
