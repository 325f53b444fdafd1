"""A real Celery worker is killed while it captures a payment: after a restart the capture
completes, once (Stripe is called again with the same idempotency key and answers from its record)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.core.models import Effect
from apps.core.testing import database_url
from apps.payments.models import Invoice, Payment
from config.celery import app as celery_app

from .conftest import WEBHOOK_SECRET
from .fake_stripe import signed_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
WORKER = (sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "WARNING")


def _wait(condition, *, seconds: float = 90, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def worker(fake_stripe):
    """Start (and restart) a Celery worker process on this test's database, broker and fake Stripe."""
    env = {
        **os.environ,
        "DJANGO_ENV": "test",
        "DATABASE_URL": database_url(),
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "STRIPE_SECRET_KEY": "sk_test_fake",
        "STRIPE_API_BASE": fake_stripe.url,
        "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    }
    started: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        process = subprocess.Popen(  # noqa: S603  (our own interpreter and arguments)
            [*WORKER, "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started.append(process)
        return process

    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False  # this process queues to the broker like the site does
    yield start
    celery_app.conf.task_always_eager = eager
    fake_stripe.release_held.set()
    for process in started:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def test_a_worker_killed_mid_capture_completes_it_once_after_restart(api, clients, users, fake_stripe, worker):
    booking = booking_make(renter=users["renter"], listing=PricedEventListingFactory(host=users["host"]))
    assert (
        clients["renter"].post("/api/payment/checkout", {"bookingId": str(booking.pk)}, format="json").status_code
        == 200
    )
    payment = Payment.objects.get(booking=booking)
    payload, header = signed_event(
        "checkout.session.completed", fake_stripe.complete_session(payment.session_id), secret=WEBHOOK_SECRET
    )
    response = api.generic(
        "POST", "/api/payment/webhook", payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )
    assert response.status_code == 200
    payment.refresh_from_db()
    assert payment.status == "authorized"

    fake_stripe.hold_path = "/capture"  # Stripe captures, but its answer waits
    first = worker()
    bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    assert fake_stripe.held.wait(90), "the worker never called Stripe"
    intent = fake_stripe.objects[payment.payment_id]
    assert intent["status"] == "succeeded"  # the money moved at Stripe ...

    os.kill(first.pid, signal.SIGKILL)  # ... and the worker dies before recording it
    first.wait(15)
    fake_stripe.release_held.set()
    effect = Effect.objects.get(kind="payments.capture")
    payment.refresh_from_db()
    effect.refresh_from_db()
    assert payment.status == "authorized" and effect.status == "pending"

    fake_stripe.hold_path = None
    worker()  # a new worker sweeps what is due when it starts
    _wait(lambda: Effect.objects.get(pk=effect.pk).status == "done", what="the capture to complete")

    payment.refresh_from_db()
    assert payment.status == "completed" and payment.captured_amount == booking.total_amount
    assert len(fake_stripe.calls("POST", f"/v1/payment_intents/{payment.payment_id}/capture")) == 1
    assert Invoice.objects.filter(payment=payment, kind="invoice").count() == 1
