"""Calendars API: a listing's imported calendars (``/api/listing/{listingId}/calendars``), and the
private feed addresses and feeds of a listing and of all a host's listings. Thin views: the services in
``sync`` and the reads in ``export`` decide who may do what."""

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped
from apps.core.permissions import AnyRole, HostOrSubHost

from ..models import CalendarStatus, ExternalCalendar
from ..policies import calendar_links_reset_refusal
from ..serializers import HostIcalUrlSchema, IcalUrlSchema
from . import export, sync

ERRORS = dict.fromkeys((400, 401, 403, 404, 409), ERROR_ENVELOPE)


class ExternalCalendarSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="pk")
    name = serializers.CharField()
    url = serializers.SerializerMethodField(help_text="The feed's address up to its host; the rest is hidden.")
    status = serializers.ChoiceField(choices=CalendarStatus.choices)
    lastSyncedAt = serializers.DateTimeField(source="last_synced_at", allow_null=True)
    lastError = serializers.CharField(source="last_error", help_text="Why the last fetch failed; empty when ok.")
    eventCount = serializers.IntegerField(source="event_count", help_text="Events (occurrences) imported.")

    def get_url(self, calendar: ExternalCalendar) -> str:
        return sync.masked_url(calendar.url)


class ExternalCalendarInput(serializers.Serializer):
    name = serializers.CharField(max_length=sync.NAME_MAX, trim_whitespace=True)
    url = serializers.CharField(max_length=2000, help_text="https:// or webcal:// address of an iCal feed.")


def _data(calendar: ExternalCalendar) -> dict:
    return ExternalCalendarSerializer(calendar).data


class ListingCalendarsView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        operation_id="listing_calendars_list",
        responses={200: enveloped("ListingCalendarsResponse", ExternalCalendarSerializer(many=True)), **ERRORS},
    )
    def get(self, request, listing_id):
        calendars = sync.calendar_list_for(user=request.user, listing_id=listing_id)
        return envelope([_data(calendar) for calendar in calendars])

    @extend_schema(
        operation_id="listing_calendars_create",
        request=ExternalCalendarInput,
        responses={201: enveloped("ListingCalendarCreateResponse", ExternalCalendarSerializer()), **ERRORS},
    )
    def post(self, request, listing_id):
        sync.calendar_listing_for(request.user, listing_id)  # 403/404 before looking at the body
        values = ExternalCalendarInput(data=request.data)
        values.is_valid(raise_exception=True)
        calendar = sync.calendar_add(user=request.user, listing_id=listing_id, **values.validated_data)
        return envelope(_data(calendar), "Calendar added. Its events will block the listing within a minute.", 201)


class ListingCalendarDetailView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        operation_id="listing_calendars_destroy",
        responses={200: enveloped("ListingCalendarDeleteResponse", serializers.JSONField(allow_null=True)), **ERRORS},
    )
    def delete(self, request, listing_id, calendar_id):
        sync.calendar_remove(user=request.user, listing_id=listing_id, calendar_id=calendar_id)
        return envelope(None, "Calendar removed. The times it blocked are free again.")


class ListingCalendarSyncView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(
        operation_id="listing_calendars_sync",
        request=None,
        responses={202: enveloped("ListingCalendarSyncResponse", ExternalCalendarSerializer()), **ERRORS},
    )
    def post(self, request, listing_id, calendar_id):
        calendar = sync.calendar_request_sync(user=request.user, listing_id=listing_id, calendar_id=calendar_id)
        calendar.refresh_from_db()
        return envelope(_data(calendar), "Sync started. The calendar's events apply within a minute.", 202)


class HostIcalUrlView(APIView):
    """The private address of the feed of all the host's listings (anyone holding it can read it)."""

    permission_classes = [HostOrSubHost]

    @extend_schema(responses={200: enveloped("HostIcalUrlResponse", HostIcalUrlSchema()), **ERRORS})
    def get(self, request):
        can = {"reset": calendar_links_reset_refusal(request.user) is None}
        return envelope({"url": export.host_feed_url(user=request.user), "can": can})


class HostIcalResetView(APIView):
    """New calendar addresses for the host: every address given out before stops working."""

    permission_classes = [HostOrSubHost]

    @extend_schema(
        operation_id="host_calendar_url_reset",
        request=None,
        responses={200: enveloped("HostIcalResetResponse", IcalUrlSchema()), **ERRORS},
    )
    def post(self, request):
        url = export.calendar_links_reset(user=request.user)
        return envelope({"url": url}, "Calendar links reset. The links shared before no longer work.")


class HostIcalFeedView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "text/calendar"): str, 404: ERROR_ENVELOPE})
    def get(self, request, token):
        return HttpResponse(export.host_feed_for_token(token), content_type="text/calendar; charset=utf-8")


class IcalUrlView(APIView):
    """The private calendar URL of one of the host's listings (anyone holding it can read the feed)."""

    permission_classes = [HostOrSubHost]

    @extend_schema(responses={200: enveloped("IcalUrlResponse", IcalUrlSchema()), **ERRORS})
    def get(self, request, listing_id):
        return envelope({"url": export.listing_feed_url(user=request.user, listing_id=listing_id)})


class IcalFeedView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "text/calendar"): str, 404: ERROR_ENVELOPE})
    def get(self, request, token):
        # RFC 5545 with the listing's VTIMEZONE, SEQUENCE and cancelled bookings (``export``).
        return HttpResponse(export.listing_feed_for_token(token), content_type="text/calendar; charset=utf-8")
