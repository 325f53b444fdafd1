"""Queries per request stay the same whatever a list page holds: every list endpoint of
docs/openapi.yaml (a GET whose answer is a page of rows, or one of the dashboard's lists of recent
rows) is called on the demo data with one row per page, then on more rows with ten per page, and
must run the same number of SQL queries both times. A new list endpoint fails the test until it has a row in ``CALLS``.
"""

import io
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext

from apps.accounts.models import User
from apps.core.testing import ApiClient

SCHEMA = yaml.safe_load((Path(settings.BASE_DIR) / "docs" / "openapi.yaml").read_text())
COMPONENTS = SCHEMA["components"]["schemas"]
# The dashboard's lists of recent rows (no page number, a fixed length; ``limit`` sets it).
RECENT_LISTS = {
    "/api/dashboard/cancelled-bookings",
    "/api/dashboard/new-reservations",
    "/api/dashboard/recent-bookings",
    "/api/dashboard/recent-listings",
    "/api/dashboard/recent-requests",
}

# Who calls each list (a demo account) and what the address needs besides the page size.
CALLS: dict[str, tuple[str, str]] = {
    "/api/amenities/manage": ("admin@example.com", ""),
    "/api/booking/booking-requests": ("host@example.com", ""),
    "/api/booking/get-all": ("renter@example.com", ""),
    "/api/chat/dispute/{dispute_id}": ("admin@example.com", ""),
    "/api/chat/get-all": ("renter@example.com", ""),
    "/api/chat/get-notifications": ("renter@example.com", ""),
    "/api/chat/messages/{conversation_id}": ("renter@example.com", ""),
    "/api/dashboard/cancelled-bookings": ("admin@example.com", ""),
    "/api/dashboard/new-reservations": ("admin@example.com", ""),
    "/api/dashboard/payment-invoices": ("admin@example.com", ""),
    "/api/dashboard/payout-requests/{status}": ("admin@example.com", ""),
    "/api/dashboard/recent-bookings": ("admin@example.com", ""),
    "/api/dashboard/recent-listings": ("admin@example.com", ""),
    "/api/dashboard/recent-requests": ("admin@example.com", ""),
    "/api/dispute/dispute-payments": ("admin@example.com", ""),
    "/api/dispute/dispute-requests": ("admin@example.com", ""),
    "/api/dispute/get-all": ("renter@example.com", ""),
    "/api/effects": ("admin@example.com", "filters[status]=all"),
    "/api/facilities/manage": ("admin@example.com", ""),
    "/api/favourites/get-all": ("renter@example.com", ""),
    "/api/invoice/get-all": ("renter@example.com", ""),
    "/api/listing/get-all": ("host@example.com", ""),
    "/api/listing/get-all-requests": ("admin@example.com", ""),
    "/api/listing/property-listing": ("", ""),
    "/api/notifications/get-all": ("renter@example.com", "filters[all]=true"),
    "/api/payment/get-all": ("renter@example.com", ""),
    "/api/payment/get-all-host-subscription": ("host@example.com", ""),
    "/api/payout/get-all": ("host@example.com", ""),
    "/api/reviews/get-all": ("admin@example.com", ""),
    "/api/reviews/listing/{listing_id}": ("", ""),
    "/api/user/hosts": ("admin@example.com", ""),
    "/api/user/moderators": ("admin@example.com", ""),
    "/api/user/renters": ("admin@example.com", ""),
    "/api/user/sub-hosts": ("host@example.com", ""),
    "/api/user/verification-requests": ("admin@example.com", ""),
}


def _resolve(node: dict) -> dict:
    while "$ref" in node:
        node = COMPONENTS[node["$ref"].rsplit("/", 1)[-1]]
    return node


def list_endpoints() -> set[str]:
    """GET paths answering a page of rows (``totalCount`` beside an array) or a list of recent rows."""
    found = set()
    for path, operations in SCHEMA["paths"].items():
        get = operations.get("get")
        if not get:
            continue
        body = get["responses"].get("200", {}).get("content", {}).get("application/json", {}).get("schema")
        if not body:
            continue
        data = _resolve(_resolve(body).get("properties", {}).get("data", {}))
        fields = data.get("properties") or {}
        if "totalCount" in fields and any(_resolve(v).get("type") == "array" for v in fields.values()):
            found.add(path)
    return found | RECENT_LISTS


def test_every_list_endpoint_is_measured():
    missing = sorted(list_endpoints() - set(CALLS))
    assert not missing, f"List endpoints without a row in CALLS: {missing}"
    assert not set(CALLS) - list_endpoints(), "CALLS names a path that is no longer a list endpoint"


