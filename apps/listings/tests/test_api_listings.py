"""Listing API: create, edit, activate, delete, lists, moderation, with the role matrix."""

import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core.schema_check import check
from apps.core.testing import check_role_matrix
from apps.listings.factories import ListingFactory, OfficeListingFactory
from apps.listings.models import Listing, ListingRequest, ListingStatus
from apps.listings.policies import is_public
from apps.notifications.models import Notification

from .fixtures_api import catalogue, event_payload, media_root, office_payload, upload  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def images(clients, media_root):  # noqa: F811
    return upload(clients["host"])


def create(client, payload):
    return client.post("/api/listing/create", payload, format="json")


# --- Create -------------------------------------------------------------------------------------


def test_host_creates_an_event_space_that_waits_for_review(clients, users, images, catalogue):  # noqa: F811
    payload = event_payload(images, amenities=[str(catalogue["wifi"].pk)], facilities=[str(catalogue["kitchen"].pk)])
    response = create(clients["host"], payload)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["message"] == "Listing submitted. It will be published once it is approved."
    data = body["data"]
    assert data["status"] == "pending" and data["requestId"]
    assert data["images"] == images
    assert data["host"]["_id"] == str(users["host"].pk) and data["createdBy"] == str(users["host"].pk)
    assert data["hourly"] == "80.00" and data["guest"] == 60 and data["minimumDays"] == 2
    assert data["servicesAndAddOns"][0]["title"] == "Catering"
    assert [a["name"] for a in data["amenities"]] == ["Wi-Fi"] and data["facilities"][0]["name"] == "Kitchen"
    assert data["slug"].startswith("loft-by-the-river-")
    assert data["favourite"] is False and data["isDeleted"] is False
    assert ListingRequest.objects.get(pk=data["requestId"]).kind == "new"
    # staff hear about it
    assert Notification.objects.filter(user=users["admin"], kind="listingSubmitted").exists()


def test_sub_host_creates_for_its_host(clients, users, images):
    response = create(clients["sub_host"], office_payload(images))
    assert response.status_code == 201, response.content
    data = response.json()["data"]
    assert data["host"]["_id"] == str(users["host"].pk)
    assert data["createdBy"] == str(users["sub_host"].pk)
    offerings = {item["kind"]: item for item in data["spaceOffering"]}
    assert offerings["hotDesk"]["daily"] == "25.00" and offerings["hotDesk"]["title"] == "Hot Desk"
    assert offerings["meetingSpace"]["hourly"] == "30.00" and offerings["meetingSpace"]["minimumPeriod"] == 2
    # the listing's own prices are the offerings' "from" prices
    assert data["daily"] == "25.00" and data["hourly"] == "30.00" and data["monthly"] == "380.00"
    assert data["guest"] is None


