# Over 450 lines: one thin view per booking endpoint of spec section 7.
"""Bookings API (spec section 7: booking/..., reviews/add, listing/get-availability). Thin views."""

import datetime as dt
import zoneinfo

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.accounts.models import Role
from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate, parse_filters
from apps.core.exceptions import InvalidInput, NotFound
from apps.core.filters import is_uuid
from apps.core.permissions import AnyRole, HostOrSubHost, RenterOnly
from apps.listings.selectors import listing_get_for

from . import selectors, services
from .models import BookingStatus
from .permissions import RenterOrHostSide
from .serializers import (
    AvailabilitySchema,
    BookingDetailSchema,
    BookingDetailSerializer,
    BookingDetailsInput,
    BookingSchema,
    BookingSerializer,
    BookingStatusSchema,
    CancelInput,
    ExtendInput,
    ExtendStatusInput,
    ExtensionSchema,
    QuoteSchema,
    UpdateStatusInput,
    extension_data,
    quote_data,
)
from .times import LOCAL_TZ, parse_date, parse_time

ERRORS = dict.fromkeys((400, 401, 403, 404, 409), ERROR_ENVELOPE)
QUOTE_STEPS = ("request-booking-details", "event-booking-details", "services-and-add-ons", "review-and-pay")


def _valid(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _booking_fields(values: dict) -> dict:
    check_in = parse_date(values["checkInDate"], "checkInDate")
    check_out_raw = values.get("checkOutDate")
    return {
        "offering_id": values.get("spaceOffering"),
        "check_in_date": check_in,
        "check_out_date": parse_date(check_out_raw, "checkOutDate") if check_out_raw else check_in,
        "start_time": parse_time(values["startTime"], "startTime"),
        "end_time": parse_time(values["endTime"], "endTime"),
        "guests": values.get("guests"),
        "seats": values.get("seats"),
        "add_on_ids": values.get("servicesAndAddOns") or (),
    }


class QuoteView(APIView):
    """A price quote for a step of the booking flow, from the same pricing code as the booking."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=BookingDetailsInput, responses={200: enveloped("BookingQuoteResponse", QuoteSchema()), **ERRORS}
    )
    def post(self, request, step: str):
        if step not in QUOTE_STEPS:
            raise NotFound("Unknown booking step.")
        values = _valid(BookingDetailsInput, request.data)
        listing = services.bookable_listing(values["listingId"])
        if step == "event-booking-details" and listing.property_type != "eventSpace":
            raise InvalidInput("This space is a work space; use request-booking-details.")
        if step == "request-booking-details" and listing.property_type != "officeSpace":
            raise InvalidInput("This space is an event space; use event-booking-details.")
        fields = _booking_fields(values)
        if step in ("request-booking-details", "event-booking-details"):
            fields["add_on_ids"] = ()
        plan = services.booking_plan(listing=listing, **fields)
        # Every step says whether the time is still free (held bookings plus the host's buffer), so
        # the widget refuses taken times before the renter goes on.
        return envelope(
            quote_data(plan, step=step, available=services.plan_time_free(plan, renter=request.user)),
            "Price calculated.",
        )


class BookingCreateView(APIView):
    permission_classes = [RenterOnly]

    @extend_schema(
        request=BookingDetailsInput,
        responses={201: enveloped("BookingCreateResponse", BookingDetailSchema()), **ERRORS},
    )
    def post(self, request):
        values = _valid(BookingDetailsInput, request.data)
        booking = services.booking_request(
            renter=request.user, listing_id=values["listingId"], **_booking_fields(values)
        )
        data = BookingDetailSerializer(selectors.booking_just_created(booking), context={"user": request.user}).data
        return envelope(data, "Booking request sent. The host will answer within 72 hours.", status=201)


LIST_PARAMS = [
    OpenApiParameter("page", int),
    OpenApiParameter("limit", int),
    OpenApiParameter("filters[status]", str, description="all or a booking status"),
    OpenApiParameter("filters[period]", str, description="daily, weekly or monthly (by request date)"),
    OpenApiParameter("filters[search]", str, description="listing title or renter name / email"),
]


class BookingListView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        parameters=LIST_PARAMS,
        responses={200: enveloped_page("BookingListResponse", "bookings", BookingSchema), **ERRORS},
    )
    def get(self, request):
        qs = selectors.booking_list_for(user=request.user, filters=parse_filters(request))
        return page_response(paginate(request, qs), BookingSerializer, "bookings", context={"user": request.user})


class BookingRequestsView(APIView):
    permission_classes = [HostOrSubHost]

    @extend_schema(
        parameters=LIST_PARAMS,
        responses={200: enveloped_page("BookingRequestsResponse", "bookings", BookingSchema), **ERRORS},
    )
    def get(self, request):
        qs = selectors.booking_requests_for(user=request.user, filters=parse_filters(request))
        return page_response(paginate(request, qs), BookingSerializer, "bookings", context={"user": request.user})


class BookingDetailView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(responses={200: enveloped("BookingDetailResponse", BookingDetailSchema()), **ERRORS})
    def get(self, request, booking_id):
        booking = selectors.booking_get_for(user=request.user, id=booking_id)
        return envelope(BookingDetailSerializer(booking, context={"user": request.user}).data)


class BookingUpdateStatusView(APIView):
    permission_classes = [HostOrSubHost]

    @extend_schema(
        request=UpdateStatusInput, responses={200: enveloped("BookingStatusResponse", BookingStatusSchema()), **ERRORS}
    )
    def patch(self, request, booking_id):
        answer = UpdateStatusInput(data=request.data)
        if not answer.is_valid():
            selectors.booking_get_for(user=request.user, id=booking_id)  # a hidden booking: 404 whatever was sent
            raise serializers.ValidationError(answer.errors)
        # The service reads the booking as the detail shows it, among those the user may see (404).
        booking, message = services.booking_update_status(
            booking_id=booking_id,
            actor=request.user,
            status=answer.validated_data["status"],
            reason=answer.validated_data["reason"],
        )
        data = BookingDetailSerializer(booking, context={"user": request.user}).data
        data["checkInPassed"] = booking.check_in <= timezone.now()
        return envelope(data, message)


class BookingCancelView(APIView):
    """The renter cancels (refund by the cancellation policy) or the host side cancels (reason required)."""

    permission_classes = [RenterOrHostSide]

    @extend_schema(
        request=CancelInput, responses={200: enveloped("BookingCancelResponse", BookingDetailSchema()), **ERRORS}
    )
    def patch(self, request, booking_id):
        selectors.booking_get_for(user=request.user, id=booking_id)
        values = _valid(CancelInput, request.data)
        if request.user.role == Role.RENTER:
            booking = services.booking_cancel_by_renter(
                booking_id=booking_id, renter=request.user, reason=values["reason"]
            )
        else:
            booking = services.booking_cancel_by_host(
                booking_id=booking_id, actor=request.user, reason=values["reason"]
            )
        booking = selectors.booking_get_for(user=request.user, id=booking.pk)
        data = BookingDetailSerializer(booking, context={"user": request.user}).data
        return envelope(data, f"Booking cancelled. Refund amount: ${booking.refund_amount}.")


class ExtendBookingView(APIView):
    permission_classes = [RenterOnly]

    @extend_schema(
        request=ExtendInput, responses={201: enveloped("ExtendBookingResponse", ExtensionSchema()), **ERRORS}
    )
    def post(self, request, booking_id):
        selectors.booking_get_for(user=request.user, id=booking_id)
        values = _valid(ExtendInput, request.data)
        extension = services.extension_request(
            booking_id=booking_id,
            renter=request.user,
            hours=values["additionalHours"],
            days=values["additionalDays"],
            weeks=values["additionalWeeks"],
            months=values["additionalMonths"],
        )
        return envelope(
            extension_data(extension, full=True, viewer=request.user), "Extension request sent to the host.", status=201
        )


class ExtendStatusView(APIView):
    permission_classes = [HostOrSubHost]

    @extend_schema(
        request=ExtendStatusInput, responses={200: enveloped("ExtendStatusResponse", ExtensionSchema()), **ERRORS}
    )
    def put(self, request, booking_id):
        selectors.booking_get_for(user=request.user, id=booking_id)
        values = _valid(ExtendStatusInput, request.data)
        extension = services.extension_update_status(
            booking_id=booking_id,
            extension_id=values["requestId"],
            actor=request.user,
            status=values["status"],
            reason=values.get("reason") or "",
        )
        message = (
            "Extension request approved successfully."
            if extension.status == "approved"
            else "Extension request rejected successfully."
        )
        return envelope(extension_data(extension, full=True, viewer=request.user), message)


class ListingAvailabilityView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        parameters=[
            OpenApiParameter("timezone", str, description="IANA name; default the listing's own time zone"),
            OpenApiParameter("from", str, description="first date (yyyy-MM-dd); default today"),
            OpenApiParameter("days", int, description="how many days (1-366); default 90"),
        ],
        responses={200: enveloped("ListingAvailabilityResponse", AvailabilitySchema()), **ERRORS},
    )
    def get(self, request, listing_id):
        if not is_uuid(listing_id):
            raise NotFound("Listing not found.")
        # Only a listing the caller may see (public ones; the host side and staff also their own pending ones).
        listing = listing_get_for(user=request.user, listing_id=listing_id, bare=True)
        name = request.query_params.get("timezone") or listing.time_zone
        try:
            tz = zoneinfo.ZoneInfo(name[:64])
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise InvalidInput("Unknown timezone.", errors={"timezone": ["Unknown timezone."]})
        start = (
            parse_date(request.query_params["from"], "from")
            if request.query_params.get("from")
            else timezone.now().astimezone(tz).date()
        )
        try:
            days = int(request.query_params.get("days") or 90)
        except ValueError:
            days = 0
        if not 1 <= days <= 366:
            raise InvalidInput("days must be from 1 to 366.", errors={"days": ["days must be from 1 to 366."]})
        data = selectors.listing_availability(listing=listing, tz=tz, start=start, days=days)
        return envelope({**data, "timeZone": tz.key})


class CalendarEventSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    title = serializers.CharField(help_text="The listing's title.")
    listingId = serializers.UUIDField()
    status = serializers.ChoiceField(choices=BookingStatus.choices)
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    checkInDate = serializers.CharField(help_text="dd-MM-yyyy")
    checkOutDate = serializers.CharField(help_text="dd-MM-yyyy")
    timeZone = serializers.CharField(help_text="The listing's IANA time zone, in which the dates are written.")
    link = serializers.CharField(help_text="The booking's page.")


class CalendarBlockedSerializer(serializers.Serializer):
    listingId = serializers.UUIDField()
    title = serializers.CharField()
    date = serializers.DateField()


class CalendarImportedSerializer(serializers.Serializer):
    _id = serializers.CharField()
    listingId = serializers.UUIDField()
    title = serializers.CharField(help_text="The listing's title.")
    calendarId = serializers.UUIDField()
    calendarName = serializers.CharField(help_text="The imported calendar the event came from.")
    summary = serializers.CharField(allow_blank=True)
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    timeZone = serializers.CharField()


class CalendarSerializer(serializers.Serializer):
    month = serializers.CharField(allow_null=True, help_text="yyyy-MM when a month was asked for.")
    from_ = serializers.DateField()
    to = serializers.DateField()
    bookings = CalendarEventSerializer(many=True)
    blocked = CalendarBlockedSerializer(many=True, help_text="Host and subHost: their listings' blocked dates.")
    imported = CalendarImportedSerializer(
        many=True, help_text="Host and subHost: events of their listings' imported calendars, which block that time."
    )

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


CALENDAR_MAX_DAYS = 62


def _calendar_range(params) -> tuple[dt.date, dt.date, str | None]:
    if params.get("from") or params.get("to"):
        first = parse_date(params.get("from"), "from")
        last = parse_date(params.get("to"), "to")
        if last < first or (last - first).days >= CALENDAR_MAX_DAYS:
            message = f"to must be on or after from, at most {CALENDAR_MAX_DAYS} days later."
            raise InvalidInput(message, errors={"to": [message]})
        return first, last, None
    raw = params.get("month") or timezone.now().astimezone(LOCAL_TZ).strftime("%Y-%m")
    try:
        year, month = (int(part) for part in raw.split("-"))
        first = dt.date(year, month, 1)
    except ValueError:
        raise InvalidInput("month must look like 2025-03.", errors={"month": ["month must look like 2025-03."]})
    last = (first.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)
    return first, last, f"{year:04d}-{month:02d}"


class CalendarView(APIView):
    """The signed-in user's calendar: a renter's bookings, a host's listings' bookings and blocked
    dates, or the platform's bookings for staff, over a month or a range of dates."""

    permission_classes = [AnyRole]

    @extend_schema(
        parameters=[
            OpenApiParameter("month", str, description="yyyy-MM; default this month"),
            OpenApiParameter("from", str, description="First date (yyyy-MM-dd), with to, instead of month"),
            OpenApiParameter("to", str, description="Last date (yyyy-MM-dd), at most 62 days after from"),
            OpenApiParameter("listingId", str, description="Only this listing's bookings and blocked dates"),
        ],
        responses={200: enveloped("BookingCalendarResponse", CalendarSerializer()), **ERRORS},
    )
    def get(self, request):
        first, last, month = _calendar_range(request.query_params)
        listing_id = request.query_params.get("listingId") or None
        if listing_id is not None and not is_uuid(listing_id):
            raise InvalidInput("listingId is not valid.", errors={"listingId": ["listingId is not valid."]})
        qs = selectors.bookings_between(user=request.user, first=first, last=last, listing_id=listing_id)
        events = [
            {
                "_id": str(b.pk),
                "title": b.listing.title,
                "listingId": str(b.listing_id),
                "status": b.status,
                "start": b.check_in.isoformat(),
                "end": b.check_out.isoformat(),
                "checkInDate": b.check_in_date.strftime("%d-%m-%Y"),
                "checkOutDate": b.check_out_date.strftime("%d-%m-%Y"),
                "timeZone": b.listing.time_zone,
                "link": f"/booking-detail/{b.pk}",
            }
            for b in qs[:500]
        ]
        blocked = selectors.blocked_dates_between(user=request.user, first=first, last=last, listing_id=listing_id)
        imported = selectors.calendar_blocks_between(user=request.user, first=first, last=last, listing_id=listing_id)
        data = {
            "month": month,
            "from": first,
            "to": last,
            "bookings": events,
            "blocked": blocked,
            "imported": imported,
        }
        return envelope(CalendarSerializer(data).data)


class ListingBookingsSummarySerializer(serializers.Serializer):
    counts = serializers.DictField(child=serializers.IntegerField(), help_text="Bookings by status.")
    total = serializers.IntegerField()
    upcoming = BookingSchema(many=True, help_text="The next five pending, approved or ongoing bookings.")


class ListingBookingsSummaryView(APIView):
    """For the listing's page in the dashboard: its owner's side and staff."""

    permission_classes = [AnyRole]

    @extend_schema(
        responses={200: enveloped("ListingBookingsSummaryResponse", ListingBookingsSummarySerializer()), **ERRORS}
    )
    def get(self, request, listing_id):
        if not is_uuid(listing_id):
            raise NotFound("Listing not found.")
        summary = selectors.listing_bookings_summary(user=request.user, listing_id=listing_id)
        upcoming = BookingSerializer(summary["upcoming"], many=True, context={"user": request.user}).data
        return envelope({"counts": summary["counts"], "total": summary["total"], "upcoming": upcoming})
