"""Dispute API (paths in the spec's style under /api/dispute/, see docs/decisions/disputes/)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.views import APIView

from apps.accounts.models import Role
from apps.bookings.selectors import booking_get_for
from apps.core.api import (
    ERROR_ENVELOPE,
    PRIVATE_FILE_RESPONSES,
    envelope,
    enveloped,
    enveloped_page,
    paginate,
    parse_filters,
)
from apps.core.exceptions import InvalidInput
from apps.core.files import private_file_response
from apps.core.permissions import role_permission
from apps.core.statemachine import history, history_payload
from apps.payments.services import refund_limits

from . import selectors, services
from .models import DisputeStatus
from .policies import DECIDER_ROLES, decides_disputes
from .serializers import DisputeCreateInput, DisputeSchema, DisputeStatusInput, dispute_payload

ERRORS = dict.fromkeys((400, 401, 403, 404, 409), ERROR_ENVELOPE)
DisputeParty = role_permission("DisputeParty", Role.RENTER, Role.HOST)
# Disputes and their evidence are read by the parties and staff, not by a subHost, whose menus hide
# the Disputes group (least privilege, docs/security.md "Round two").
DisputeReaders = role_permission("DisputeReaders", Role.RENTER, Role.HOST, Role.ADMIN, Role.MODERATOR)
DisputeDeciders = role_permission("DisputeDeciders", *DECIDER_ROLES)
DisputeStaffOrHost = role_permission("DisputeStaffOrHost", Role.HOST, Role.ADMIN, Role.MODERATOR)

LIST_PARAMS = [
    OpenApiParameter("page", int),
    OpenApiParameter("limit", int),
    OpenApiParameter("filters[status]", str, description="all, pending, approved or rejected"),
    OpenApiParameter("filters[period]", str, description="daily, weekly or monthly (by the day it was raised)"),
    OpenApiParameter("filters[search]", str, description="listing title, renter name or e-mail, or reason"),
]


def _valid(serializer_class, data):
    if not hasattr(data, "get"):
        raise InvalidInput("Send the fields as a JSON object or as form data.")
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _page(request, queryset):
    page = paginate(request, queryset)
    disputes = list(page.items)
    refundable = None
    if decides_disputes(request.user):  # only those who decide are offered the amount
        refundable = refund_limits([d.booking_id for d in disputes if d.status == DisputeStatus.PENDING])
    items = [dispute_payload(d, viewer=request.user, refundable=refundable) for d in disputes]
    return envelope({"disputes": items, **page.meta()})


class DisputeCreateView(APIView):
    permission_classes = [DisputeParty]

    @extend_schema(
        summary="Raise a dispute on a booking (its renter or host); the booking becomes disputed",
        description="Multipart: `bookingId`, `reason`, and up to 5 evidence `files` (images or PDFs, 10 MB each). "
        "JSON without files is accepted too. One open dispute per booking.",
        request={"multipart/form-data": DisputeCreateInput, "application/json": DisputeCreateInput},
        responses={201: enveloped("DisputeCreateResponse", DisputeSchema()), **ERRORS},
    )
    def post(self, request):
        values = _valid(DisputeCreateInput, request.data)
        booking = booking_get_for(user=request.user, id=values["bookingId"])
        files = request.FILES.getlist("files") if request.FILES else []
        dispute = services.dispute_raise(user=request.user, booking_id=booking.pk, reason=values["reason"], files=files)
        dispute = selectors.dispute_get_for(user=request.user, id=dispute.pk)
        return envelope(dispute_payload(dispute, viewer=request.user), "Dispute raised successfully.", status=201)


class DisputeListView(APIView):
    permission_classes = [DisputeReaders]

    @extend_schema(
        summary="The caller's disputes (renter: own; host and subHost: the host's; admin and moderator: all)",
        parameters=LIST_PARAMS,
        responses={200: enveloped_page("DisputeListResponse", "disputes", DisputeSchema), **ERRORS},
    )
    def get(self, request):
        return _page(request, selectors.dispute_list_for(user=request.user, filters=parse_filters(request)))


class DisputeRequestsView(APIView):
    permission_classes = [DisputeStaffOrHost]

    @extend_schema(
        summary="Pending disputes: all for admin and moderator, the host's for host and subHost (oldest first)",
        parameters=[p for p in LIST_PARAMS if p.name != "filters[status]"],
        responses={200: enveloped_page("DisputeRequestsResponse", "disputes", DisputeSchema), **ERRORS},
    )
    def get(self, request):
        return _page(request, selectors.dispute_requests_for(user=request.user, filters=parse_filters(request)))


class DisputePaymentsView(APIView):
    permission_classes = [DisputeReaders]

    @extend_schema(
        summary="Decided disputes the caller may see, with refunds (approved) and reasons (rejected)",
        description="`filters[status]=approved` leaves only disputes that refunded money.",
        parameters=[
            OpenApiParameter("filters[status]", str, description="all, approved or rejected"),
            *[p for p in LIST_PARAMS if p.name != "filters[status]"],
        ],
        responses={200: enveloped_page("DisputePaymentsResponse", "disputes", DisputeSchema), **ERRORS},
    )
    def get(self, request):
        return _page(request, selectors.dispute_payments_for(user=request.user, filters=parse_filters(request)))


class DisputeDetailView(APIView):
    permission_classes = [DisputeReaders]

    @extend_schema(
        summary="One dispute (its renter, its host's side, admin and moderator only)",
        responses={200: enveloped("DisputeDetailResponse", DisputeSchema()), **ERRORS},
    )
    def get(self, request, dispute_id):
        dispute = selectors.dispute_get_for(user=request.user, id=dispute_id)
        data = dispute_payload(dispute, viewer=request.user)
        data["statusHistory"] = history_payload(history(dispute))
        return envelope(data)


class DisputeUpdateStatusView(APIView):
    permission_classes = [DisputeDeciders]

    @extend_schema(
        summary="Approve a pending dispute with a refund, or reject it with a reason",
        description="`status` approved with `refundAmount` (more than 0, at most what was paid less earlier "
        "refunds; refunded through the payment provider), or rejected with `reason`. A decision is final.",
        request=DisputeStatusInput,
        responses={200: enveloped("DisputeStatusResponse", DisputeSchema()), **ERRORS},
    )
    def patch(self, request, dispute_id):
        selectors.dispute_get_for(user=request.user, id=dispute_id)
        values = _valid(DisputeStatusInput, request.data)
        dispute = services.dispute_update_status(
            dispute_id=dispute_id,
            actor=request.user,
            status=values["status"],
            refund_amount=values.get("refundAmount"),
            reason=values.get("reason") or "",
        )
        dispute = selectors.dispute_get_for(user=request.user, id=dispute.pk)
        message = "Dispute approved and refund made." if dispute.status == "approved" else "Dispute rejected."
        return envelope(dispute_payload(dispute, viewer=request.user), message)


class EvidenceView(APIView):
    permission_classes = [DisputeReaders]

    @extend_schema(
        summary="Download an evidence file of a dispute the caller may see",
        responses={**PRIVATE_FILE_RESPONSES, **ERRORS},
    )
    def get(self, request, evidence_id):
        evidence = selectors.evidence_get_for(user=request.user, id=evidence_id)
        return private_file_response(
            evidence.file,
            name=evidence.name,
            content_type=evidence.content_type,
            missing_message="Evidence file not found.",
        )
