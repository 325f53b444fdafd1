"""Security and robustness of the platform: safe defaults, payments without keys, uploads, bad input,
headers and the production image (issue: security and robustness)."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from apps.core.testing import ApiClient

BASE_DIR = Path(django_settings.BASE_DIR)


def _settings_process(env: dict, *args: str) -> subprocess.CompletedProcess:
    """Run manage.py with a clean environment plus ``env`` (no DJANGO_ENV unless given)."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "DATABASE_URL", "REDIS_URL", "LANG")}
    return subprocess.run(  # noqa: S603 - our own manage.py
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env={**keep, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


PRODUCTION = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "x" * 64,
    "ALLOWED_HOSTS": "example.com",
    "VAPID_PUBLIC_KEY": "BExamplePublicKey",
    "VAPID_PRIVATE_KEY": "examplePrivateKey",
}
STRIPE_KEYS = {"STRIPE_SECRET_KEY": "sk_live_example", "STRIPE_WEBHOOK_SECRET": "whsec_example"}


# --- 2. No free premium: production refuses to run without payment keys ---------------------------


@pytest.mark.slow
def test_production_without_gateway_keys_fails_check_deploy():
    refused = _settings_process(PRODUCTION, "check", "--deploy")
    assert refused.returncode != 0
    assert "STRIPE_SECRET_KEY" in refused.stderr
    demo = _settings_process({**PRODUCTION, "PAYMENT_GATEWAY": "local"}, "check", "--deploy", "--fail-level", "ERROR")
    assert demo.returncode == 0, demo.stderr
    keyed = _settings_process({**PRODUCTION, **STRIPE_KEYS}, "check", "--deploy", "--fail-level", "ERROR")
    assert keyed.returncode == 0, keyed.stderr


@pytest.mark.django_db
def test_local_checkout_page_is_not_served_when_stripe_is_the_gateway(client, settings):
    from apps.payments.models import LocalCheckoutSession

    settings.PAYMENT_GATEWAY = "stripe"
    settings.STRIPE_SECRET_KEY = "sk_test_fake"
    from apps.accounts.factories import UserFactory

    user = UserFactory()
    LocalCheckoutSession.objects.create(
        id="cs_local_x",
        purpose="subscription",
        reference="r",
        amount="199.00",
        description="Premium",
        customer_email=user.email,
        user=user,
        success_url="/ok",
        cancel_url="/no",
    )
    assert client.get("/checkout/cs_local_x").status_code == 404
    assert client.post("/checkout/cs_local_x/pay").status_code == 404
    assert LocalCheckoutSession.objects.get(id="cs_local_x").status == "open"


@pytest.mark.django_db
def test_without_keys_and_without_the_demo_setting_no_checkout_starts(settings):
    from apps.payments.gateway import GatewayError, get_gateway

    settings.STRIPE_SECRET_KEY = ""
    settings.PAYMENT_GATEWAY = "stripe"
    with pytest.raises(GatewayError):
        get_gateway()


# --- 8. Development defaults do not fail open ------------------------------------------------------


@pytest.mark.slow
def test_without_django_env_the_site_refuses_to_run_without_a_secret_key():
    result = _settings_process({}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
    development = _settings_process({"DJANGO_ENV": "development"}, "check")
    assert development.returncode == 0, development.stderr


def test_only_django_env_chooses_the_settings_profile():
    """A variable pytest sets, left in a service's environment, does not switch it to the test profile."""
    shell = "from django.conf import settings; print(settings.DJANGO_ENV, settings.CALENDAR_ALLOW_LOCAL)"
    stray = _settings_process({"PYTEST_VERSION": "9.2.0"}, "check")
    assert stray.returncode != 0 and "SECRET_KEY" in stray.stderr  # still production: it needs its keys
    production = _settings_process({**PRODUCTION, **STRIPE_KEYS, "PYTEST_VERSION": "9.2.0"}, "shell", "-c", shell)
    assert production.returncode == 0, production.stderr
    assert production.stdout.strip().splitlines()[-1].split() == ["production", "False"]


# --- 3 and 9. Uploads: pixel caps, reduced decoding, re-encoded documents --------------------------


def _png_bytes(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("L", (width, height), 255).save(out, format="PNG", optimize=True)
    return out.getvalue()


def test_a_small_file_of_many_pixels_is_refused_before_decoding():
    from apps.core.exceptions import InvalidInput
    from apps.core.images import reencode_image

    data = _png_bytes(6300, 6300)
    assert len(data) < 200_000
    with pytest.raises(InvalidInput) as refused:
        reencode_image(SimpleUploadedFile("bomb.png", data), field="files")
    assert "too large" in refused.value.message


def test_a_large_jpeg_is_decoded_at_reduced_size():
    from apps.core.images import decode_limited

    out = io.BytesIO()
    Image.new("RGB", (4000, 3000), (200, 10, 10)).save(out, format="JPEG")
    image, _ = decode_limited(SimpleUploadedFile("big.jpg", out.getvalue()), max_side=512, field="files")
    assert max(image.size) < 4000  # JPEG draft mode: scaled while decoding
    assert max(image.size) >= 512


def _jpeg_with_gps() -> bytes:
    image = Image.new("RGB", (64, 64), (10, 120, 200))
    exif = Image.Exif()
    exif[0x8825] = {2: (48.0, 51.0, 24.0), 4: (2.0, 21.0, 3.0)}  # GPSInfo
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif)
    return out.getvalue()


@pytest.fixture
def private_root(settings, tmp_path):
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    return settings.PRIVATE_MEDIA_ROOT


def _upload_document(client, name: str, content: bytes):
    return client.post(
        "/api/user/verification-docs", {"files": [SimpleUploadedFile(name, content)]}, format="multipart"
    )


@pytest.mark.django_db
def test_verification_images_are_reencoded_without_metadata(clients, private_root):
    from apps.accounts.models import VerificationDocument

    data = _jpeg_with_gps()
    assert b"Exif" in data
    response = _upload_document(clients["host"], "id.jpg", data)
    assert response.status_code == 201
    stored = (private_root / VerificationDocument.objects.get().file.name).read_bytes()
    assert stored != data
    assert Image.open(io.BytesIO(stored)).getexif().get(0x8825) is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xd8\xff\xe0<html><script>alert(1)</script></html>",  # JPEG header, HTML inside
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\ntrailer<<>>\n%%EOF",
        b"%PDF-1.4\n1 0 obj<</S/Java#53cript/JS(x)>>endobj\n%%EOF",  # name written with a hex escape
        b"%PDF-1.4\n<html><body><script>alert(1)</script></body></html>\n%%EOF",  # PDF and HTML polyglot
    ],
)
def test_active_or_disguised_documents_are_refused(clients, private_root, content):
    from apps.accounts.models import VerificationDocument

    response = _upload_document(clients["host"], "doc.pdf", content)
    assert response.status_code == 400
    assert response.json()["errors"]["files"]
    assert not VerificationDocument.objects.exists()


