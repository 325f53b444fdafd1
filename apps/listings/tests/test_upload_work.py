"""Uploads are bounded by the work they cost, not by their bytes, and never stall the site.

A tiny PNG can declare a huge canvas: the probe's ten 84 KB files of 5000 x 5000 pixels, six
requests at a time, kept every web thread busy and an unrelated search waited 92 s. Here the same
thing at a small scale, against a server that, like one gunicorn worker in production, serves
with a fixed pool of four threads.
"""

import io
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.handlers.wsgi import WSGIHandler
from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer
from django.db import connections
from PIL import Image

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role
from apps.core import images
from apps.core.testing import ApiClient
from apps.listings.factories import ListingFactory

UPLOAD = "/api/media/uploads"
SEARCH = "/api/listing/property-listing"


def canvas_png(side: int, name: str = "canvas.png") -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (side, side), (90, 120, 150)).save(out, format="PNG")
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/png")


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "uploads"


@pytest.mark.django_db
def test_a_request_of_many_huge_canvases_is_refused_before_any_decoding(api, media_root, monkeypatch):
    host = UserFactory(role=Role.HOST)
    decoded = []
    monkeypatch.setattr(images, "_decode", lambda *a, **k: decoded.append(1))
    bomb = canvas_png(5000).read()  # 84 KB: ten of them are 250 megapixels
    files = [SimpleUploadedFile(f"bomb{n}.png", bomb, content_type="image/png") for n in range(10)]
    response = api.as_user(host).post(UPLOAD, {"files": files}, format="multipart")
    assert response.status_code == 413
    assert "at most 64 per upload" in response.json()["message"]
    assert decoded == []


@pytest.mark.django_db
def test_a_user_decodes_a_bounded_number_of_pixels_a_minute(api, media_root, monkeypatch):
    monkeypatch.setattr(images, "MAX_WORK_PER_USER_MINUTE", 3_000_000)
    host = UserFactory(role=Role.HOST)
    client = api.as_user(host)
    first = client.post(UPLOAD, {"files": [canvas_png(1000), canvas_png(1000)]}, format="multipart")
    assert first.status_code == 201, first.content
    second = client.post(UPLOAD, {"files": [canvas_png(1000), canvas_png(1000)]}, format="multipart")
    assert second.status_code == 429
    assert 1 <= int(second["Retry-After"]) <= 60
    # Another user has its own budget.
    other = ApiClient().as_user(UserFactory(role=Role.HOST))
    assert other.post(UPLOAD, {"files": [canvas_png(1000)]}, format="multipart").status_code == 201


@pytest.mark.django_db
def test_each_file_is_decoded_once_for_its_three_sizes(api, media_root, monkeypatch):
    calls = []
    original = images._decode
    monkeypatch.setattr(images, "_decode", lambda *a, **k: calls.append(1) or original(*a, **k))
    host = UserFactory(role=Role.HOST)
    response = api.as_user(host).post(UPLOAD, {"files": [canvas_png(2000), canvas_png(300)]}, format="multipart")
    assert response.status_code == 201, response.content
    assert len(calls) == 2
    [first, _] = response.json()["data"]["files"]
    assert first["mediumPath"] and first["smallPath"]


class PooledServer(WSGIServer):
    """One gunicorn gthread worker: a fixed pool of threads serves the connections; others wait."""

    def __init__(self, *args, threads: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.pool = ThreadPoolExecutor(threads)

    def process_request(self, request, client_address):
        self.pool.submit(self._serve, request, client_address)

    def _serve(self, request, client_address):
        try:
            self.finish_request(request, client_address)
        except Exception:  # noqa: BLE001 - as socketserver does: report it, keep serving
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)
            connections.close_all()


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def pooled_server(transactional_db, media_root):
    server = PooledServer(("127.0.0.1", 0), QuietHandler, threads=4, allow_reuse_address=True)
    server.set_app(WSGIHandler())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.pool.shutdown(wait=True)  # every request is over before the database is emptied
    server.server_close()


@pytest.mark.slow
def test_the_search_answers_within_a_second_while_six_large_uploads_run(pooled_server):
    host = UserFactory(role=Role.HOST)
    for _ in range(3):
        ListingFactory(host=host)
    token = ApiClient.token_for(host)
    body = []
    for n in range(4):  # 4 megapixels each: 16 per request, under the request's cap
        out = io.BytesIO()
        Image.new("RGB", (2000, 2000), (90, 120, 150 + n)).save(out, format="PNG")
        body.append(("files", (f"canvas{n}.png", out.getvalue(), "image/png")))

    def upload(_):
        return requests.post(
            pooled_server + UPLOAD, files=body, headers={"Authorization": f"Bearer {token}"}, timeout=120
        )

    def search() -> float:
        started = time.perf_counter()
        # A different query each time: answered by the database, not a cached page.
        response = requests.get(pooled_server + SEARCH, params={"city": uuid.uuid4().hex}, timeout=120)
        assert response.status_code == 200
        return time.perf_counter() - started

    search()  # warm: the first request of a process loads the URL configuration
    with ThreadPoolExecutor(6) as clients:
        uploads = [clients.submit(upload, n) for n in range(6)]
        time.sleep(0.3)  # the uploads reach the server first
        latencies = [search() for _ in range(3)]
        answers = [future.result() for future in uploads]
    statuses = sorted(answer.status_code for answer in answers)
    assert set(statuses) <= {201, 503} and 201 in statuses, statuses
    for answer in answers:
        if answer.status_code == 503:
            assert int(answer.headers["Retry-After"]) > 0
    assert max(latencies) < 1.0, latencies


def _progressive_jpeg() -> bytes:
    out = io.BytesIO()
    image = Image.new("RGB", (640, 480), (90, 120, 150))
    for x in range(0, 640, 5):
        image.putpixel((x, x % 480), (250, 200, 40))
    image.save(out, format="JPEG", progressive=True, quality=85)
    return out.getvalue()


def _scan_bomb(repeats: int = 2500) -> bytes:
    """A small progressive JPEG with its shortest scan repeated before the end: each repeat is
    decoded again, and a few hundred kilobytes hold thousands of them."""
    data = _progressive_jpeg()
    end = data.rindex(b"\xff\xd9")
    starts = [i for i in range(len(data) - 1) if data[i : i + 2] == b"\xff\xda"]
    scans = [data[a:b] for a, b in zip(starts, [*starts[1:], end], strict=True)]
    return data[:end] + min(scans, key=len) * repeats + data[end:]


@pytest.mark.django_db
def test_a_jpeg_of_thousands_of_scans_is_refused_before_decoding(api, media_root, monkeypatch):
    decoded = []
    original = images._decode
    monkeypatch.setattr(images, "_decode", lambda *a, **k: decoded.append(1) or original(*a, **k))
    host = UserFactory(role=Role.HOST)
    bomb = SimpleUploadedFile("bomb.jpg", _scan_bomb(), content_type="image/jpeg")
    assert bomb.size < 400_000
    response = api.as_user(host).post(UPLOAD, {"files": [bomb]}, format="multipart")
    assert response.status_code == 400, response.content
    assert "stored in 41 passes or more (at most 40)" in response.json()["message"]
    assert decoded == []
    # A progressive photo as an encoder writes it (10 scans) is stored as before.
    photo = SimpleUploadedFile("photo.jpg", _progressive_jpeg(), content_type="image/jpeg")
    assert api.as_user(host).post(UPLOAD, {"files": [photo]}, format="multipart").status_code == 201
