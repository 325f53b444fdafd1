"""Authentication and profile API (spec section 7, Authentication). Views stay thin: input, service, output."""

from django.contrib.auth import login as session_login
from django.contrib.auth import logout as session_logout
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView
from rest_framework_simplejwt.exceptions import TokenError
from rest_framework_simplejwt.serializers import TokenRefreshSerializer
from rest_framework_simplejwt.settings import api_settings as jwt_settings
from rest_framework_simplejwt.tokens import RefreshToken

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped
from apps.core.clients import client_address
from apps.core.django_internals import http_request
from apps.core.exceptions import Forbidden, NotAuthenticated, NotFound
from apps.core.images import reencode_image
from apps.core.permissions import AnyRole

from . import services
from .authentication import token_is_current
from .models import User
from .serializers import (
    AuthResultSerializer,
    EmailInput,
    LoginInput,
    LogoutInput,
    ProfileInput,
    RefreshInput,
    RegisterInput,
    ResetPasswordInput,
    UserIdSerializer,
    UserSerializer,
    VerifyOtpInput,
)

SESSION_BACKEND = "django.contrib.auth.backends.ModelBackend"
ERRORS = {
    400: ERROR_ENVELOPE,
    401: ERROR_ENVELOPE,
    403: ERROR_ENVELOPE,
    404: ERROR_ENVELOPE,
    409: ERROR_ENVELOPE,
    429: ERROR_ENVELOPE,
}


class PublicAuthView(APIView):
    """Authentication calls: open to anyone, rate limited per client address."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"


def _signed_in(request, user: User, message: str, *, status: int = 200):
    """Answer with the user and fresh tokens, and start the browser session."""
    session_login(http_request(request), user, backend=SESSION_BACKEND)
    data = {"user": UserSerializer(user).data, **services.tokens_for(user)}
    return envelope(data, message, status=status)


class RegisterView(PublicAuthView):
    @extend_schema(
        request=RegisterInput, responses={201: enveloped("RegisterResponse", AuthResultSerializer()), **ERRORS}
    )
    def post(self, request):
        data = RegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        user = services.user_register(
            email=values["email"],
            password=values["password"],
            role=values["role"],
            first_name=values["firstName"],
            last_name=values["lastName"],
        )
        return envelope(
            {"user": UserSerializer(user).data, "token": None, "refreshToken": None},
            "Account created. Enter the 5-digit code we sent to your email.",
            status=201,
        )


class LoginView(PublicAuthView):
    @extend_schema(request=LoginInput, responses={200: enveloped("LoginResponse", AuthResultSerializer()), **ERRORS})
    def post(self, request):
        data = LoginInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_login(email=data.validated_data["email"], password=data.validated_data["password"])
        return _signed_in(request, user, "Logged in successfully.")


class VerifyOtpView(PublicAuthView):
    throttle_scope = "otp"

    @extend_schema(
        request=VerifyOtpInput, responses={200: enveloped("VerifyOtpResponse", AuthResultSerializer()), **ERRORS}
    )
    def post(self, request):
        data = VerifyOtpInput(data=request.data)
        data.is_valid(raise_exception=True)
        user, purpose = services.otp_verify(
            user_id=data.validated_data["userID"], otp=data.validated_data["otp"], client=client_address(request)
        )
        if purpose == services.OneTimeCode.Purpose.RESET_PASSWORD:
            # A reset code does not sign in: its token is good for one reset-password call and nothing else.
            data = {"user": UserSerializer(user).data, "token": services.password_reset_token_for(user)}
            return envelope({**data, "refreshToken": None}, "Code confirmed. Choose a new password.")
        return _signed_in(request, user, "User account verified successfully")


class ForgotPasswordView(PublicAuthView):
    throttle_scope = "otp"

    @extend_schema(
        request=EmailInput, responses={200: enveloped("ForgotPasswordResponse", UserIdSerializer()), **ERRORS}
    )
    def post(self, request):
        data = EmailInput(data=request.data)
        data.is_valid(raise_exception=True)
        user_id = services.password_forgot(email=data.validated_data["email"])
        return envelope({"userID": str(user_id)}, "We sent a 5-digit code to your email.")


class ResendOtpView(PublicAuthView):
    throttle_scope = "otp"

    @extend_schema(request=EmailInput, responses={200: enveloped("ResendOtpResponse", UserIdSerializer()), **ERRORS})
    def post(self, request):
        data = EmailInput(data=request.data)
        data.is_valid(raise_exception=True)
        user_id = services.otp_resend(email=data.validated_data["email"])
        return envelope({"userID": str(user_id)}, "A new code was sent to your email.")


class ResetPasswordView(APIView):
    """Needs the token from the verify-otp step of the forgot-password flow (``Authorization: Bearer``):
    a reset token, good for one reset of that account only."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=ResetPasswordInput, responses={200: enveloped("ResetPasswordResponse", UserIdSerializer()), **ERRORS}
    )
    def put(self, request):
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise NotAuthenticated("Confirm the code sent to your email before choosing a new password.")
        user = services.password_reset_token_user(token.strip())
        if user is None:
            raise Forbidden(
                "This reset is no longer valid (it was used or has expired). Confirm a new code to choose a password."
            )
        data = ResetPasswordInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.password_reset(
            user=user, email=data.validated_data["email"], password=data.validated_data["password"]
        )
        session_logout(http_request(request))
        return envelope({"userID": str(user.pk)}, "Password updated successfully")


