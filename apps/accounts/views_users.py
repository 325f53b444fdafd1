"""Back-office API of accounts: hosts, renters, sub-hosts, moderators, invitations, identity
verification, and each user's general settings. Views stay thin: input, selector, service, output.
"""

import dataclasses

from django.contrib.auth import logout as session_logout
from django.contrib.auth import update_session_auth_hash
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate, parse_filters
from apps.core.exceptions import InvalidInput
from apps.core.files import private_file_response
from apps.core.permissions import AdminOnly, AdminOrModerator, AnyRole, HostOnly, StaffOrHostSide, role_permission
from apps.notifications.kinds import KINDS, effective_settings

from . import selectors, services, services_settings, services_users, services_verification
from .models import Role, User
from .serializers import PublicUserSerializer
from .serializers_users import (
    AccountDeleteInput,
    AddHostInput,
    EmailChangeInput,
    InviteInput,
    MediaDeleteInput,
    NotificationSettingsInput,
    OtpInput,
    PasswordChangeInput,
    SetPasswordInput,
    StatusInput,
    SubHostUpdateInput,
    TaxInput,
    UserDetailSerializer,
    UserListItemSerializer,
    VerificationDecisionInput,
    VerificationDocumentSerializer,
    VerificationRequestSerializer,
)

ERRORS = dict.fromkeys((400, 401, 403, 404, 409, 429), ERROR_ENVELOPE)
StaffOrHost = role_permission("StaffOrHost", Role.ADMIN, Role.MODERATOR, Role.HOST)

LIST_FILTERS = [
    OpenApiParameter("page", int),
    OpenApiParameter("limit", int),
    OpenApiParameter("filters[search]", str, description="Part of the e-mail, first, last or user name."),
    OpenApiParameter(
        "filters[status]",
        str,
        description="active, suspended, deleted, unverified or all (default: active and suspended).",
    ),
    OpenApiParameter("filters[isVerified]", str, description="true or false (identity approved)."),
    OpenApiParameter("filters[country]", str),
]


def _valid(serializer_class, request, **kwargs):
    data = serializer_class(data=request.data, **kwargs)
    data.is_valid(raise_exception=True)
    return data.validated_data


# --- Lists ---------------------------------------------------------------------------------


class HostListView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(
        parameters=LIST_FILTERS, responses={200: enveloped_page("HostList", "hosts", UserListItemSerializer), **ERRORS}
    )
    def get(self, request):
        queryset = selectors.user_list_for(actor=request.user, role=Role.HOST, filters=parse_filters(request))
        return page_response(
            paginate(request, queryset), UserListItemSerializer, "hosts", context={"user": request.user}
        )


class RenterListView(APIView):
    """Staff: every renter. Host and subHost: the renters who booked the host's spaces."""

    permission_classes = [StaffOrHostSide]

    @extend_schema(
        parameters=LIST_FILTERS,
        responses={200: enveloped_page("RenterList", "renters", UserListItemSerializer), **ERRORS},
    )
    def get(self, request):
        queryset = selectors.user_list_for(actor=request.user, role=Role.RENTER, filters=parse_filters(request))
        return page_response(
            paginate(request, queryset), UserListItemSerializer, "renters", context={"user": request.user}
        )


class SubHostListView(APIView):
    permission_classes = [HostOnly]

    @extend_schema(
        operation_id="user_sub_hosts_list",
        parameters=LIST_FILTERS,
        responses={200: enveloped_page("SubHostList", "subHosts", UserListItemSerializer), **ERRORS},
    )
    def get(self, request):
        queryset = selectors.sub_host_list_for(actor=request.user, filters=parse_filters(request))
        return page_response(
            paginate(request, queryset), UserListItemSerializer, "subHosts", context={"user": request.user}
        )


