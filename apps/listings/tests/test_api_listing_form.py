"""What the listing form needs beyond create and edit: drafts, photos with alt text and sizes, rich-text
descriptions, notice and booking window, and an edit request's proposed values beside the live ones."""

from decimal import Decimal

import pytest

from apps.core.schema_check import check
from apps.core.testing import check_role_matrix
from apps.listings.factories import ListingFactory
from apps.listings.models import Listing, ListingDraft, ListingImage

from .fixtures_api import catalogue, event_payload, image_file, media_root, upload  # noqa: F401

pytestmark = pytest.mark.django_db

DRAFT = "/api/listing/draft"


@pytest.fixture
def images(clients, media_root):  # noqa: F811
    return upload(clients["host"])


def create(client, payload):
    response = client.post("/api/listing/create", payload, format="json")
    assert response.status_code == 201, response.content
    return response.json()["data"]


def approve(client, request_id):
    response = client.patch(f"/api/listing/update-request-status/{request_id}", {"status": "approved"}, format="json")
    assert response.status_code == 200, response.content


# --- Drafts -----------------------------------------------------------------------------------------


def test_a_new_listing_draft_is_kept_restored_and_shared_with_the_sub_host(clients, users):
    assert clients["host"].get(DRAFT).json()["data"] is None
    body = {"step": 3, "data": {"propertyType": "officeSpace", "title": "Half-typed title"}}
    response = clients["host"].put(DRAFT, body, format="json")
    assert response.status_code == 200 and response.json()["message"] == "Draft saved."
    # a reload (another request) finds it; the sub-host acting for the host sees the same draft
    for actor in ("host", "sub_host"):
        data = clients[actor].get(DRAFT).json()["data"]
        assert data["step"] == 3 and data["data"]["title"] == "Half-typed title" and data["listingId"] is None
    # saving again replaces it (one draft per host)
    clients["sub_host"].put(DRAFT, {"step": 4, "data": {"title": "Better title"}}, format="json")
    assert ListingDraft.objects.count() == 1
    assert clients["host"].get(DRAFT).json()["data"]["data"] == {"title": "Better title"}
    # another host does not see it
    assert clients["other_host"].get(DRAFT).json()["data"] is None


def test_submitting_the_listing_discards_its_draft(clients, images):
    clients["host"].put(DRAFT, {"step": 8, "data": {"title": "Loft"}}, format="json")
    create(clients["host"], event_payload(images))
    assert clients["host"].get(DRAFT).json()["data"] is None


def test_a_draft_of_changes_to_a_listing_leaves_the_live_listing_alone(clients, users):
    listing = ListingFactory(host=users["host"], title="Live title")
    url = f"{DRAFT}?listingId={listing.pk}"
    body = {"listingId": str(listing.pk), "step": 2, "data": {"title": "Proposed"}}
    assert clients["host"].put(DRAFT, body, format="json").status_code == 200
    assert clients["host"].get(url).json()["data"]["data"]["title"] == "Proposed"
    listing.refresh_from_db()
    assert listing.title == "Live title"
    # another host can neither read nor write a draft of this listing, and nothing changes
    assert clients["other_host"].get(url).status_code == 404
    assert clients["other_host"].put(DRAFT, {**body, "data": {"title": "Hijack"}}, format="json").status_code == 404
    assert ListingDraft.objects.get(listing=listing).data == {"title": "Proposed"}
    assert clients["host"].delete(url).status_code == 200
    assert not ListingDraft.objects.exists()


