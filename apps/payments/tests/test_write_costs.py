"""What the booking writes cost inside the request: SQL queries and Redis round trips.

The approval is the host's most frequent write. Everything that is not the decision itself (the
renter's notification on open pages, e-mail and push, the fresh pending counters, the payment
capture) is queued in the outbox inside the same transaction and carried out by the worker, so
the request stays a fixed, small number of round trips whatever the booking carries.
"""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.bookings import services as bookings
from apps.bookings.models import Booking
from apps.bookings.times import LOCAL_TZ
from apps.core.effects import effects_run_batch
from apps.core.models import Effect
from apps.core.testing import ApiClient, RedisRoundTrips
from apps.listings.factories import ListingFactory
from apps.notifications.models import Notification
from apps.payments.models import Payment
from apps.payments.tests.conftest import pay_locally
from config.celery import app as celery_app

pytestmark = pytest.mark.django_db

MAX_QUERIES = 12
MAX_REDIS = 2


@pytest.fixture
def worker_apart(local_gateway):
    """As in production: the request only queues the worker's tasks (no task runs inline)."""
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = eager


def _request(renter, listing, days: int) -> Booking:
    day = timezone.now().astimezone(LOCAL_TZ).date() + dt.timedelta(days=days)
    return bookings.booking_request(
        renter=renter,
        listing_id=listing.pk,
        check_in_date=day,
        check_out_date=day,
        start_time=dt.time(10),
        end_time=dt.time(14),
        guests=2,
    )


def _approve(client: ApiClient, booking: Booking):
    with CaptureQueriesContext(connection) as queries, RedisRoundTrips() as redis:
        response = client.patch(f"/api/booking/update-status/{booking.pk}", {"status": "approved"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["data"]["status"] == "approved"
    return queries, redis


@pytest.mark.parametrize("preference", ["payNow", "payLater"])
def test_approving_stays_within_its_round_trips(users, clients, api, worker_apart, preference):
    listing = ListingFactory(host=users["host"], hourly=Decimal("50"), payment_preference=preference)
    # A first approval warms what any long-running server has warm (connections, caches).
    warmup = _request(users["other_renter"], listing, 12)
    if preference == "payNow":
        pay_locally(api, clients["other_renter"], warmup)
    _approve(clients["host"], warmup)

    booking = _request(users["renter"], listing, 10)
    if preference == "payNow":
        pay_locally(api, clients["renter"], booking)
    queued_before = set(Effect.objects.values_list("pk", flat=True))

    queries, redis = _approve(clients["host"], booking)

    sql = "\n".join(q["sql"][:160] for q in queries.captured_queries)
    assert len(queries) <= MAX_QUERIES, f"{len(queries)} queries:\n{sql}"
    assert redis.count <= MAX_REDIS, f"{redis.count} Redis round trips: {redis.commands}"
    # What the request left to the worker is queued, not lost, and one task carries it all: the
    # renter's notification on open pages, the host's fresh counters, the capture of a held payment.
    queued = Effect.objects.exclude(pk__in=queued_before)
    kinds = set(queued.values_list("kind", flat=True))
    assert {"notifications.live", "notifications.counters"} <= kinds
    assert redis.commands.count("LPUSH") == 1
    if preference == "payNow":
        assert "payments.capture" in kinds
        assert Payment.objects.get(booking=booking).status == "authorized"  # not captured in the request

    # The worker's turn: every effect done, the payment captured.
    results = effects_run_batch([str(pk) for pk in queued.values_list("pk", flat=True)])
    assert set(results) == {"done"}, results
    assert Notification.objects.filter(user=users["renter"], kind="bookingApproved").exists()
    if preference == "payNow":
        assert Payment.objects.get(booking=booking).status == "completed"


def test_a_booking_request_stays_within_its_round_trips(users, clients, worker_apart):
    listing = ListingFactory(host=users["host"], hourly=Decimal("50"), payment_preference="payLater")

    def create(days: int):
        day = (timezone.now().astimezone(LOCAL_TZ).date() + dt.timedelta(days=days)).strftime("%d-%m-%Y")
        body = {"listingId": str(listing.pk), "checkInDate": day, "checkOutDate": day}
        body |= {"startTime": "10:00 AM", "endTime": "02:00 PM", "guests": 2}
        with CaptureQueriesContext(connection) as queries, RedisRoundTrips() as redis:
            response = clients["renter"].post("/api/booking/create", body, format="json")
        assert response.status_code == 201, response.content
        return response, queries, redis

    create(12)  # warm
    response, queries, redis = create(10)

    # 9 before imported calendars and replaced checkouts; 3 more since: the renter's own abandoned
    # request for the time (replaced by this one), the listing's time lock shared with calendar
    # imports, and the imported blocks over the time.
    assert len(queries) <= 12, "\n".join(q["sql"][:160] for q in queries.captured_queries)
    # The session's check, the dated searches' cache version (time is now held) and the hand-off.
    assert redis.count <= 3, redis.commands
    assert redis.commands.count("LPUSH") == 1
    # The answer is the stored booking as its detail shows it: pending, holding its time, its history.
    data = response.json()["data"]
    booking = Booking.objects.get(pk=data["_id"])
    assert data["status"] == booking.status == "pending"
    assert data["extendBooking"] == [] and [e["toStatus"] for e in data["statusHistory"]] == ["pending"]
    assert booking.occupancies.filter(active=True).count() == 1
