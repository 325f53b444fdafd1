"""The role matrix, generated from docs/openapi.yaml: every object endpoint (an operation with an id
or other value in its path) is called by every actor (anonymous, renter, other renter, host, other
host, subHost, moderator, admin) on objects the renter and the host own.

For each call: never a 5xx; the status is the one the policy table below gives; and a refused
write changes nothing in the database (every row of the marketplace's tables is compared). A new object endpoint in the schema fails the
test until it has a row in the table.
"""

import hashlib
import uuid
from pathlib import Path

import pytest
import yaml
from django.apps import apps as django_apps
from django.conf import settings
from django.core import signing
from django.db import transaction

from apps.core.testing import ACTORS, ApiClient

SCHEMA = yaml.safe_load((Path(settings.BASE_DIR) / "docs" / "openapi.yaml").read_text())
WRITES = {"post", "put", "patch", "delete"}
PROJECT_APPS = {
    "accounts",
    "listings",
    "bookings",
    "payments",
    "disputes",
    "cms",
    "notifications",
    "messaging",
    "statistics",
    "core",
}

# The policy, one row per object endpoint: the status each actor gets, in the order of ACTORS
# (anonymous, renter, other renter, host, other host, subHost, moderator, admin), with an empty body
# on the objects of the world below. Ids the world does not hold (disputes, evidence, attachments,
# invoices, payouts, subscriptions, documents) are random, so the row shows who may ask at all.
EXPECTED: dict[str, str] = {
    "DELETE /api/favourites/remove/{listing_id}": "401 200 200 403 403 403 403 403",
    "DELETE /api/listing/delete/{listing_id}": "401 403 403 409 404 409 409 409",
    "DELETE /api/user/moderators/{user_id}": "401 403 403 403 403 403 403 200",
    "DELETE /api/user/sub-hosts/{user_id}": "401 403 403 200 404 403 403 403",
    "GET /api/booking/booking/{booking_id}": "401 200 404 200 404 200 200 200",
    "GET /api/booking/listing-summary/{listing_id}": "401 404 404 200 404 200 200 200",
    "GET /api/chat/attachment/{attachment_id}": "401 404 404 404 404 404 404 404",
    "GET /api/chat/dispute/{dispute_id}": "401 403 403 403 403 403 404 404",
    "GET /api/chat/get-single/{conversation_id}": "401 200 404 200 404 200 404 404",
    "GET /api/chat/messages/{conversation_id}": "401 200 404 200 404 200 404 404",
    "GET /api/dashboard/availability-statistics/{interval}": "401 403 403 200 200 200 200 200",
    "GET /api/dashboard/get-dashboard-numbers/{interval}": "401 200 200 200 200 200 200 200",
    "GET /api/dashboard/high-demand-amenities/{property_type}": "401 403 403 200 200 200 200 200",
    "GET /api/dashboard/listing-statistics/{interval}": "401 403 403 200 200 200 200 200",
    "GET /api/dashboard/payout-requests/{status}": "401 403 403 403 403 403 403 400",
    "GET /api/dashboard/property-statistics/{interval}": "401 200 200 200 200 200 200 200",
    "GET /api/dispute/evidence/{evidence_id}": "401 404 404 404 404 403 404 404",
    "GET /api/dispute/get-single/{dispute_id}": "401 404 404 404 404 403 404 404",
    "GET /api/invoice/pdf/{id}": "401 404 404 404 404 403 403 404",
    "GET /api/listing/calendar-url/{listing_id}": "401 403 403 200 404 200 403 403",
    "GET /api/listing/calendar/{token}.ics": "200 200 200 200 200 200 200 200",
    "GET /api/host/calendar/{token}.ics": "404 404 404 404 404 404 404 404",
    "GET /api/listing/{listing_id}/calendars": "401 403 403 200 404 200 403 403",
    "POST /api/listing/{listing_id}/calendars": "401 403 403 400 404 400 403 403",
    "DELETE /api/listing/{listing_id}/calendars/{calendar_id}": "401 403 403 200 404 200 403 403",
    "POST /api/listing/{listing_id}/calendars/{calendar_id}/sync": "401 403 403 202 404 202 403 403",
    "GET /api/listing/get-availability/{listing_id}": "401 200 200 200 200 200 200 200",
    "GET /api/listing/get-single/{listing_id}": "401 200 200 200 200 200 200 200",
    "GET /api/listing/get-request/{request_id}": "401 403 403 200 404 200 200 200",
    "GET /api/reviews/booking/{booking_id}": "401 200 404 200 404 200 200 200",
    "GET /api/reviews/listing/{listing_id}": "200 200 200 200 200 200 200 200",
    "GET /api/payment/get-single/{booking_id}": "401 404 404 404 404 403 403 404",
    "GET /api/user/profile/{user_id}": "401 200 403 403 403 403 403 403",
    "GET /api/user/sub-hosts/{user_id}": "401 403 403 200 404 403 403 403",
    "GET /api/user/verification-docs/{document_id}/file": "401 404 404 404 404 404 404 404",
    "GET /api/user/verification-requests/{request_id}": "401 403 403 403 403 403 200 200",
    "GET /api/user/view-user/{user_id}": "401 200 404 200 404 200 200 200",
    "PATCH /api/booking/cancel/{booking_id}": "401 200 404 400 404 400 403 403",
    "PATCH /api/booking/update-status/{booking_id}": "401 403 403 400 404 400 403 403",
    "PATCH /api/chat/mark-as-read/{conversation_id}": "401 200 404 200 404 200 404 404",
    "PATCH /api/dispute/update-status/{dispute_id}": "401 403 403 403 403 403 404 404",
    "PATCH /api/listing/toggle-active/{listing_id}": "401 403 403 409 404 409 409 409",
    "PATCH /api/listing/update-request-status/{request_id}": "401 403 403 403 403 403 400 400",
    "PATCH /api/notifications/delete/{notification_id}": "401 200 404 404 404 404 404 404",
    "PATCH /api/notifications/mark-as-read/{notification_id}": "401 200 404 404 404 404 404 404",
    "PATCH /api/notifications/update/{notification_id}": "401 400 404 404 404 404 404 404",
    "PATCH /api/payout/update-status/{id}": "401 403 403 403 403 403 403 400",
    "PATCH /api/reviews/update-status/{review_id}": "401 403 403 403 403 403 400 400",
    "PATCH /api/user/update-status/{user_id}": "401 403 403 403 403 403 400 400",
    "PATCH /api/user/verification-requests/update-status/{request_id}": "401 403 403 403 403 403 400 400",
    "POST /api/booking/extend/{booking_id}": "401 409 404 403 403 403 403 403",
    "POST /api/booking/quote/{step}": "404 404 404 404 404 404 404 404",
    "POST /api/chat/send/{conversation_id}": "401 400 404 400 404 400 404 404",
    "POST /api/effects/{id}/retry": "401 403 403 403 403 403 403 404",
    "POST /api/favourites/add/{listing_id}": "401 201 201 403 403 403 403 403",
    "POST /api/subscription/cancel/{id}": "401 403 403 404 404 404 403 404",
    "POST /api/subscription/grant/{host_id}": "401 403 403 403 403 403 403 200",
    "POST /api/user/resend-invitation/{user_id}": "401 403 403 409 404 403 409 409",
    "PUT /api/amenities/update/{item_id}": "401 403 403 403 403 403 200 200",
    "PUT /api/booking/update-extend-status/{booking_id}": "401 403 403 400 404 400 403 403",
    "PUT /api/facilities/update/{item_id}": "401 403 403 403 403 403 200 200",
    "PUT /api/listing/update/{listing_id}": "401 403 403 400 404 400 403 403",
    "PUT /api/reviews/reply/{review_id}": "401 403 403 400 400 400 403 403",
    "PUT /api/user/profile/{user_id}": "401 200 403 403 403 403 403 403",
    "PUT /api/user/sub-hosts/{user_id}": "401 403 403 200 404 403 403 403",
}