def _path_values() -> dict[str, str]:
    """The busiest object of each kind a list path names."""
    from apps.disputes.models import Dispute
    from apps.listings.models import Listing
    from apps.messaging.models import Conversation

    renter = User.objects.get(email="renter@example.com")
    conversation = (
        Conversation.objects.filter(renter=renter)
        .annotate(n=Count("messages"))
        .order_by("-n")
        .values_list("pk", flat=True)
    )
    dispute = max(
        Dispute.objects.all(),
        key=lambda d: Conversation.objects.filter(renter_id=d.renter_id, host_id=d.host_id).aggregate(
            n=Count("messages")
        )["n"],
    )
    listing = Listing.objects.annotate(n=Count("reviews")).order_by("-n").values_list("pk", flat=True)
    return {
        "{conversation_id}": str(conversation.first()),
        "{dispute_id}": str(dispute.pk),
        "{listing_id}": str(listing.first()),
        "{status}": "all",
    }


def _first_rows() -> None:
    """One row for the lists the demo data leaves empty."""
    from apps.accounts.factories import UserFactory
    from apps.accounts.models import Role, VerificationRequest
    from apps.core.models import Effect, EffectStatus

    VerificationRequest.objects.create(user=UserFactory(role=Role.HOST))
    Effect.objects.create(kind="payments.capture", key="list-check-first", status=EffectStatus.FAILED)


def _more_rows() -> None:
    """Rows the demo data holds only one of where a list needs several."""
    import uuid

    from django.utils import timezone

    from apps.accounts.factories import UserFactory
    from apps.accounts.models import Role, VerificationRequest
    from apps.bookings.models import Booking, Review
    from apps.core.models import Effect, EffectStatus
    from apps.disputes.models import Dispute, DisputeStatus
    from apps.messaging.models import Conversation, Message, Side
    from apps.payments.models import SubscriptionPayment

    now = timezone.now()
    renter = User.objects.get(email="renter@example.com")
    host = User.objects.get(email="host@example.com")
    for index in range(3):
        UserFactory(role=Role.MODERATOR)
        UserFactory(role=Role.SUB_HOST, host=host)
        VerificationRequest.objects.create(user=UserFactory(role=Role.HOST))
        Effect.objects.create(kind="payments.capture", key=f"list-check-{index}", status=EffectStatus.FAILED)
        other = UserFactory(role=Role.HOST)
        conversation = Conversation.objects.create(renter=renter, host=other, last_message_text="Hello")
        Message.objects.create(conversation=conversation, sender=other, sender_side=Side.HOST, text="Hello")
    for index, payment in enumerate(list(SubscriptionPayment.objects.all()[:1]) * 3):
        payment.pk, payment.gateway_payment_id = uuid.uuid4(), f"pi_list_check_{index}"
        payment.save(force_insert=True)
    dispute = Dispute.objects.first()
    for booking in Booking.objects.filter(disputes__isnull=True)[:3]:
        dispute.pk, dispute.booking, dispute.listing_id = uuid.uuid4(), booking, booking.listing_id
        dispute.renter_id, dispute.host_id, dispute.raised_by_id = booking.renter_id, booking.host_id, booking.renter_id
        dispute.status, dispute.refund, dispute.payment = DisputeStatus.PENDING, None, None
        dispute.save(force_insert=True)
    listing = (
        Booking.objects.filter(review__isnull=True)
        .values("listing_id")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()["listing_id"]
    )
    for booking in Booking.objects.filter(listing_id=listing, review__isnull=True)[:3]:
        Review.objects.create(
            listing_id=listing, booking=booking, renter_id=booking.renter_id, rating=5, review="Fine", revealed_at=now
        )


def _rows(answer: dict) -> int:
    data = answer["data"]
    return max(len(value) for value in data.values() if isinstance(value, list))


def _measure(path: str, email: str, extra: str, values: dict[str, str], size: int) -> tuple[int, int]:
    """(queries, rows) of one warm call of ``path`` with ``size`` rows per page."""
    address = path
    for name, value in values.items():
        address = address.replace(name, value)
    client = ApiClient().as_user(User.objects.get(email=email) if email else None)
    url = f"{address}?page=1&limit={size}" + (f"&{extra}" if extra else "")
    client.get(url)  # warm: totals and lookups cached as in steady state
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.content[:300])
    return len(captured.captured_queries), _rows(response.json())


@pytest.mark.django_db
def test_queries_per_request_do_not_grow_with_the_rows_of_the_page():
    """First the demo data with one row per page, then more rows and ten per page."""
    call_command("seed_demo", stdout=io.StringIO())
    _first_rows()
    values = _path_values()
    few = {path: _measure(path, email, extra, values, 1) for path, (email, extra) in CALLS.items()}
    _more_rows()
    values = _path_values()
    many = {path: _measure(path, email, extra, values, 10) for path, (email, extra) in CALLS.items()}
    failures, thin = [], []
    for path in sorted(CALLS):
        (queries_few, rows_few), (queries_many, rows_many) = few[path], many[path]
        if not 0 < rows_few < rows_many:
            thin.append(f"{path}: {rows_few} rows, then {rows_many}")
        elif queries_few != queries_many:
            failures.append(f"{path}: {queries_few} queries for {rows_few} rows, {queries_many} for {rows_many}")
    assert not failures, "Queries grow with the rows of the page:\n" + "\n".join(failures)
    assert not thin, "The test data does not give these lists more rows:\n" + "\n".join(thin)
