"""Bearer tokens that end when the user signs out or changes the password.

Every token pair carries ``sid`` (the login it belongs to: the first refresh token's id, kept
through rotation) and ``pwv`` (a digest of the password hash it was issued under). An access
token is refused when its login was signed out (``sid`` on a deny list kept in the cache for the
refresh lifetime) or the password changed since (``pwv`` no longer matches).
"""

from django.conf import settings
from django.core.cache import cache
from django.utils.crypto import salted_hmac
from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import AuthenticationFailed

LOGIN_CLAIM = "sid"
PASSWORD_CLAIM = "pwv"


def password_version(user) -> str:
    return salted_hmac("accounts.token-password", user.password or "", algorithm="sha256").hexdigest()[:16]


def _ended_key(sid: str) -> str:
    return f"accounts:login-ended:{sid}"


def login_end(sid: str | None) -> None:
    """Sign out one login: its access tokens stop working at once, everywhere."""
    if sid:
        lifetime = settings.SIMPLE_JWT["REFRESH_TOKEN_LIFETIME"].total_seconds()
        cache.set(_ended_key(str(sid)), 1, timeout=int(lifetime) + 60)


def token_is_current(token, user) -> bool:
    sid = token.get(LOGIN_CLAIM)
    if not sid or token.get(PASSWORD_CLAIM) != password_version(user):
        return False
    return not cache.get(_ended_key(str(sid)))


class RevocableJWTAuthentication(JWTAuthentication):
    def get_user(self, validated_token):
        user = super().get_user(validated_token)
        if not token_is_current(validated_token, user):
            raise AuthenticationFailed("Your session has ended. Please log in again.", code="token_revoked")
        return user


class RevocableJWTScheme(SimpleJWTScheme):
    """The API schema's bearer scheme for these tokens (the same as simplejwt's)."""

    target_class = RevocableJWTAuthentication