def _object_operations() -> list[tuple[str, str]]:
    operations = []
    for path, methods in SCHEMA["paths"].items():
        if "{" not in path:
            continue
        for method in methods:
            if method in {"get", *WRITES}:
                operations.append((method, path))
    return sorted(operations)


def _fingerprint() -> str:
    """A digest of every row of the marketplace's own tables."""
    digest = hashlib.sha256()
    for model in sorted(django_apps.get_models(), key=lambda m: m._meta.label):
        if model._meta.app_label not in PROJECT_APPS or model._meta.proxy:
            continue
        for row in model.objects.order_by("pk").values_list():
            digest.update(repr(row).encode())
    return digest.hexdigest()


@pytest.fixture
def world(users, settings, tmp_path):
    from apps.bookings.factories import PricedEventListingFactory, booking_make
    from apps.listings.factories import AmenityFactory, FacilityFactory, ListingFactory
    from apps.listings.models import ListingRequest
    from apps.messaging.services import conversation_start
    from apps.notifications.models import Notification

    settings.MEDIA_ROOT = tmp_path / "uploads"
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    listing = PricedEventListingFactory(host=users["host"])
    pending = ListingFactory(host=users["host"], status="pending")
    listing_request = ListingRequest.objects.create(listing=pending, kind="new", requested_by=users["host"])
    booking = booking_make(renter=users["renter"], listing=listing)
    conversation, _ = conversation_start(user=users["renter"], listing=listing)
    notification = Notification.objects.create(
        user=users["renter"], kind="bookingApproved", type="booking", content="Approved."
    )
    from apps.accounts.models import VerificationRequest

    verification = VerificationRequest.objects.create(user=users["host"])
    from apps.bookings.models import ExternalCalendar

    # A feed on a closed local port: its sync (queued by "sync now") fails fast, without the network.
    calendar = ExternalCalendar.objects.create(listing=listing, name="Other site", url="http://127.0.0.1:9/x.ics")
    return {
        "calendar_id": calendar.pk,
        "listing_id": listing.pk,
        "pending_listing_id": pending.pk,
        "request_id": listing_request.pk,
        "booking_id": booking.pk,
        "conversation_id": conversation.pk,
        "notification_id": notification.pk,
        "verification_request_id": verification.pk,
        "item_id": AmenityFactory().pk,
        "facility_id": FacilityFactory().pk,
        "host_id": users["host"].pk,
        "token": signing.dumps(str(listing.pk), salt="bookings.ical"),
    }