class TokenRefreshView(PublicAuthView):
    @extend_schema(
        request=RefreshInput, responses={200: enveloped("TokenRefreshResponse", AuthResultSerializer()), **ERRORS}
    )
    def post(self, request):
        data = RefreshInput(data=request.data)
        data.is_valid(raise_exception=True)
        refresh = TokenRefreshSerializer(data={"refresh": data.validated_data["refreshToken"]})
        try:
            refresh.is_valid(raise_exception=True)
        except TokenError:
            raise NotAuthenticated("Your session has expired. Please log in again.") from None
        except Exception as exc:  # simplejwt raises InvalidToken / AuthenticationFailed for bad tokens
            raise NotAuthenticated("Your session has expired. Please log in again.") from exc
        tokens = refresh.validated_data
        payload = RefreshToken(tokens["refresh"]).payload
        user = User.objects.filter(pk=payload.get(jwt_settings.USER_ID_CLAIM)).first()
        if user is None or user.is_deleted or not user.is_active or not token_is_current(payload, user):
            raise NotAuthenticated("Your session has expired. Please log in again.")
        return envelope(
            {"user": UserSerializer(user).data, "token": tokens["access"], "refreshToken": tokens["refresh"]},
            "Session refreshed.",
        )


class LogoutView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=LogoutInput, responses={200: enveloped("LogoutResponse", UserIdSerializer(allow_null=True)), **ERRORS}
    )
    def post(self, request):
        data = LogoutInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.tokens_end_login(
            refresh_token=data.validated_data.get("refreshToken"),
            access_token=request.auth,
            session_key=http_request(request).session.session_key,
        )
        session_logout(http_request(request))
        return envelope(None, "Logged out successfully.")


class MeView(APIView):
    permission_classes = [AnyRole]

    @extend_schema(responses={200: enveloped("MeResponse", UserSerializer()), **ERRORS})
    def get(self, request):
        return envelope(UserSerializer(request.user).data)


class ProfileView(APIView):
    permission_classes = [AnyRole]

    def _own(self, request, user_id) -> User:
        if str(request.user.pk) != str(user_id):
            if not User.objects.filter(pk=user_id).exists():
                raise NotFound("No account matches this user ID.")
            raise Forbidden("You can only edit your own profile.")
        return request.user

    @extend_schema(responses={200: enveloped("ProfileResponse", UserSerializer()), **ERRORS})
    def get(self, request, user_id):
        return envelope(UserSerializer(self._own(request, user_id)).data)

    @extend_schema(
        request=ProfileInput, responses={200: enveloped("ProfileUpdateResponse", UserSerializer()), **ERRORS}
    )
    def put(self, request, user_id):
        user = self._own(request, user_id)
        data = ProfileInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if values.get("avatar"):
            values["avatar"] = reencode_image(values["avatar"], max_side=512, field="avatar")
        user = services.profile_update(user=user, actor=request.user, data=values)
        return envelope(UserSerializer(user).data, "Profile updated successfully.")
