"""Dashboard statistics API (spec section 7, dashboard calls). Views stay thin: check the input,
then answer from a selector (lists) or from ``snapshots.answer`` (aggregates: live for renters and
hosts, precomputed for the platform)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
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


class DashboardNumbersView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        tags=TAGS,
        summary="Stat cards for this week, month or year",
        description="Renter: its own bookings and payments; host and subHost: their listings'; admin and "
        "moderator: the platform's, plus eventSpaceCount, workSpaceCount and totalUsers. totalRentPaid is "
        "absent for a moderator; totalRevenue is given to the admin only.",
        responses={200: enveloped("DashboardNumbersResponse", DashboardNumbersSerializer()), **ERRORS},
    )
    def get(self, request, interval):
        interval = intervals.check_interval(interval)
        return envelope(snapshots.answer(request.user, "get-dashboard-numbers", interval=interval))


class PropertyStatisticsView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        tags=TAGS,
        summary="Bookings per period by property type (the Statistic overview chart)",
        description=f"{INTERVAL_DOC} One entry per period, oldest first, each counting the booking "
        "requests made in it, per property type of the listing.",
        responses={200: enveloped("PropertyStatisticsResponse", TypedPeriodSerializer(many=True)), **ERRORS},
    )
    def get(self, request, interval):
        interval = intervals.check_interval(interval)
        return envelope(snapshots.answer(request.user, "property-statistics", interval=interval))


class AvailabilityStatisticsView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        tags=TAGS,
        summary="Occupied and available spaces per period",
        description=INTERVAL_DOC,
        responses={200: enveloped("AvailabilityStatisticsResponse", AvailabilityPeriodSerializer(many=True)), **ERRORS},
    )
    def get(self, request, interval):
        interval = intervals.check_interval(interval)
        return envelope(snapshots.answer(request.user, "availability-statistics", interval=interval))


class ListingStatisticsView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        tags=TAGS,
        summary="Listings added per period by property type",
        description=INTERVAL_DOC,
        responses={200: enveloped("ListingStatisticsResponse", TypedPeriodSerializer(many=True)), **ERRORS},
    )
    def get(self, request, interval):
        interval = intervals.check_interval(interval)
        return envelope(snapshots.answer(request.user, "listing-statistics", interval=interval))


class RevenueStatisticsView(APIView):
    permission_classes = [SeesRevenue]

    @extend_schema(
        tags=TAGS,
        summary="Revenue and commission per period",
        description=f"{INTERVAL_DOC} Admin: the platform; host and subHost: their listings.",
        parameters=[
            OpenApiParameter("propertyType", OpenApiTypes.STR, enum=["all", "eventSpace", "officeSpace"]),
            OpenApiParameter(
                "interval", OpenApiTypes.STR, enum=list(intervals.INTERVALS), description="Default month."
            ),
        ],
        responses={200: enveloped("RevenueStatisticsResponse", RevenuePeriodSerializer(many=True)), **ERRORS},
    )
    def get(self, request):
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


class TotalUsersView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(
        tags=TAGS,
        summary="Accounts by role (not deleted)",
        responses={200: enveloped("TotalUsersResponse", TotalUsersSerializer()), **ERRORS},
    )
    def get(self, request):
        return envelope(snapshots.answer(request.user, "total-users"))


class PopularHostsView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(
        tags=TAGS,
        summary="The 10 hosts with the most confirmed bookings",
        responses={200: enveloped("PopularHostsResponse", PopularHostSerializer(many=True)), **ERRORS},
    )
    def get(self, request):
        return envelope(snapshots.answer(request.user, "popular-hosts"))


class PopularSpacesView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        tags=TAGS,
        summary="The 10 spaces with the most confirmed bookings",
        responses={200: enveloped("PopularSpacesResponse", PopularSpaceSerializer(many=True)), **ERRORS},
    )
    def get(self, request):
        return envelope(snapshots.answer(request.user, "popular-spaces"))


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


def _booking_page(request, queryset, key: str):
    return _recent_page(request, queryset, BookingRowSerializer, key)


class RecentBookingsView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        tags=TAGS,
        summary="Newest bookings, any status",
        parameters=PAGE_PARAMS,
        responses={200: recent_page_schema("RecentBookings", "bookings", BookingRowSerializer), **ERRORS},
    )
    def get(self, request):
        return _booking_page(request, selectors.recent_bookings(user=request.user), "bookings")


class RecentRequestsView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        tags=TAGS,
        summary="Newest booking requests waiting for the host",
        parameters=PAGE_PARAMS,
        responses={200: recent_page_schema("RecentRequests", "requests", BookingRowSerializer), **ERRORS},
    )
    def get(self, request):
        return _booking_page(request, selectors.recent_requests(user=request.user), "requests")


class NewReservationsView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        tags=TAGS,
        summary="Newest confirmed bookings still to come or under way",
        parameters=PAGE_PARAMS,
        responses={200: recent_page_schema("NewReservations", "reservations", BookingRowSerializer), **ERRORS},
    )
    def get(self, request):
        return _booking_page(request, selectors.new_reservations(user=request.user), "reservations")


class CancelledBookingsView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        tags=TAGS,
        summary="Newest cancelled bookings",
        parameters=PAGE_PARAMS,
        responses={200: recent_page_schema("CancelledBookings", "bookings", BookingRowSerializer), **ERRORS},
    )
    def get(self, request):
        return _booking_page(request, selectors.cancelled_bookings(user=request.user), "bookings")


class RecentListingsView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        tags=TAGS,
        summary="Newest listings (not deleted)",
        parameters=PAGE_PARAMS,
        responses={200: recent_page_schema("RecentListings", "listings", ListingRowSerializer), **ERRORS},
    )
    def get(self, request):
        return _recent_page(request, selectors.recent_listings(user=request.user), ListingRowSerializer, "listings")


class PaymentInvoicesView(APIView):
    permission_classes = [SeesMoney]

    @extend_schema(
        tags=TAGS,
        summary="Newest invoices and credit notes (the Recent invoices table)",
        description="Renter: its own; host and subHost: their listings'; admin: all. Not for moderator.",
        parameters=PAGE_PARAMS,
        responses={200: enveloped_page("PaymentInvoices", "invoices", InvoiceSerializer), **ERRORS},
    )
    def get(self, request):
        invoices = invoices_visible_to(request.user).order_by("-issued_at", "-sequence")
        return page_response(paginate(request, invoices), InvoiceSerializer, "invoices", context={"user": request.user})


class PayoutRequestsView(APIView):
    permission_classes = [AdminOnly]

    @extend_schema(
        tags=TAGS,
        summary="Newest payout requests with a status (all, onhold, released, failed)",
        parameters=[
            OpenApiParameter("status", str, OpenApiParameter.PATH, enum=list(selectors.PAYOUT_STATUSES)),
            *PAGE_PARAMS,
        ],
        responses={
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
    )
    def get(self, request, status):
        _choice(status, selectors.PAYOUT_STATUSES, "status", "Status must be all, onhold, released or failed.")
        payouts, total = selectors.payout_requests(status=status)
        return page_response(paginate(request, payouts), PayoutSerializer, "payouts", totalAmount=str(total))


class HighDemandLocationsView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        tags=TAGS,
        summary="The 10 cities with the most confirmed bookings",
        responses={
            200: enveloped(
                "HighDemandLocations",
                inline_serializer(
                    "HighDemandLocationsData", {"highDemandLocations": HighDemandLocationSerializer(many=True)}
                ),
            ),
            **ERRORS,
        },
    )
    def get(self, request):
        return envelope(snapshots.answer(request.user, "high-demand-locations"))


class HighDemandAmenitiesView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        tags=TAGS,
        summary="The 10 amenities of the most booked listings; the path names a property type or all",
        responses={
            200: enveloped(
                "HighDemandAmenities",
                inline_serializer(
                    "HighDemandAmenitiesData", {"highDemandAmenities": HighDemandAmenitySerializer(many=True)}
                ),
            ),
            **ERRORS,
        },
    )
    def get(self, request, property_type):
        _choice(
            property_type,
            selectors.AMENITY_SCOPES,
            "propertyType",
            "Property type must be all, eventSpace or officeSpace.",
        )
        return envelope(snapshots.answer(request.user, "high-demand-amenities", property_type=property_type))


class GeoChartView(APIView):
    permission_classes = [NotRenter]

    @extend_schema(
        tags=TAGS,
        summary="Confirmed bookings per country, with progress bars",
        responses={200: enveloped("GeoChartResponse", GeoChartSerializer()), **ERRORS},
    )
    def get(self, request):
        return envelope(snapshots.answer(request.user, "geo-chart"))