@pytest.mark.django_db
def test_a_huge_document_image_is_refused(clients, private_root):
    from apps.accounts.models import VerificationDocument

    response = _upload_document(clients["host"], "scan.png", _png_bytes(20000, 20000))
    assert response.status_code == 400
    assert not VerificationDocument.objects.exists()


# --- 10. Bad input answers 400/413/414 in the JSON envelope ---------------------------------------


def _assert_envelope(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["message"], str) and body["message"]
    assert "errors" in body
    return body


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["9223372036854775808", "99999999999999999999999", "4611686018427387904"])
def test_a_page_past_the_integer_range_is_a_400(clients, page):
    _assert_envelope(clients["host"].get(f"/api/listing/get-all?page={page}"), 400)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["search", "title", "country", "status"])
def test_a_nul_byte_in_a_filter_is_a_400(clients, name):
    _assert_envelope(clients["host"].get(f"/api/listing/get-all?filters[{name}]=a%00b"), 400)


@pytest.mark.django_db
def test_a_nul_byte_in_a_json_body_is_a_400(clients):
    response = clients["renter"].put("/api/payment/checkout-success", {"sessionId": "cs_\u0000x"}, format="json")
    _assert_envelope(response, 400)


@pytest.mark.django_db
def test_deeply_nested_json_is_a_400(api):
    body = "[" * 5000 + "]" * 5000
    response = api.post("/api/user/login", body, content_type="application/json")
    _assert_envelope(response, 400)


