"""Identity verification API: the host's documents, the staff's requests and decisions."""

import dataclasses

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.views import APIView

from apps.core.access import Area
from apps.core.api import (
    ERROR_ENVELOPE,
    PRIVATE_FILE_RESPONSES,
    envelope,
    enveloped,
    enveloped_page,
    page_response,
    paginate,
    parse_filters,
)
from apps.core.exceptions import InvalidInput
from apps.core.files import private_file_response
from apps.core.permissions import AnyRole, HostOnly, area_permission

from . import selectors, services_verification
from .serializers_users import (
    MediaDeleteInput,
    VerificationDecisionInput,
    VerificationDocumentSerializer,
    VerificationRequestDetailSerializer,
    VerificationRequestSerializer,
)

ERRORS = dict.fromkeys((400, 401, 403, 404, 409, 429), ERROR_ENVELOPE)
VerificationStaff = area_permission("VerificationStaff", Area.VERIFICATION_REQUESTS)


def _valid(serializer_class, request, **kwargs):
    data = serializer_class(data=request.data, **kwargs)
    data.is_valid(raise_exception=True)
    return data.validated_data


# --- Identity verification -----------------------------------------------------------------


class VerificationDocsView(APIView):
    """A host's identity documents: list them, or upload more (multipart, field ``files``)."""

    permission_classes = [HostOnly]

    @extend_schema(
        responses={200: enveloped("VerificationDocsResponse", VerificationDocumentSerializer(many=True)), **ERRORS}
    )
    def get(self, request):
        documents = selectors.verification_documents_of(request.user)
        return envelope(VerificationDocumentSerializer(documents, many=True).data)

    @extend_schema(
        request={
            "multipart/form-data": inline_serializer(
                name="VerificationDocsUpload", fields={"files": serializers.ListField(child=serializers.FileField())}
            )
        },
        responses={
            201: enveloped("VerificationDocsUploadResponse", VerificationDocumentSerializer(many=True)),
            **ERRORS,
        },
    )
    def post(self, request):
        files = request.FILES.getlist("files") if hasattr(request.FILES, "getlist") else []
        if not files:
            raise InvalidInput("Choose at least one document.", errors={"files": ["Choose at least one document."]})
        services_verification.verification_documents_add(user=request.user, files=files)
        documents = selectors.verification_documents_of(request.user)
        return envelope(
            VerificationDocumentSerializer(documents, many=True).data,
            "Documents uploaded. We will review them shortly.",
            status=201,
        )


class VerificationDocFileView(APIView):
    """The file of one document, only for its owner and staff (never from the public uploads path)."""

    permission_classes = [AnyRole]

    @extend_schema(responses={**PRIVATE_FILE_RESPONSES, **ERRORS})
    def get(self, request, document_id):
        document = selectors.verification_document_get_for(actor=request.user, document_id=document_id)
        response = private_file_response(
            document.file,
            name=document.name,
            content_type=document.content_type,
            missing_message="Document not found.",
            cache_control="private, no-store",
            as_attachment=False,
        )
        # Staff open it inside the review dialog: framed by our own pages only, still sandboxed by its CSP.
        response["X-Frame-Options"] = "SAMEORIGIN"
        return response


class MediaDeleteView(APIView):
    """``POST media/delete`` with fileName, type verificationDoc and userId: the owner or staff delete one."""

    permission_classes = [AnyRole]

    @extend_schema(request=MediaDeleteInput, responses={200: enveloped("MediaDeleteResponse", None), **ERRORS})
    def post(self, request):
        values = _valid(MediaDeleteInput, request)
        services_verification.verification_document_delete(
            actor=request.user, owner_id=values["userId"], file_name=values["fileName"]
        )
        return envelope(None, "Document deleted successfully.")


class VerificationRequestListView(APIView):
    permission_classes = [VerificationStaff]

    @extend_schema(
        operation_id="user_verification_requests_list",
        parameters=[
            OpenApiParameter("page", int),
            OpenApiParameter("limit", int),
            OpenApiParameter("filters[status]", str, description="pending, approved, rejected or all (default all)."),
            OpenApiParameter("filters[search]", str),
        ],
        responses={
            200: enveloped_page(
                "VerificationRequestList",
                "verificationRequests",
                VerificationRequestSerializer,
                extra={"pendingVerificationRequest": serializers.IntegerField()},
            ),
            **ERRORS,
        },
    )
    def get(self, request):
        ids = paginate(
            request, selectors.verification_request_list(filters=parse_filters(request)).values_list("pk", flat=True)
        )
        page = dataclasses.replace(ids, items=selectors.verification_requests_in_order(ids.items))
        user_ids = [item.user_id for item in page.items]
        documents: dict = {user_id: [] for user_id in user_ids}
        for document in selectors.VerificationDocument.objects.filter(user_id__in=user_ids).order_by("created_at"):
            documents[document.user_id].append(document)
        return page_response(
            page,
            VerificationRequestSerializer,
            "verificationRequests",
            context={"documents": documents, "actor": request.user},
            pendingVerificationRequest=selectors.pending_verification_request_count(),
        )


class VerificationRequestDetailView(APIView):
    permission_classes = [VerificationStaff]

    @extend_schema(
        responses={200: enveloped("VerificationRequestDetailResponse", VerificationRequestDetailSerializer()), **ERRORS}
    )
    def get(self, request, request_id):
        found = selectors.verification_request_get(request_id=request_id)
        return envelope(VerificationRequestDetailSerializer(found, context={"actor": request.user}).data)


class VerificationDecisionView(APIView):
    permission_classes = [VerificationStaff]

    @extend_schema(
        request=VerificationDecisionInput,
        responses={200: enveloped("VerificationDecisionResponse", VerificationRequestSerializer()), **ERRORS},
    )
    def patch(self, request, request_id):
        values = _valid(VerificationDecisionInput, request)
        found = selectors.verification_request_get(request_id=request_id)
        decided = services_verification.verification_request_decide(
            actor=request.user, request=found, status=values["status"], reason=values["reason"]
        )
        message = "Host verified successfully." if decided.status == "approved" else "Verification request rejected."
        return envelope(VerificationRequestSerializer(decided, context={"actor": request.user}).data, message)