def test_create_role_matrix(clients, images):
    check_role_matrix(
        clients, "post", "/api/listing/create", allowed={"host", "sub_host", "other_host"}, data=event_payload(images)
    )


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"hourly": "-1"}, "hourly", "Hourly price cannot be negative"),
        ({"discount": "101"}, "discount", "Discount must be between 0 and 100"),
        ({"processingFee": "-0.5"}, "processingFee", "Processing fee must be between 0 and 100"),
        ({"commissionCollection": "abc"}, "commissionCollection", "Commission collection must be a number"),
        (
            {"hourly": None, "daily": None, "weekly": None},
            "hourly",
            "Event spaces need an hourly, daily or weekly price",
        ),
        ({"guest": None}, "guest", "Guest capacity is required for event spaces"),
        ({"images": []}, "images", "Add at least one image to submit the listing for review"),
        ({"title": ""}, "title", "Title is required"),
        ({"title": "x" * 141}, "title", "Title must be at most 140 characters long"),
        ({"propertyType": "castle"}, "propertyType", "Property type must be one of: eventSpace, officeSpace"),
        ({"latitude": "91"}, "latitude", "Latitude must be between -90 and 90"),
        ({"guest": "many"}, "guest", "Guest capacity must be a whole number"),
        (
            {"openingHours": {"monday": {"open": "18:00", "close": "09:00"}}},
            "openingHours",
            "On monday the closing time must be after the opening time",
        ),
        ({"blockedDates": ["tomorrow"]}, "blockedDates.0", "Blocked dates must be dates (YYYY-MM-DD)"),
        ({"amenities": [str(uuid.uuid4())]}, "amenities", "Choose each amenity from the list."),
    ],
)
def test_event_space_validation_messages(clients, images, overrides, field, message):
    payload = event_payload(images)
    payload.update(overrides)
    response = create(clients["host"], payload)
    assert response.status_code == 400, response.content
    body = response.json()
    assert message in body["errors"][field], body
    assert Listing.objects.count() == 0


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"spaceOffering": []}, "spaceOffering", "Work spaces need at least one space offering with a price"),
        (
            {"spaceOffering": [{"kind": "hotDesk"}]},
            "spaceOffering.0.price",
            "Hot Desk needs a price per day, week, month",
        ),
        (
            {"spaceOffering": [{"kind": "privateCabin", "hourly": "10"}]},
            "spaceOffering.0.hourly",
            "Private Cabin is sold by the month; remove its hourly price",
        ),
        ({"spaceOffering": [{"kind": "throne", "daily": "10"}]}, "spaceOffering.0.kind", None),
        (
            {"spaceOffering": [{"kind": "hotDesk", "daily": "-3"}]},
            "spaceOffering.0.daily",
            "Daily price cannot be negative",
        ),
        (
            {"spaceOffering": [{"kind": "hotDesk", "daily": "3"}, {"title": "hot desk", "daily": "4"}]},
            "spaceOffering",
            "Each space offering may appear only once",
        ),
    ],
)
def test_office_space_validation_messages(clients, images, overrides, field, message):
    payload = office_payload(images)
    payload.update(overrides)
    response = create(clients["host"], payload)
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert field in errors, errors
    if message:
        assert message in errors[field]


