"""A local iCal server for tests, the browser test and the bench: feeds served from memory on
127.0.0.1 (a thread of ``http.server``), with ETag conditional GETs and redirects."""

import hashlib
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FeedServer:
    """``server.feeds["/path.ics"] = b"BEGIN:VCALENDAR..."``; ``server.url("/path.ics")``.

    ``redirects[path] = target`` answers 302; ``statuses[path] = 500`` answers that status;
    ``hits[path]`` counts the GETs and ``not_modified[path]`` the 304s answered;
    ``drips[path] = seconds`` sends the answer a byte at a time, one every ``seconds``.
    """

    def __init__(self):
        self.feeds: dict[str, bytes] = {}
        self.redirects: dict[str, str] = {}
        self.statuses: dict[str, int] = {}
        self.hits: dict[str, int] = {}
        self.not_modified: dict[str, int] = {}
        self.delays: dict[str, float] = {}
        self.drips: dict[str, float] = {}
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                path = self.path.split("?")[0]
                with server.lock:
                    server.hits[path] = server.hits.get(path, 0) + 1
                    body = server.feeds.get(path)
                    target = server.redirects.get(path)
                    status = server.statuses.get(path)
                    delay = server.delays.get(path)
                    drip = server.drips.get(path)
                if delay:
                    time.sleep(delay)
                if drip and body is not None:
                    head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                    for byte in head + body:
                        try:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                        except OSError:  # the client gave up
                            return
                        time.sleep(drip)
                    return
                if target is not None:
                    self.send_response(302)
                    self.send_header("Location", target)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if status is not None or body is None:
                    payload = b"not here"
                    self.send_response(status or 404)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
                if self.headers.get("If-None-Match") == etag:
                    with server.lock:
                        server.not_modified[path] = server.not_modified.get(path, 0) + 1
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/calendar; charset=utf-8")
                self.send_header("ETag", etag)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
