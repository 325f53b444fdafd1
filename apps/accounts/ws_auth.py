"""Websocket authentication by an access token in the query string (``?token=<access JWT>``).

Browsers cannot set an Authorization header on a websocket, so mobile and other token clients
pass the access token as a query parameter. Browser pages are authenticated by the session cookie
(Channels' AuthMiddlewareStack, outside this middleware); a token, when present, wins. A bad or
expired token leaves the connection anonymous, which the consumer refuses.
"""

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser


@database_sync_to_async
def _user_for_token(raw: str):
    from rest_framework_simplejwt.exceptions import AuthenticationFailed, InvalidToken, TokenError

    from .authentication import RevocableJWTAuthentication as JWTAuthentication

    auth = JWTAuthentication()
    try:
        return auth.get_user(auth.get_validated_token(raw.encode()))
    except (InvalidToken, TokenError, AuthenticationFailed):
        return AnonymousUser()


class TokenAuthMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [""])[0]
        if token:
            scope = dict(scope, user=await _user_for_token(token[:4096]))
        return await self.app(scope, receive, send)