def test_bad_bodies_get_a_clear_400(clients, images):
    host = clients["host"]
    response = host.post("/api/listing/create", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"] == "The request body could not be read. Send valid JSON or form data."
    assert create(host, ["a", "list"]).status_code == 400
    assert create(host, event_payload(images, description="d" * 100_000)).status_code == 400
    assert create(host, event_payload(images, guest=10**20)).status_code == 400
    assert create(host, event_payload(images, hourly="1e999")).status_code == 400
    assert create(host, event_payload(images, spaceOffering="hotDesk")).status_code == 400
    assert create(host, event_payload(images, openingHours=["monday"])).status_code == 400
    weird = create(host, event_payload(images, title="Café ☕ '; DROP TABLE listings_listing; --"))
    assert weird.status_code == 201 and weird.json()["data"]["title"].startswith("Café ☕")


@pytest.mark.parametrize("written", ["1e2", "1E2", "1_00", "+100", "100 "])
def test_prices_are_plain_decimals(clients, images, written):
    response = create(clients["host"], event_payload(images, hourly=written))
    assert response.status_code == 400, response.content
    assert response.json()["errors"]["hourly"] == ["Hourly price must be a number"]
    assert not Listing.objects.exists()


def test_capacity_is_capped_per_kind_of_space(clients, images):
    host = clients["host"]
    work = create(host, office_payload(images, numberOfSeats=100_000, guest=100_000))
    assert work.status_code == 400, work.content
    assert work.json()["errors"]["numberOfSeats"] == ["Number of seats must be at most 1,000 for a work space"]
    assert work.json()["errors"]["guest"] == ["Guest capacity must be at most 1,000 for a work space"]
    offering = office_payload(images)
    offering["spaceOffering"][0]["seats"] = 5_000
    assert create(host, offering).json()["errors"]["spaceOffering"] == [
        "Seats of a space offering must be at most 1,000 for a work space"
    ]
    event = create(host, event_payload(images, guest=100_000))
    assert event.json()["errors"]["guest"] == ["Guest capacity must be at most 5,000 for an event space"]
    assert not Listing.objects.exists()
    at_the_cap = create(host, event_payload(images, guest=5_000))
    assert at_the_cap.status_code == 201, at_the_cap.content


def test_images_must_be_the_hosts_own_uploads(clients, images, media_root):  # noqa: F811
    others = upload(clients["other_host"])
    response = create(clients["host"], event_payload(others))
    assert response.status_code == 400
    assert response.json()["errors"]["images"] == ["Use images you uploaded for this listing."]
    response = create(clients["host"], event_payload(["../../etc/passwd"]))
    assert response.status_code == 400
    assert response.json()["errors"]["filesPath"] == ["This file path is outside the uploads area."]
    missing = images[0].replace(images[0].rsplit("/", 1)[1][:32], "0" * 32)
    assert create(clients["host"], event_payload([missing])).json()["errors"]["images"] == [
        "An image was not found. Upload it again."
    ]
    # the sub-host shares its host's uploads
    assert create(clients["sub_host"], event_payload(images)).status_code == 201


# --- Moderation ---------------------------------------------------------------------------------


def review(client, request_id, status, reason=""):
    return client.patch(
        f"/api/listing/update-request-status/{request_id}", {"status": status, "reason": reason}, format="json"
    )


def test_admin_approves_a_new_listing_and_the_host_is_told(clients, users, images):
    data = create(clients["host"], event_payload(images)).json()["data"]
    response = review(clients["moderator"], data["requestId"], "approved")
    assert response.status_code == 200, response.content
    assert response.json()["data"]["status"] == "approved"
    listing = Listing.objects.get(pk=data["_id"])
    assert listing.status == ListingStatus.APPROVED and listing.approved_at and is_public(listing)
    note = Notification.objects.get(user=users["host"], kind="listingApproved")
    assert note.link == f"/listing-details/{listing.slug}"
    # deciding twice is a conflict
    again = review(clients["admin"], data["requestId"], "rejected", "Too late")
    assert again.status_code == 409
    # and the listing's requestId is cleared
    single = clients["host"].get(f"/api/listing/get-single/{listing.pk}").json()["data"]
    assert single["requestId"] is None and single["status"] == "approved"


def test_rejection_needs_a_reason_and_the_host_can_resubmit(clients, users, images):
    data = create(clients["host"], event_payload(images)).json()["data"]
    no_reason = review(clients["admin"], data["requestId"], "rejected", "   ")
    assert no_reason.status_code == 400
    assert no_reason.json()["errors"]["reason"] == ["Please give a reason for the rejection"]
    assert review(clients["admin"], data["requestId"], "maybe").status_code == 400
    response = review(clients["admin"], data["requestId"], "rejected", "The photos are blurry.")
    assert response.status_code == 200
    listing = Listing.objects.get(pk=data["_id"])
    assert listing.status == ListingStatus.REJECTED and listing.reject_reason == "The photos are blurry."
    assert "The photos are blurry." in Notification.objects.get(user=users["host"], kind="listingRejected").content
    # editing a rejected listing sends it back for review
    edited = clients["sub_host"].put(
        f"/api/listing/update/{listing.pk}", event_payload(images, title="Sharper loft"), format="json"
    )
    assert edited.status_code == 200, edited.content
    assert edited.json()["data"]["status"] == "pending" and edited.json()["data"]["rejectReason"] == ""
    assert edited.json()["data"]["requestId"] not in (None, data["requestId"])


def test_review_role_matrix(clients, images):
    request_id = create(clients["host"], event_payload(images)).json()["data"]["requestId"]
    statuses = check_role_matrix(
        clients,
        "patch",
        f"/api/listing/update-request-status/{request_id}",
        allowed={"moderator", "admin"},
        data={"status": "rejected", "reason": "Incomplete"},
    )
    assert statuses["moderator"] == 200 and statuses["admin"] == 409
    assert review(clients["admin"], uuid.uuid4(), "approved").status_code == 404


def test_substantive_edit_of_an_approved_listing_waits_for_review(clients, users, images):
    listing = ListingFactory(host=users["host"], images=0, title="Old title", guest=10)
    listing.images.create(path=images[0], position=0)
    url = f"/api/listing/update/{listing.pk}"
    response = clients["host"].put(url, event_payload(images, title="New title", guest=80), format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["message"].startswith("Your changes were sent for review.")
    assert body["data"]["title"] == "Old title" and body["data"]["guest"] == 10  # live listing unchanged
    request = ListingRequest.objects.get(pk=body["data"]["requestId"])
    assert request.kind == "edit" and "title" in request.changed_fields and "guest" not in request.changed_fields
    # a second edit replaces the proposal instead of opening another request
    clients["sub_host"].put(url, event_payload(images, title="Newer title"), format="json")
    assert ListingRequest.objects.filter(listing=listing).count() == 1
    # the host sees it under other-requests
    page = clients["host"].get("/api/listing/get-all-requests?filters[type]=edit").json()
    check("ListingRequestPage", page)
    others = page["data"]
    assert others["totalCount"] == 1 and others["requests"][0]["payload"]["title"] == "Newer title"
    assert review(clients["admin"], request.pk, "approved").status_code == 200
    listing.refresh_from_db()
    assert listing.title == "Newer title" and listing.status == ListingStatus.APPROVED


def test_rejected_edit_leaves_the_live_listing(clients, users, images):
    listing = ListingFactory(host=users["host"], images=0, title="Keep me")
    listing.images.create(path=images[0], position=0)
    body = (
        clients["host"]
        .put(f"/api/listing/update/{listing.pk}", event_payload(images, title="Change me"), format="json")
        .json()
    )
    assert review(clients["moderator"], body["data"]["requestId"], "rejected", "Misleading title").status_code == 200
    listing.refresh_from_db()
    assert listing.title == "Keep me" and listing.status == ListingStatus.APPROVED
    assert ListingRequest.objects.get(pk=body["data"]["requestId"]).reason == "Misleading title"


def _live_payload(listing, images, **overrides):
    payload = event_payload(images, **overrides)
    # make the substantive fields match the live listing
    for key, field in (
        ("description", "description"),
        ("streetAddress", "street_address"),
        ("city", "city"),
        ("state", "state"),
        ("country", "country"),
        ("postalCode", "postal_code"),
        ("address", "address"),
        ("latitude", "latitude"),
        ("longitude", "longitude"),
        ("commissionCollection", "commission_collection"),
        ("dimension", "dimension"),
        ("discount", "discount"),
        ("processingFee", "processing_fee"),
    ):
        payload[key] = str(getattr(listing, field))
    for period in ("hourly", "daily", "weekly"):
        value = getattr(listing, period)
        payload[period] = None if value is None else str(value)
    payload["servicesAndAddOns"] = []
    payload.update(overrides)
    return payload


def test_price_edit_of_an_approved_listing_waits_for_review(clients, users, images):
    listing = ListingFactory(host=users["host"], images=0, title="Loft by the river")
    listing.images.create(path=images[0], position=0)
    old_price = listing.hourly
    response = clients["host"].put(
        f"/api/listing/update/{listing.pk}", _live_payload(listing, images, hourly="99.00"), format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["message"].startswith("Your changes were sent for review.")
    listing.refresh_from_db()
    assert listing.hourly == old_price  # the live listing keeps its price
    request = ListingRequest.objects.get(listing=listing, status="pending")
    assert request.changed_fields == ["hourly"]
    review(clients["moderator"], request.pk, "approved")
    listing.refresh_from_db()
    assert str(listing.hourly) == "99.00"


def test_opening_hours_and_blocked_dates_of_an_approved_listing_apply_at_once(clients, users, images):
    listing = ListingFactory(host=users["host"], images=0, title="Loft by the river")
    listing.images.create(path=images[0], position=0)
    payload = _live_payload(listing, images, blockedDates=["2031-05-01"], bufferMinutes=45)
    response = clients["host"].put(f"/api/listing/update/{listing.pk}", payload, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["message"] == "Listing updated successfully."
    assert response.json()["data"]["requestId"] is None
    listing.refresh_from_db()
    assert [str(day) for day in listing.blocked_dates] == ["2031-05-01"] and listing.buffer_minutes == 45
    assert not ListingRequest.objects.filter(listing=listing).exists()


def test_update_role_matrix(clients, users, images):
    listing = ListingFactory(host=users["host"], pending=True)
    statuses = check_role_matrix(
        clients,
        "put",
        f"/api/listing/update/{listing.pk}",
        allowed={"host", "sub_host", "other_host"},
        data=event_payload(images),
        hidden_status=(403,),
    )
    assert statuses["host"] == 200 and statuses["sub_host"] == 200 and statuses["other_host"] == 404


# --- Activate, delete, read ---------------------------------------------------------------------


def test_toggle_active_and_role_matrix(clients, users):
    listing = ListingFactory(host=users["host"])
    url = f"/api/listing/toggle-active/{listing.pk}"
    response = clients["host"].patch(url, {"isActive": False}, format="json")
    assert response.status_code == 200 and response.json()["message"] == "Listing deactivated."
    assert response.json()["data"]["isActive"] is False
    assert clients["sub_host"].patch(url, {}, format="json").json()["data"]["isActive"] is True  # toggles
    assert clients["host"].patch(url, {"isActive": "sometimes"}, format="json").status_code == 400
    statuses = check_role_matrix(
        clients, "patch", url, allowed={"host", "sub_host", "other_host", "moderator", "admin"}, data={"isActive": True}
    )
    assert statuses["other_host"] == 404 and statuses["admin"] == 200


def test_soft_delete(clients, users, images):
    listing = ListingFactory(host=users["host"])
    assert clients["other_host"].delete(f"/api/listing/delete/{listing.pk}").status_code == 404
    assert clients["renter"].delete(f"/api/listing/delete/{listing.pk}").status_code == 403
    response = clients["sub_host"].delete(f"/api/listing/delete/{listing.pk}")
    assert response.status_code == 200 and response.json()["message"] == "Listing deleted successfully."
    listing.refresh_from_db()
    assert listing.is_deleted and listing.deleted_at and not listing.is_active
    assert clients["host"].get("/api/listing/get-all").json()["data"]["totalCount"] == 0
    assert clients["renter"].get(f"/api/listing/get-single/{listing.pk}").status_code == 404
    assert clients["host"].delete(f"/api/listing/delete/{listing.pk}").status_code == 404
    assert (
        clients["host"].put(f"/api/listing/update/{listing.pk}", event_payload(images), format="json").status_code
        == 404
    )
    check_role_matrix(
        clients,
        "delete",
        f"/api/listing/delete/{ListingFactory(host=users['host']).pk}",
        allowed={"host", "sub_host", "other_host", "moderator", "admin"},
    )


def test_get_single_visibility(clients, users):
    pending = ListingFactory(host=users["host"], pending=True)
    approved = ListingFactory(host=users["other_host"])
    for actor in ("host", "sub_host", "moderator", "admin"):
        assert clients[actor].get(f"/api/listing/get-single/{pending.pk}").status_code == 200, actor
    for actor in ("renter", "other_host"):
        assert clients[actor].get(f"/api/listing/get-single/{pending.pk}").status_code == 404, actor
    check_role_matrix(
        clients,
        "get",
        f"/api/listing/get-single/{approved.pk}",
        allowed={"renter", "other_renter", "host", "other_host", "sub_host", "moderator", "admin"},
    )
    assert clients["renter"].get("/api/listing/get-single/not-a-uuid").status_code == 404


# --- Lists ----------------------------------------------------------------------------------------


def test_get_all_scope_filters_and_pages(clients, users):
    mine = [ListingFactory(host=users["host"], title=f"Event {n}") for n in range(11)]
    OfficeListingFactory(host=users["host"], pending=True, title="Quiet desks")
    old = ListingFactory(host=users["host"], title="Old hall")
    Listing.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=40))
    ListingFactory(host=users["other_host"], title="Not mine")

    page = clients["host"].get("/api/listing/get-all").json()["data"]
    assert page["totalCount"] == 13 and len(page["listings"]) == 10 and page["totalPages"] == 2
    assert clients["host"].get("/api/listing/get-all?page=2").json()["data"]["listings"].__len__() == 3
    assert clients["sub_host"].get("/api/listing/get-all").json()["data"]["totalCount"] == 13
    assert clients["other_host"].get("/api/listing/get-all").json()["data"]["totalCount"] == 1
    assert clients["admin"].get("/api/listing/get-all").json()["data"]["totalCount"] == 14

    def count(query):
        response = clients["host"].get("/api/listing/get-all?" + query)
        assert response.status_code == 200, response.content
        return response.json()["data"]["totalCount"]

    assert count("filters[status]=pending") == 1
    assert count("filters[propertyType]=officeSpace") == 1
    assert count("filters[title]=quiet") == 1
    assert count("filters[period]=monthly") == 12
    assert count("filters[period]=daily&filters[status]=approved") == 11
    assert count("filters[title]=" + "%27%3B%20DROP%20TABLE%20x%3B--") == 0
    for bad in (
        "filters[status]=deleted",
        "filters[period]=yearly",
        "filters[propertyType]=castle",
        "page=0",
        "limit=abc",
        "filters[title]=" + "x" * 500,
    ):
        response = clients["host"].get("/api/listing/get-all?" + bad)
        assert response.status_code == 400, bad
        assert response.json()["message"]
    assert mine


def test_get_all_role_matrix_and_query_count(clients, users):
    check_role_matrix(
        clients, "get", "/api/listing/get-all", allowed={"host", "other_host", "sub_host", "moderator", "admin"}
    )
    ListingFactory(host=users["host"])

    def queries():
        with CaptureQueriesContext(connection) as context:
            assert clients["admin"].get("/api/listing/get-all").status_code == 200
        return len(context.captured_queries)

    few = queries()
    assert 0 < few <= 10
    for _ in range(5):
        OfficeListingFactory(host=users["host"], images=2)
    assert queries() == few


def test_get_all_requests_scope_and_filters(clients, users, images):
    first = create(clients["host"], event_payload(images, title="First hall")).json()["data"]
    create(clients["sub_host"], event_payload(images, title="Second hall"))
    other_images = upload(clients["other_host"])
    create(clients["other_host"], event_payload(other_images, title="Elsewhere"))
    review(clients["admin"], first["requestId"], "rejected", "Missing details")

    def data(actor, query=""):
        response = clients[actor].get("/api/listing/get-all-requests" + query)
        assert response.status_code == 200, response.content
        return response.json()["data"]

    assert data("admin")["totalCount"] == 3
    assert data("moderator", "?filters[status]=pending")["totalCount"] == 2
    assert data("host")["totalCount"] == 2 and data("sub_host")["totalCount"] == 2
    assert data("other_host")["totalCount"] == 1
    rejected = data("host", "?filters[status]=rejected")["requests"][0]
    assert rejected["reason"] == "Missing details" and rejected["listing"]["title"] == "First hall"
    assert data("host", "?filters[title]=second&filters[type]=new&filters[period]=daily")["totalCount"] == 1
    assert data("host", "?filters[type]=edit")["totalCount"] == 0
    assert clients["host"].get("/api/listing/get-all-requests?filters[type]=other").status_code == 400
    check_role_matrix(
        clients,
        "get",
        "/api/listing/get-all-requests",
        allowed={"host", "other_host", "sub_host", "moderator", "admin"},
    )
