"""Back-office API of accounts: hosts, renters, sub-hosts, moderators, invitations. Views stay thin:
input, selector, service, output.
"""

from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate, parse_filters
from apps.core.permissions import AdminOnly, AdminOrModerator, AnyRole, HostOnly, StaffOrHostSide, role_permission

from . import selectors, services_users
from .models import Role
from .serializers import PublicUserSerializer
from .serializers_users import (
    AddHostInput,
    InviteInput,
    SetPasswordInput,
    StatusInput,
    SubHostUpdateInput,
    UserDetailSerializer,
    UserListItemSerializer,
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


class _ViewField(serializers.Field):
    """The constant that tells the two shapes of a viewed user apart (the schema's discriminator)."""

    def __init__(self, value: str, **kwargs):
        self.value = value
        super().__init__(read_only=True, source="*", **kwargs)

    def to_representation(self, _instance) -> str:
        return self.value


@extend_schema_field({"type": "string", "enum": ["full"]})
class _FullField(_ViewField):
    pass


@extend_schema_field({"type": "string", "enum": ["public"]})
class _PublicField(_ViewField):
    pass


class ViewedUserFull(UserDetailSerializer):
    view = _FullField("full", help_text="full: the whole account (staff, the account itself, a host's subHost).")

    class Meta(UserDetailSerializer.Meta):
        fields = [*UserDetailSerializer.Meta.fields, "view"]


class ViewedUserPublic(PublicUserSerializer):
    view = _PublicField("public", help_text="public: the public profile.")

    class Meta(PublicUserSerializer.Meta):
        fields = [*PublicUserSerializer.Meta.fields, "view"]


class ViewUserView(APIView):
    """Open any account you may see. Staff get the whole account (also a deleted one, with the
    message "Host is deleted" etc.); others get the public profile, or 404 with that message."""

    permission_classes = [AnyRole]

    @extend_schema(
        responses={
            200: enveloped(
                "ViewUserResponse",
                PolymorphicProxySerializer(
                    component_name="ViewedUser",
                    serializers={"full": ViewedUserFull, "public": ViewedUserPublic},
                    resource_type_field_name="view",
                ),
            ),
            **ERRORS,
        }
    )
    def get(self, request, user_id):
        user, full = selectors.user_get_for(actor=request.user, user_id=user_id)
        data = ViewedUserFull(user, context={"user": request.user}).data if full else ViewedUserPublic(user).data
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
