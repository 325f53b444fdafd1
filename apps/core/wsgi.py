"""What the site's WSGI entry point adds around Django (``config/wsgi.py``).

A request refused before its body is read (a 401 without a token, a 400 for an over-long field, a
413) leaves that body on the connection. gunicorn drains only 64 KB of it before serving the next
request on a kept-alive connection and otherwise closes the connection after answering
``Connection: keep-alive``: the client's next request on it is then dropped without an answer.
So the rest of a body the site accepts at all (``MAX_REQUEST_BODY_BYTES``) is read and discarded
before the answer goes out, and a larger one makes the server announce ``Connection: close``.
"""

from collections.abc import Callable, Iterable

CHUNK = 64 * 1024


class _CountedInput:
    """``wsgi.input`` that counts what the application read of it."""

    def __init__(self, stream):
        self.stream = stream
        self.consumed = 0

    def read(self, size=-1):
        data = self.stream.read(size) if size is not None and size >= 0 else self.stream.read()
        self.consumed += len(data)
        return data

    def readline(self, size=-1):
        data = self.stream.readline(size)
        self.consumed += len(data)
        return data

    def __iter__(self):
        return iter(self.readline, b"")

    def discard(self, left: int) -> bool:
        """Read and drop ``left`` bytes; False when the client stopped sending before the end."""
        while left > 0:
            data = self.stream.read(min(CHUNK, left))
            if not data:
                return False
            left -= len(data)
        return True


class UnreadBodyGuard:
    """Leaves no unread request body behind a kept-alive connection."""

    def __init__(self, application: Callable, *, max_drain_bytes: int):
        self.application = application
        self.max_drain_bytes = max_drain_bytes

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length <= 0:
            return self.application(environ, start_response)
        body = environ["wsgi.input"] = _CountedInput(environ["wsgi.input"])

        def start(status, headers, exc_info=None):
            left = length - body.consumed
            if left > 0 and (left > self.max_drain_bytes or not body.discard(left)):
                _close_after(start_response)
            return start_response(status, headers, exc_info)

        return self.application(environ, start)


def _close_after(start_response: Callable) -> None:
    """Ask the server to close the connection after this answer. gunicorn ignores a
    ``Connection`` header from the application; its response object offers ``force_close``, which
    makes it answer ``Connection: close``. Other servers (the test server) close on their own."""
    force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
    if callable(force_close):
        force_close()