@pytest.mark.django_db
def test_a_body_over_the_limit_is_a_413(api):
    body = json.dumps({"email": "a@example.com", "password": "x" * (13 * 1024 * 1024)})
    response = api.post("/api/user/login", body, content_type="application/json")
    _assert_envelope(response, 413)


@pytest.mark.django_db
def test_too_many_form_fields_is_a_400(clients, users):
    # On an operation that reads forms (the profile, for its avatar); elsewhere a form is a 415.
    body = "&".join(f"f{i}=1" for i in range(1200))
    url = f"/api/user/profile/{users['renter'].pk}"
    response = clients["renter"].put(url, body, content_type="application/x-www-form-urlencoded")
    _assert_envelope(response, 400)


@pytest.mark.django_db
def test_too_many_file_parts_is_a_400(clients):
    files = [SimpleUploadedFile(f"f{i}.png", b"x") for i in range(120)]
    response = clients["host"].post("/api/media/uploads", {"files": files}, format="multipart")
    assert response.status_code in (400, 413)
    _assert_envelope(response, response.status_code)


@pytest.mark.django_db
def test_a_long_query_string_is_a_json_414(api):
    _assert_envelope(api.get("/api/listing/search?q=" + "a" * 8192), 414)


@pytest.mark.django_db
def test_a_refused_csrf_check_under_api_is_json(users):
    from apps.accounts.factories import PASSWORD

    client = ApiClient(enforce_csrf_checks=True)
    client.post("/api/user/login", {"email": "renter@test.example", "password": PASSWORD}, format="json")
    _assert_envelope(client.post("/api/no/such/path", {}, format="json"), 403)


# --- 11. Headers ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_pages_send_a_nonce_csp_and_a_permissions_policy(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]+)", policy).group(1)
    assert "'unsafe-inline'" not in script_src
    assert "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "geolocation=" in response["Permissions-Policy"]
    # The nonce is in the policy when the page has an inline script, and every inline script has it.
    found = re.search(r"'nonce-([^']+)'", script_src)
    html = response.content.decode()
    inline = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:ld\+)?json\")[^>]*>", html)
    assert bool(found) == bool(inline)
    for tag in inline:
        assert f'nonce="{found.group(1)}"' in tag


@pytest.mark.django_db
def test_the_policy_lets_dashboard_pages_open_the_socket_they_are_given(users, settings):
    from django.test import Client

    client = Client()
    client.force_login(users["host"])
    for url, allowed in (
        ("ws://localhost:8150/ws/", "ws://localhost:8150"),
        ("wss://live.example.com/ws/", "wss://live.example.com"),
    ):
        settings.WEBSOCKET_URL = url
        response = client.get("/message")
        assert f'"websocketUrl": "{url}"' in response.content.decode()
        connect_src = re.search(r"connect-src ([^;]+)", response["Content-Security-Policy"]).group(1).split()
        assert allowed in connect_src and "'self'" in connect_src
    settings.WEBSOCKET_URL = "/ws/"  # the same origin: 'self' allows it, nothing is added
    connect_src = re.search(r"connect-src ([^;]+)", client.get("/message")["Content-Security-Policy"]).group(1)
    assert "ws" not in connect_src.replace("'self'", "")