def test_draft_role_matrix_and_bad_input(clients):
    check_role_matrix(clients, "get", DRAFT, allowed={"host", "sub_host", "other_host"})
    check_role_matrix(
        clients, "put", DRAFT, allowed={"host", "sub_host", "other_host"}, data={"step": 1, "data": {"a": 1}}
    )
    assert not ListingDraft.objects.filter(host__role__in=["renter", "admin", "moderator"]).exists()
    response = clients["host"].put(DRAFT, {"step": 1, "data": "nope"}, format="json")
    assert response.status_code == 400 and response.json()["errors"]["data"] == ["data must be an object"]
    response = clients["host"].put(DRAFT, {"step": 1, "data": {"description": "x" * 250_000}}, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == "This draft is too large to keep. Remove some text and try again."
    assert clients["host"].get(f"{DRAFT}?listingId=nope").status_code == 400


# --- Photos, description, notice and window ------------------------------------------------------------


def test_photos_keep_their_order_cover_and_alt_text_and_offer_sizes(clients, media_root):  # noqa: F811
    paths = upload(clients["host"], *[image_file(f"p{n}.jpg") for n in range(3)])
    images = [{"path": paths[2], "alt": "Street entrance"}, paths[0], {"path": paths[1], "alt": ""}]
    data = create(clients["host"], event_payload(images))
    assert data["images"] == [paths[2], paths[0], paths[1]]
    cover = data["photos"][0]
    assert cover["alt"] == "Street entrance" and cover["url"] == f"/uploads/{paths[2]}"
    assert cover["srcset"].endswith(f"/uploads/{paths[2]} 1600w") and "960w" in cover["srcset"]
    # an image without alt text is described by the listing's title
    assert data["photos"][1]["alt"] == "Loft by the river"
    response = clients["host"].post(
        "/api/listing/create", event_payload([{"path": paths[0], "alt": "x" * 201}]), format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"]["images.0"] == ["Alt text must be at most 200 characters long"]


def test_the_public_page_offers_the_photo_sizes(clients, users, images):
    data = create(clients["host"], event_payload(images))
    approve(clients["admin"], data["requestId"])
    html = clients["anonymous"].get(f"/listing-details/{data['slug']}").content.decode()
    assert f'srcset="/uploads/{images[0].removesuffix(".webp")}-sm.webp 480w' in html


def test_rich_text_descriptions_are_sanitized(clients, users, images):
    description = '<p>Bright <strong>loft</strong></p><script>alert(1)</script><a href="javascript:x()">x</a>'
    data = create(clients["host"], event_payload(images, description=description))
    assert "<script" not in data["description"] and "javascript:" not in data["description"]
    assert "<strong>loft</strong>" in data["description"]
    approve(clients["admin"], data["requestId"])
    html = clients["anonymous"].get(f"/listing-details/{data['slug']}").content.decode()
    assert "<strong>loft</strong>" in html and "alert(1)" not in html
    # the meta description is plain text
    assert '<meta name="description" content="Bright loft' in html


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"minimumNoticeHours": -1}, "minimumNoticeHours", "Minimum notice must be at least 0"),
        ({"minimumNoticeHours": 5000}, "minimumNoticeHours", "Minimum notice must be at most 2160"),
        ({"bookingWindowDays": 0}, "bookingWindowDays", "Booking window must be at least 1"),
        ({"bookingWindowDays": 1000}, "bookingWindowDays", "Booking window must be at most 730"),
    ],
)
def test_notice_and_window_validation(clients, images, overrides, field, message):
    before = Listing.objects.count()
    response = clients["host"].post("/api/listing/create", event_payload(images, **overrides), format="json")
    assert response.status_code == 400 and response.json()["errors"][field] == [message]
    assert Listing.objects.count() == before


def test_notice_and_window_are_saved(clients, images):
    data = create(clients["host"], event_payload(images, minimumNoticeHours=48, bookingWindowDays=90))
    assert data["minimumNoticeHours"] == 48 and data["bookingWindowDays"] == 90


# --- Edit requests: proposed beside live -----------------------------------------------------------


def test_an_edit_request_shows_what_it_changes_beside_the_live_values(clients, users, images, catalogue):  # noqa: F811
    data = create(clients["host"], event_payload(images, amenities=[str(catalogue["wifi"].pk)]))
    approve(clients["admin"], data["requestId"])
    edit = event_payload(
        images, title="Loft by the river, renovated", amenities=[str(catalogue["projector"].pk)], hourly="95.00"
    )
    response = clients["host"].put(f"/api/listing/update/{data['_id']}", edit, format="json")
    assert response.status_code == 200, response.content
    request_id = response.json()["data"]["requestId"]
    # the live listing keeps its title until the edit is approved
    assert Listing.objects.get(pk=data["_id"]).title == "Loft by the river"
    for actor in ("host", "sub_host", "moderator", "admin"):
        detail = clients[actor].get(f"/api/listing/get-request/{request_id}")
        assert detail.status_code == 200, (actor, detail.content)
        check("ListingRequestDetailResponse", detail.json())
        changes = {item["field"]: item for item in detail.json()["data"]["changes"]}
        assert set(changes) == {"title", "amenities", "hourly"}
        assert changes["hourly"]["live"] == "$80.00" and changes["hourly"]["proposed"] == "$95.00"
        assert changes["title"]["live"] == "Loft by the river"
        assert changes["title"]["proposed"] == "Loft by the river, renovated"
        assert changes["amenities"] == {
            "field": "amenities",
            "label": "Amenities",
            "live": ["Wi-Fi"],
            "proposed": ["Projector"],
        }
    for actor in ("other_host", "renter"):
        assert clients[actor].get(f"/api/listing/get-request/{request_id}").status_code in (403, 404)
    assert clients["anonymous"].get(f"/api/listing/get-request/{request_id}").status_code == 401
    assert ListingImage.objects.filter(listing_id=data["_id"]).count() == 1