def _path_values(path: str, world: dict, users: dict) -> dict[str, str]:
    values = {
        "listing_id": world["listing_id"],
        "calendar_id": world["calendar_id"],
        "booking_id": world["booking_id"],
        "conversation_id": world["conversation_id"],
        "notification_id": world["notification_id"],
        "item_id": world["item_id"],
        "host_id": world["host_id"],
        "token": world["token"],
        "request_id": world["verification_request_id"] if "/verification-requests/" in path else world["request_id"],
        "interval": "month",
        "property_type": "all",
        "status": "pending",
        "step": "booking-details",
    }
    if "/facilities/" in path:
        values["item_id"] = world["facility_id"]
    if "/sub-hosts/" in path or "/resend-invitation/" in path:
        values["user_id"] = users["sub_host"].pk
    elif "/moderators/" in path:
        values["user_id"] = users["moderator"].pk
    elif "/user/" in path:
        values["user_id"] = users["renter"].pk
    return {key: str(value) for key, value in values.items()}


def _url(path: str, values: dict[str, str]) -> str:
    url = path
    while "{" in url:
        start, end = url.index("{"), url.index("}")
        name = url[start + 1 : end]
        url = url[:start] + values.get(name, str(uuid.uuid4())) + url[end + 1 :]
    return url


@pytest.mark.slow
@pytest.mark.django_db
def test_role_matrix_over_every_object_endpoint(world, users):
    clients = {actor: ApiClient().as_user(users[actor]) for actor in ACTORS}
    matrix: dict[str, dict[str, int]] = {}
    problems: list[str] = []
    for method, path in _object_operations():
        url = _url(path, _path_values(path, world, users))
        row = {}
        for actor in ACTORS:
            # Each call starts from the same world: what one actor changed is undone before the next.
            with transaction.atomic():
                before = _fingerprint() if method in WRITES else None
                response = getattr(clients[actor], method)(url, {}, format="json")
                row[actor] = response.status_code
                if response.status_code >= 500:
                    problems.append(f"{actor} {method.upper()} {path}: {response.status_code}")
                if before is not None and response.status_code >= 400 and _fingerprint() != before:
                    problems.append(
                        f"{actor} {method.upper()} {path}: refused ({response.status_code}) but changed data"
                    )
                transaction.set_rollback(True)
        matrix[f"{method.upper()} {path}"] = row
    for key, row in matrix.items():
        got = " ".join(str(row[actor]) for actor in ACTORS)
        if key not in EXPECTED:
            problems.append(f"{key}: not in the policy table (got {got})")
        elif EXPECTED[key] != got:
            problems.append(f"{key}: expected {EXPECTED[key]}, got {got}")
    problems += [f"{key}: in the policy table but not in the schema" for key in sorted(set(EXPECTED) - set(matrix))]
    assert not problems, "\n".join(problems)


# --- The Django admin ---------------------------------------------------------------------------