class ModeratorListView(APIView):
    permission_classes = [AdminOnly]

    @extend_schema(
        parameters=LIST_FILTERS,
        responses={200: enveloped_page("ModeratorList", "moderators", UserListItemSerializer), **ERRORS},
    )
    def get(self, request):
        queryset = selectors.moderator_list(filters=parse_filters(request))
        return page_response(
            paginate(request, queryset), UserListItemSerializer, "moderators", context={"user": request.user}
        )


# --- One user ------------------------------------------------------------------------------


class ViewUserView(APIView):
    """Open any account you may see. Staff get the whole account (also a deleted one, with the
    message "Host is deleted" etc.); others get the public profile, or 404 with that message."""

    permission_classes = [AnyRole]

    @extend_schema(responses={200: enveloped("ViewUserResponse", UserDetailSerializer()), **ERRORS})
    def get(self, request, user_id):
        user, full = selectors.user_get_for(actor=request.user, user_id=user_id)
        data = (
            UserDetailSerializer(user, context={"user": request.user}).data if full else PublicUserSerializer(user).data
        )
        return envelope(data, selectors.deleted_message(user) if user.is_deleted else "")


class UserStatusView(APIView):
    """Suspend, soft-delete or restore (status active) a host, subHost or renter; the admin also a moderator."""

    permission_classes = [AdminOrModerator]

    @extend_schema(
        request=StatusInput, responses={200: enveloped("UserStatusResponse", UserListItemSerializer()), **ERRORS}
    )
    def patch(self, request, user_id):
        values = _valid(StatusInput, request)
        user, _ = selectors.user_get_for(actor=request.user, user_id=user_id)
        user = services_users.user_status_set(actor=request.user, user=user, status=values["status"])
        messages = {
            "active": "Account restored successfully.",
            "suspended": "Account suspended successfully.",
            "deleted": "Account deleted successfully.",
        }
        return envelope(UserListItemSerializer(user, context={"user": request.user}).data, messages[values["status"]])


# --- Adding accounts -----------------------------------------------------------------------


class AddHostView(APIView):
    permission_classes = [AdminOrModerator]

    @extend_schema(
        request=AddHostInput, responses={201: enveloped("AddHostResponse", UserListItemSerializer()), **ERRORS}
    )
    def post(self, request):
        values = _valid(AddHostInput, request)
        user = services_users.host_add(
            actor=request.user,
            email=values["email"],
            first_name=values["firstName"],
            last_name=values["lastName"],
            user_name=values.get("userName", ""),
            tax=values.get("tax"),
        )
        return envelope(
            UserListItemSerializer(user, context={"user": request.user}).data,
            "Host added. We e-mailed them a link to choose a password.",
            status=201,
        )


class AddSubHostView(APIView):
    permission_classes = [HostOnly]

    @extend_schema(
        request=InviteInput, responses={201: enveloped("AddSubHostResponse", UserListItemSerializer()), **ERRORS}
    )
    def post(self, request):
        values = _valid(InviteInput, request)
        user = services_users.sub_host_add(
            actor=request.user, email=values["email"], first_name=values["firstName"], last_name=values["lastName"]
        )
        return envelope(
            UserListItemSerializer(user, context={"user": request.user}).data,
            "Sub-host added. We e-mailed them a link to choose a password.",
            status=201,
        )


class SubHostDetailView(APIView):
    permission_classes = [HostOnly]

    @extend_schema(responses={200: enveloped("SubHostResponse", UserDetailSerializer()), **ERRORS})
    def get(self, request, user_id):
        return envelope(
            UserDetailSerializer(
                services_users.sub_host_get_for(actor=request.user, sub_host_id=user_id), context={"user": request.user}
            ).data
        )

    @extend_schema(
        request=SubHostUpdateInput,
        responses={200: enveloped("SubHostUpdateResponse", UserListItemSerializer()), **ERRORS},
    )
    def put(self, request, user_id):
        values = _valid(SubHostUpdateInput, request, partial=True)
        sub_host = services_users.sub_host_get_for(actor=request.user, sub_host_id=user_id)
        data = {
            key: values[name]
            for name, key in (("firstName", "first_name"), ("lastName", "last_name"), ("isActive", "is_active"))
            if name in values
        }
        sub_host = services_users.sub_host_update(actor=request.user, sub_host=sub_host, data=data)
        return envelope(
            UserListItemSerializer(sub_host, context={"user": request.user}).data, "Sub-host updated successfully."
        )

    @extend_schema(responses={200: enveloped("SubHostDeleteResponse", None), **ERRORS})
    def delete(self, request, user_id):
        sub_host = services_users.sub_host_get_for(actor=request.user, sub_host_id=user_id)
        services_users.user_status_set(actor=request.user, user=sub_host, status="deleted")
        return envelope(None, "Sub-host removed successfully.")


