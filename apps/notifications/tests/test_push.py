"""Browser push through the real pywebpush against a fake push service on 127.0.0.1."""

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from apps.core.models import Effect
from apps.core.testing import check_role_matrix
from apps.notifications.effects import push_to_browser
from apps.notifications.models import PushSubscription
from apps.notifications.push import PushFailed, vapid_keys
from apps.notifications.services import notify

pytestmark = pytest.mark.django_db

SUBSCRIBE = "/api/notifications/push/subscribe"
UNSUBSCRIBE = "/api/notifications/push/unsubscribe"
PUBLIC_KEY = "/api/notifications/push/public-key"
SIGNED_IN = ("renter", "other_renter", "host", "other_host", "sub_host", "moderator", "admin")


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class FakePushService:
    """Records each POST and answers ``self.status`` (201 like a real push service by default)."""

    def __init__(self):
        self.requests: list[dict] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.requests.append(
                    {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
                )
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A browser's side of a push subscription: its key pair and auth secret."""

    def __init__(self, endpoint: str):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.auth = os.urandom(16)
        self.subscription = {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict:
        return json.loads(
            http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm")
        )


@pytest.fixture
def push_service():
    service = FakePushService()
    yield service
    service.close()


def test_push_endpoints_role_matrix(clients, push_service):
    check_role_matrix(clients, "get", PUBLIC_KEY, allowed=SIGNED_IN)
    browser = Browser(push_service.url + "/sub/matrix")
    check_role_matrix(clients, "post", SUBSCRIBE, allowed=SIGNED_IN, data=browser.subscription)
    check_role_matrix(
        clients, "post", UNSUBSCRIBE, allowed=SIGNED_IN, data={"endpoint": browser.subscription["endpoint"]}
    )


def test_public_key_is_the_vapid_key(clients):
    key = clients["renter"].get(PUBLIC_KEY).json()["data"]["publicKey"]
    assert key == vapid_keys()["publicKey"]
    raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(raw) == 65 and raw[0] == 4


def test_a_notification_is_pushed_encrypted_and_signed(clients, users, push_service):
    browser = Browser(push_service.url + "/sub/abc")
    response = clients["renter"].post(SUBSCRIBE, browser.subscription, format="json")
    assert response.status_code == 201
    assert clients["renter"].post(SUBSCRIBE, browser.subscription, format="json").status_code == 200
    clients["host"].patch("/api/notifications/mark-all-as-read")  # unrelated traffic sends nothing

    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        notify(user=users["renter"], kind="bookingApproved", content="Your booking was approved.", link="/booking/9")

    assert len(push_service.requests) == 1
    sent = push_service.requests[0]
    assert sent["path"] == "/sub/abc"
    assert sent["headers"]["content-encoding"] == "aes128gcm"
    assert sent["headers"]["authorization"].startswith("vapid t=")
    assert f"k={vapid_keys()['publicKey']}" in sent["headers"]["authorization"]
    assert int(sent["headers"]["ttl"]) > 0
    payload = browser.decrypt(sent["body"])
    assert payload["body"] == "Your booking was approved." and payload["url"] == "/booking/9"
    assert PushSubscription.objects.get().last_success_at is not None


def test_no_push_when_the_kind_is_off(clients, users, push_service):
    users["renter"].notification_settings = {"bookingApproved": {"push": False}}
    users["renter"].save()
    clients["renter"].post(SUBSCRIBE, Browser(push_service.url + "/sub/off").subscription, format="json")
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        notify(user=users["renter"], kind="bookingApproved", content="x")
        notify(user=users["renter"], kind="bookingRejected", content="y")
    assert len(push_service.requests) == 1


@pytest.mark.parametrize("status", [404, 410])
def test_an_expired_subscription_is_removed(clients, users, push_service, status):
    push_service.status = status
    clients["host"].post(SUBSCRIBE, Browser(push_service.url + "/sub/gone").subscription, format="json")
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        notify(user=users["host"], kind="bookingRequested", content="New request")
    assert len(push_service.requests) == 1
    assert not PushSubscription.objects.exists()


def test_other_failures_keep_the_subscription_never_break_the_request_and_are_retried(clients, users, push_service):
    push_service.status = 500
    clients["host"].post(SUBSCRIBE, Browser(push_service.url + "/sub/flaky").subscription, format="json")
    subscription = PushSubscription.objects.get()
    # Inside a request: the failure is logged, the caller's answer is unaffected.
    from django.test import TestCase

    from apps.notifications.models import Notification

    with TestCase.captureOnCommitCallbacks(execute=True):  # as its transaction's commit would
        notification = notify(user=users["host"], kind="bookingRequested", content="New request")
    response = clients["host"].patch(f"/api/notifications/mark-as-read/{notification.id}")
    assert response.status_code == 200
    with TestCase.captureOnCommitCallbacks(execute=True):
        notify(user=users["host"], kind="bookingRequested", content="Another")
    assert Notification.objects.filter(user=users["host"]).count() == 2
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()
    # The failed push stays queued: the worker tries it again later, with backoff.
    failed = Effect.objects.get(
        kind="notifications.push_one", key__endswith=str(subscription.pk), payload__payload__body="Another"
    )
    assert (failed.status, failed.attempts) == ("pending", 1) and "PushFailed" in failed.last_error
    with pytest.raises(PushFailed):
        push_to_browser(subscription_id=str(subscription.pk), payload={"title": "t", "body": "b"}, key="k")


def test_an_unreachable_push_service_is_a_retryable_failure(clients, users):
    clients["host"].post(SUBSCRIBE, Browser("http://127.0.0.1:9/sub/down").subscription, format="json")
    subscription = PushSubscription.objects.get()
    with pytest.raises(PushFailed):
        push_to_browser(subscription_id=str(subscription.pk), payload={"title": "t"}, key="k")
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()


def test_unsubscribe_removes_only_own(clients, users, push_service):
    browser = Browser(push_service.url + "/sub/mine")
    clients["renter"].post(SUBSCRIBE, browser.subscription, format="json")
    other = clients["other_renter"].post(UNSUBSCRIBE, {"endpoint": browser.subscription["endpoint"]}, format="json")
    assert other.json()["data"]["updated"] == 0 and PushSubscription.objects.exists()
    mine = clients["renter"].post(UNSUBSCRIBE, {"endpoint": browser.subscription["endpoint"]}, format="json")
    assert mine.json()["data"]["updated"] == 1 and not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "mutate",
    [
        lambda s: s.update(endpoint="not a url"),
        lambda s: s.update(endpoint="ftp://push.example/x"),
        lambda s: s.update(endpoint="http://push.example/x"),
        lambda s: s.update(endpoint="https://push.example/" + "x" * 1100),
        lambda s: s["keys"].update(p256dh="short"),
        lambda s: s["keys"].update(p256dh="!!!notbase64!!!"),
        lambda s: s["keys"].update(auth=b64(b"x" * 15)),
        lambda s: s["keys"].update(auth=5),
        lambda s: s.pop("keys"),
        lambda s: s.update(keys="'; DROP TABLE x; --"),
        lambda s: s.update(endpoint="https://push.example/é🙂"),
    ],
)
def test_subscribe_bad_inputs(clients, mutate):
    subscription = Browser("https://push.example/sub/1").subscription
    mutate(subscription)
    response = clients["renter"].post(SUBSCRIBE, subscription, format="json")
    if subscription.get("endpoint") == "https://push.example/é🙂":
        assert response.status_code in (201, 400)
    else:
        assert response.status_code == 400, response.content
        assert response.json()["message"]
        assert not PushSubscription.objects.exists()


def test_subscribe_malformed_json(clients):
    response = clients["renter"].post(SUBSCRIBE, '{"endpoint":', content_type="application/json")
    assert response.status_code == 400


def test_production_refuses_private_endpoints(settings):
    from apps.core.exceptions import InvalidInput
    from apps.notifications.services import push_subscribe

    settings.DEBUG = False
    settings.TESTING = False
    keys = Browser("https://x").subscription["keys"]
    for endpoint in ("http://127.0.0.1:8000/x", "https://127.0.0.1/x", "https://10.0.0.5/x", "https://localhost/x"):
        with pytest.raises(InvalidInput):
            push_subscribe(user=None, endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"])


def test_service_worker_is_served_at_the_root(api):
    response = api.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert 'addEventListener("push"' in body and "notificationclick" in body