@pytest.mark.django_db
def test_the_dashboard_inline_script_carries_the_nonce(clients, users):
    from django.test import Client

    client = Client()
    client.force_login(users["host"])
    response = client.get("/dashboard")
    if response.status_code == 302:
        response = client.get(response["Location"])
    nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
    again = client.get(response.wsgi_request.path)
    assert re.search(r"'nonce-([^']+)'", again["Content-Security-Policy"]).group(1) != nonce  # fresh each time
    inline = re.findall(
        r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:ld\+)?json\")[^>]*>", response.content.decode()
    )
    assert inline
    assert all(f'nonce="{nonce}"' in tag for tag in inline)


@pytest.mark.django_db
def test_anonymous_pages_are_gzipped_for_browsers_that_accept_it_and_nothing_else_is(client, users):
    import gzip

    from django.test import Client

    from apps.listings.factories import ListingFactory

    ListingFactory.create_batch(3, host=users["host"])
    page = client.get("/property-listing", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert page["Content-Encoding"] == "gzip" and "Accept-Encoding" in page["Vary"]
    assert gzip.decompress(page.content).startswith(b"<!doctype html>")
    assert "Content-Encoding" not in client.get("/property-listing")
    # No secret goes out compressed: not the API's JSON, not a signed-in visitor's page.
    answer = client.get("/api/listing/property-listing?page=1&limit=6", HTTP_ACCEPT_ENCODING="gzip")
    assert "Content-Encoding" not in answer and answer.json()["data"]
    signed_in = Client()
    signed_in.force_login(users["renter"])
    assert "Content-Encoding" not in signed_in.get("/property-listing", HTTP_ACCEPT_ENCODING="gzip")
    # Files keep their own encoding: whitenoise sends the compressed copies, photos are not packed.
    assert "Content-Encoding" not in client.get("/static/img/favicon.svg", HTTP_ACCEPT_ENCODING="gzip")


def test_static_files_are_not_open_to_every_origin(client):
    response = client.get("/static/img/favicon.svg")
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response


# --- 12. Pending listings keep their availability private -----------------------------------------


@pytest.mark.django_db
def test_the_availability_of_a_pending_listing_is_only_for_its_host_and_staff(clients, users):
    from apps.listings.factories import ListingFactory

    listing = ListingFactory(host=users["host"], status="pending")
    url = f"/api/listing/get-availability/{listing.pk}"
    assert clients["renter"].get(url).status_code == 404
    assert clients["other_host"].get(url).status_code == 404
    assert clients["host"].get(url).status_code == 200
    assert clients["admin"].get(url).status_code == 200


# --- 14. The production image carries no development data -----------------------------------------


def test_the_image_leaves_development_files_out():
    ignored = (BASE_DIR / ".dockerignore").read_text().split()
    for entry in (".venv", "node_modules", ".git", ".data", "docker/.env"):
        assert any(line.strip("/*") == entry or line.strip("/").startswith(entry) for line in ignored), entry
    compose = (BASE_DIR / "docker" / "compose.yaml").read_text()
    assert "DATA_DIR: /data" in compose
    assert "VAPID_PRIVATE_KEY" in (BASE_DIR / "docker" / ".env.example").read_text()


def test_production_push_keys_come_from_the_environment(settings, tmp_path, monkeypatch):
    from apps.notifications import push

    settings.PRODUCTION = True
    settings.DATA_DIR = tmp_path
    monkeypatch.delenv("VAPID_PUBLIC_KEY", raising=False)
    monkeypatch.delenv("VAPID_PRIVATE_KEY", raising=False)
    push.vapid_keys.cache_clear()
    try:
        with pytest.raises(RuntimeError):
            push.vapid_keys()
        assert not (tmp_path / "vapid.json").exists()
    finally:
        push.vapid_keys.cache_clear()