class AddModeratorView(APIView):
    permission_classes = [AdminOnly]

    @extend_schema(
        request=InviteInput, responses={201: enveloped("AddModeratorResponse", UserListItemSerializer()), **ERRORS}
    )
    def post(self, request):
        values = _valid(InviteInput, request)
        user = services_users.moderator_add(
            actor=request.user, email=values["email"], first_name=values["firstName"], last_name=values["lastName"]
        )
        return envelope(
            UserListItemSerializer(user, context={"user": request.user}).data,
            "Moderator added. We e-mailed them a link to choose a password.",
            status=201,
        )


class ModeratorDetailView(APIView):
    permission_classes = [AdminOnly]

    @extend_schema(responses={200: enveloped("ModeratorDeleteResponse", None), **ERRORS})
    def delete(self, request, user_id):
        moderator = services_users.moderator_get(moderator_id=user_id)
        services_users.user_status_set(actor=request.user, user=moderator, status="deleted")
        return envelope(None, "Moderator removed successfully.")


class ResendInvitationView(APIView):
    """Mail a new set-password link to an account that has not chosen its password yet."""

    permission_classes = [StaffOrHost]

    @extend_schema(request=None, responses={200: enveloped("ResendInvitationResponse", None), **ERRORS})
    def post(self, request, user_id):
        if request.user.role == Role.HOST:
            user = services_users.sub_host_get_for(actor=request.user, sub_host_id=user_id)
        else:
            user, _ = selectors.user_get_for(actor=request.user, user_id=user_id)
        services_users.invitation_resend(actor=request.user, user=user)
        return envelope(None, "Invitation sent again.")


class SetPasswordView(APIView):
    """The API form of the invitation link: choose the first password with ``uid`` and ``token``."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(request=SetPasswordInput, responses={200: enveloped("SetPasswordResponse", None), **ERRORS})
    def post(self, request):
        values = _valid(SetPasswordInput, request)
        services_users.password_set_from_link(uid=values["uid"], token=values["token"], password=values["password"])
        return envelope(None, "Password set successfully. You can log in now.")


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

    @extend_schema(responses={(200, "application/octet-stream"): bytes, **ERRORS})
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
    permission_classes = [AdminOrModerator]

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
    permission_classes = [AdminOrModerator]

    @extend_schema(responses={200: enveloped("VerificationRequestResponse", VerificationRequestSerializer()), **ERRORS})
    def get(self, request, request_id):
        found = selectors.verification_request_get(request_id=request_id)
        return envelope(VerificationRequestSerializer(found, context={"actor": request.user}).data)


class VerificationDecisionView(APIView):
    permission_classes = [AdminOrModerator]

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


# --- General settings ------------------------------------------------------------------------

NotificationSettingsData = inline_serializer(
    name="NotificationSettingsData",
    fields={
        "settings": serializers.DictField(child=serializers.DictField(child=serializers.BooleanField())),
        "kinds": inline_serializer(
            name="NotificationKind",
            fields={"key": serializers.CharField(), "type": serializers.CharField(), "label": serializers.CharField()},
            many=True,
        ),
        "channels": serializers.ListField(child=serializers.CharField()),
    },
)


def _notification_settings_data(user: User) -> dict:
    kinds = [
        {"key": kind.key, "type": kind.type, "label": kind.label}
        for kind in KINDS.values()
        if kind.audience in ("anyone", _audience(user))
    ]
    return {
        "settings": effective_settings(user.notification_settings),
        "kinds": kinds,
        "channels": ["inApp", "email", "push"],
    }


def _audience(user: User) -> str:
    if user.role in (Role.ADMIN, Role.MODERATOR):
        return "staff"
    if user.role in (Role.HOST, Role.SUB_HOST):
        return "host"
    return "renter"


class NotificationSettingsView(APIView):
    """The user's choice of channels (inApp, email, push) per kind of notification."""

    permission_classes = [AnyRole]

    @extend_schema(responses={200: enveloped("NotificationSettingsResponse", NotificationSettingsData), **ERRORS})
    def get(self, request):
        return envelope(_notification_settings_data(request.user))

    @extend_schema(
        request=NotificationSettingsInput,
        responses={200: enveloped("NotificationSettingsUpdateResponse", NotificationSettingsData), **ERRORS},
    )
    def put(self, request):
        values = _valid(NotificationSettingsInput, request)
        services_settings.notification_settings_update(user=request.user, data=values["settings"])
        request.user.refresh_from_db(fields=["notification_settings"])
        return envelope(_notification_settings_data(request.user), "Notification settings updated successfully.")


