"""Websocket authentication by an access token in the query string (``?token=<access JWT>``).

Browsers cannot set an Authorization header on a websocket, so mobile and other token clients
pass the access token as a query parameter. Browser pages are authenticated by the session cookie
(Channels' AuthMiddlewareStack, outside this middleware); a token, when present, wins. A bad or
expired token leaves the connection anonymous, which the consumer refuses.

A socket stays tied to the login it was opened with (``still_signed_in``): the consumer checks it
again as it delivers and receives, closes at the token's expiry, and joins a group per login
(``login_group`` / ``session_group``) to which logout sends a close event.
"""

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.utils.crypto import salted_hmac


@database_sync_to_async
def _user_for_token(raw: str):
    """The token's user and its claims (``sid``, ``exp``, ``pwv``), or an anonymous user and None."""
    from rest_framework_simplejwt.exceptions import AuthenticationFailed, InvalidToken, TokenError

    from .authentication import RevocableJWTAuthentication as JWTAuthentication

    auth = JWTAuthentication()
    try:
        token = auth.get_validated_token(raw.encode())
        return auth.get_user(token), dict(token.payload)
    except (InvalidToken, TokenError, AuthenticationFailed):
        return AnonymousUser(), None


def login_group(sid: str) -> str:
    """The sockets of one token login (``sid``): logout closes them."""
    return f"login.{sid}"[:90]


def session_group(session_key: str) -> str:
    """The sockets of one browser session: logout closes them (the key itself is never a group name)."""
    return "session." + salted_hmac("accounts.ws-session", session_key, algorithm="sha256").hexdigest()[:40]


def still_signed_in(*, user_id, claims: dict | None, session_key: str | None) -> bool:
    """Whether the login a socket was opened with still holds: the account is active, and the token
    is current (not signed out, password unchanged, not expired) or the session still exists, is
    not expired and belongs to the same password (Django's session hash)."""
    import time

    from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
    from django.utils.crypto import constant_time_compare

    from .authentication import token_is_current
    from .models import User

    user = User.objects.filter(pk=user_id, is_active=True, is_deleted=False).first()
    if user is None:
        return False
    if claims is not None:
        return float(claims.get("exp") or 0) > time.time() and token_is_current(claims, user)
    if not session_key:
        return False
    from importlib import import_module

    from django.conf import settings

    data = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key).load()
    return str(data.get(SESSION_KEY)) == str(user.pk) and constant_time_compare(
        data.get(HASH_SESSION_KEY, ""), user.get_session_auth_hash()
    )


class TokenAuthMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [""])[0]
        claims = None
        if token:
            user, claims = await _user_for_token(token[:4096])
            scope = dict(scope, user=user)
        scope = dict(scope, login=_login_of(scope, claims))
        return await self.app(scope, receive, send)


def _login_of(scope, claims: dict | None) -> dict:
    """What the consumer needs to keep the socket tied to its login: the groups logout closes, when
    the token expires, and a check that the login still holds."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return {"groups": [], "expires_at": None, "check": None}
    session = scope.get("session")
    session_key = None if claims is not None or session is None else session.session_key
    if claims is not None:
        groups = [login_group(str(claims.get("sid")))] if claims.get("sid") else []
    else:
        groups = [session_group(session_key)] if session_key else []
    user_id = user.pk

    async def check() -> bool:
        return await database_sync_to_async(still_signed_in)(user_id=user_id, claims=claims, session_key=session_key)

    return {
        "groups": groups,
        "expires_at": float(claims["exp"]) if claims and claims.get("exp") else None,
        "check": check,
    }
