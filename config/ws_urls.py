"""Websocket routes; the notifications app adds its consumer here."""

websocket_urlpatterns: list = []