def test_the_inactive_tab_lists_switched_off_listings(clients, users):
    on = ListingFactory(host=users["host"], title="On")
    off = ListingFactory(host=users["host"], title="Off", is_active=False)
    ListingFactory(host=users["other_host"], title="Someone else's", is_active=False)
    for actor in ("host", "sub_host"):
        rows = clients[actor].get("/api/listing/get-all?filters[isActive]=false").json()["data"]["listings"]
        assert [row["_id"] for row in rows] == [str(off.pk)]
    rows = clients["host"].get("/api/listing/get-all?filters[isActive]=true").json()["data"]["listings"]
    assert [row["_id"] for row in rows] == [str(on.pk)]
    staff = clients["admin"].get("/api/listing/get-all?filters[isActive]=false").json()["data"]["listings"]
    assert len(staff) == 2
    response = clients["host"].get("/api/listing/get-all?filters[isActive]=maybe")
    assert response.status_code == 400 and "filters[isActive]" in response.json()["errors"]


def test_the_commission_is_the_platforms_not_the_hosts(clients, users, images, settings):
    settings.LISTING_COMMISSION_PERCENT = Decimal("12.50")
    data = create(clients["host"], event_payload(images, commissionCollection="0"))
    assert data["commissionCollection"] == "12.50"
    listing = Listing.objects.get(pk=data["_id"])
    listing.commission_collection = Decimal("8")
    listing.save()
    response = clients["host"].put(
        f"/api/listing/update/{listing.pk}", event_payload(images, commissionCollection="1"), format="json"
    )
    assert response.status_code == 200
    listing.refresh_from_db()
    assert listing.commission_collection == Decimal("8.00")


def test_an_unchanged_work_space_edit_applies_at_once_and_an_offering_price_waits(clients, users, images):
    from .fixtures_api import office_payload

    payload = office_payload(images)
    data = create(clients["host"], payload)
    approve(clients["admin"], data["requestId"])
    url = f"/api/listing/update/{data['_id']}"
    same = clients["host"].put(url, {**payload, "bufferMinutes": 15}, format="json")
    assert same.status_code == 200 and same.json()["message"] == "Listing updated successfully."
    offerings = [dict(item) for item in payload["spaceOffering"]]
    offerings[0]["daily"] = "30"
    changed = clients["host"].put(url, {**payload, "spaceOffering": offerings}, format="json")
    assert changed.json()["message"].startswith("Your changes were sent for review.")
    live = clients["host"].get(f"/api/listing/get-single/{data['_id']}").json()["data"]
    assert {o["kind"]: o["daily"] for o in live["spaceOffering"]}["hotDesk"] == "25.00"
    detail = clients["moderator"].get(f"/api/listing/get-request/{changed.json()['data']['requestId']}").json()["data"]
    change = detail["changes"][0]
    assert change["field"] == "spaceOffering" and change["label"] == "Offerings and prices"
    assert "Hot Desk: $25.00 / day" in change["live"][0] and "Hot Desk: $30.00 / day" in change["proposed"][0]


def test_request_rows_say_who_may_approve_or_reject(clients, users, images):
    data = create(clients["host"], event_payload(images))
    for actor, expected in (("admin", True), ("moderator", True), ("host", False), ("sub_host", False)):
        rows = clients[actor].get("/api/listing/get-all-requests").json()["data"]["requests"]
        assert rows[0]["can"] == {"approve": expected, "reject": expected}, actor
        detail = clients[actor].get(f"/api/listing/get-request/{data['requestId']}").json()["data"]
        assert detail["can"] == {"approve": expected, "reject": expected}, actor
    # the host cannot do what its flags deny: nothing changes
    refused = clients["host"].patch(
        f"/api/listing/update-request-status/{data['requestId']}", {"status": "approved"}, format="json"
    )
    assert refused.status_code == 403
    assert Listing.objects.get(pk=data["_id"]).status == "pending"
    approve(clients["moderator"], data["requestId"])
    rows = clients["admin"].get("/api/listing/get-all-requests?filters[status]=approved").json()["data"]["requests"]
    assert rows[0]["can"] == {"approve": False, "reject": False}
