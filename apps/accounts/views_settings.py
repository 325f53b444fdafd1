"""Each user's general settings: notifications, password, e-mail, tax, deleting the account."""

from django.contrib.auth import logout as session_logout
from django.contrib.auth import update_session_auth_hash
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped
from apps.core.django_internals import http_request
from apps.core.permissions import AnyRole, HostOnly
from apps.notifications.kinds import KINDS, effective_settings

from . import services, services_settings
from .models import Role, User
from .serializers_users import (
    AccountDeleteInput,
    EmailChangeInput,
    NotificationSettingsInput,
    OtpInput,
    PasswordChangeInput,
    TaxInput,
    UserDetailSerializer,
)

ERRORS = dict.fromkeys((400, 401, 403, 404, 409, 429), ERROR_ENVELOPE)


def _valid(serializer_class, request, **kwargs):
    data = serializer_class(data=request.data, **kwargs)
    data.is_valid(raise_exception=True)
    return data.validated_data


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
        update_session_auth_hash(http_request(request), user)
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
        session_logout(http_request(request))
        return envelope(None, "Your account was deleted.")