# What staff may do in /django-admin/, per registered model: the status of its list, add form, change
# form and delete page (GET), for the moderator and then the admin; "-" where no row exists to open.
# Everyone else is sent to the admin's login (302). A model registered in the admin without a row here
# fails the test until its policy is written down.
ADMIN_EXPECTED: dict[str, tuple[str, str]] = {
    "account.emailaddress": ("403 403 403 403", "200 200 200 200"),
    "accounts.onetimecode": ("403 403 - -", "200 403 - -"),
    "accounts.user": ("200 403 200 403", "200 403 200 403"),
    "accounts.verificationdocument": ("200 403 - -", "200 403 - -"),
    "accounts.verificationrequest": ("200 403 200 403", "200 403 200 403"),
    "auth.group": ("403 403 - -", "200 200 - -"),
    "cms.contactdetails": ("200 403 - -", "200 200 - -"),
    "cms.page": ("200 403 - -", "200 403 - -"),
    "cms.reviewsettings": ("200 403 - -", "200 200 - -"),
    "core.effect": ("403 403 403 403", "200 403 200 403"),
    "core.statuschange": ("200 403 200 403", "200 403 200 403"),
    "disputes.dispute": ("200 403 - -", "200 403 - -"),
    "listings.amenity": ("200 200 200 403", "200 200 200 200"),
    "listings.facility": ("200 200 200 403", "200 200 200 200"),
    "listings.favourite": ("403 403 - -", "200 200 - -"),
    "listings.listing": ("200 403 200 403", "200 200 200 200"),
    "listings.listingrequest": ("200 403 200 403", "200 200 200 200"),
    "token_blacklist.blacklistedtoken": ("403 403 - -", "200 200 - -"),
    "token_blacklist.outstandingtoken": ("403 403 403 403", "200 403 200 403"),
}


def _admin_digest() -> str:
    digest = hashlib.sha256()
    for model in sorted(django_apps.get_models(), key=lambda m: m._meta.label):
        if model._meta.app_label in {"sessions", "admin"} or model._meta.proxy:
            continue
        for row in model._base_manager.order_by("pk").values_list():
            digest.update(repr(row).encode())
    return digest.hexdigest()


@pytest.mark.slow
@pytest.mark.django_db
def test_role_matrix_over_the_django_admin(world, users):
    from allauth.account.models import EmailAddress
    from django.contrib import admin
    from django.test import Client

    from apps.accounts.policies import MODERATOR_ADMIN
    from apps.accounts.services import tokens_for

    EmailAddress.objects.create(user=users["admin"], email=users["admin"].email, primary=True, verified=True)
    tokens_for(users["renter"])  # an outstanding refresh token
    staff = {}
    for actor in ACTORS:
        client = Client()
        if users[actor] is not None:
            client.force_login(users[actor])
        staff[actor] = client
    problems: list[str] = []
    for model in sorted(admin.site._registry, key=lambda m: m._meta.label_lower):
        label = model._meta.label_lower
        base = f"/django-admin/{model._meta.app_label}/{model._meta.model_name}/"
        row = model._base_manager.order_by("pk").first()
        urls = [base, f"{base}add/"]
        if row is not None:
            urls += [f"{base}{row.pk}/change/", f"{base}{row.pk}/delete/"]
        got: dict[str, str] = {}
        for actor in ACTORS:
            statuses = [str(staff[actor].get(url).status_code) for url in urls]
            statuses += ["-"] * (4 - len(statuses))
            got[actor] = " ".join(statuses)
            if actor not in ("moderator", "admin") and set(statuses) - {"302", "-"}:
                problems.append(f"{actor} reached the admin's {label}: {got[actor]}")
        if label not in ADMIN_EXPECTED:
            problems.append(f"{label}: not in the admin policy table (got {got['moderator']!r}, {got['admin']!r})")
            continue
        if (got["moderator"], got["admin"]) != ADMIN_EXPECTED[label]:
            problems.append(f"{label}: expected {ADMIN_EXPECTED[label]}, got {(got['moderator'], got['admin'])}")
        # A moderator's writes beyond its policy are refused (403) and change nothing.
        before = _admin_digest()
        allowed = MODERATOR_ADMIN.get(label, frozenset())
        for action, url in zip(("add", "change", "delete"), urls[1:], strict=False):
            if action in allowed:
                continue
            status = staff["moderator"].post(url, {"post": "yes", "name": "x", "role": "admin"}).status_code
            if status != 403:
                problems.append(f"moderator POST {url}: {status}, expected 403")
        if _admin_digest() != before:
            problems.append(f"moderator's refused POSTs on {label} changed data")
    assert not problems, "\n".join(problems)