class PasswordChangeView(APIView):
    """Change the password with the current one. Other devices are signed out; this one gets new tokens."""

    permission_classes = [AnyRole]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=PasswordChangeInput,
        responses={
            200: enveloped(
                "PasswordChangeResponse",
                inline_serializer(
                    name="PasswordChangeTokens",
                    fields={"token": serializers.CharField(), "refreshToken": serializers.CharField()},
                ),
            ),
            **ERRORS,
        },
    )
    def put(self, request):
        values = _valid(PasswordChangeInput, request)
        user = services_settings.password_change(
            user=request.user, current_password=values["currentPassword"], new_password=values["newPassword"]
        )
        update_session_auth_hash(request._request, user)
        return envelope(services.tokens_for(user), "Password updated successfully")


class EmailChangeView(APIView):
    permission_classes = [AnyRole]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "otp"

    @extend_schema(request=EmailChangeInput, responses={200: enveloped("EmailChangeResponse", None), **ERRORS})
    def post(self, request):
        values = _valid(EmailChangeInput, request)
        services_settings.email_change_request(
            user=request.user, password=values["password"], new_email=values["email"]
        )
        return envelope(None, "We sent a 5-digit code to your new email. Enter it to confirm the change.")


class EmailChangeVerifyView(APIView):
    permission_classes = [AnyRole]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "otp"

    @extend_schema(
        request=OtpInput, responses={200: enveloped("EmailChangeVerifyResponse", UserDetailSerializer()), **ERRORS}
    )
    def post(self, request):
        values = _valid(OtpInput, request)
        user = services_settings.email_change_confirm(user=request.user, otp=values["otp"])
        return envelope(UserDetailSerializer(user, context={"user": request.user}).data, "Email updated successfully.")


class TaxView(APIView):
    """The host's tax percent, added to its bookings' invoices (spec 9: tax = host tax percent)."""

    permission_classes = [HostOnly]

    @extend_schema(
        request=TaxInput,
        responses={
            200: enveloped(
                "TaxResponse", inline_serializer(name="TaxData", fields={"tax": serializers.DecimalField(5, 2)})
            ),
            **ERRORS,
        },
    )
    def put(self, request):
        values = _valid(TaxInput, request)
        user = services_settings.tax_update(user=request.user, tax=values["tax"])
        return envelope({"tax": str(user.tax)}, "Tax updated successfully.")


class AccountDeleteView(APIView):
    permission_classes = [AnyRole]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(request=AccountDeleteInput, responses={200: enveloped("AccountDeleteResponse", None), **ERRORS})
    def post(self, request):
        values = _valid(AccountDeleteInput, request)
        services_settings.account_delete(user=request.user, password=values["password"])
        session_logout(request._request)
        return envelope(None, "Your account was deleted.")
