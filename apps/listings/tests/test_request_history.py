"""A review request changes status only through its machine: opened, decided or cancelled, each
change is in its history, and a move the table refuses changes nothing."""

import pytest

from apps.core.exceptions import Conflict
from apps.core.statemachine import history
from apps.listings.models import ListingRequest
from apps.listings.services.edit_requests import REQUEST_MACHINE, listing_request_review

from .fixtures_api import event_payload, media_root, upload  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def images(clients, media_root):  # noqa: F811
    return upload(clients["host"])


def moves(obj) -> list[tuple[str, str]]:
    return [(change.from_status, change.to_status) for change in history(obj)]


def test_a_request_is_opened_then_rejected_in_its_history_and_decided_once(clients, users, images):
    data = clients["host"].post("/api/listing/create", event_payload(images), format="json").json()["data"]
    rejected = clients["moderator"].patch(
        f"/api/listing/update-request-status/{data['requestId']}",
        {"status": "rejected", "reason": "Photos are unclear."},
        format="json",
    )
    assert rejected.status_code == 200, rejected.content
    listing_request = ListingRequest.objects.get(pk=data["requestId"])
    assert moves(listing_request) == [("", "pending"), ("pending", "rejected")]
    opened, decided = history(listing_request)
    assert opened.actor == users["host"] and decided.actor == users["moderator"]
    assert decided.reason == listing_request.reason == "Photos are unclear."

    before = ListingRequest.objects.values().get(pk=listing_request.pk)
    with pytest.raises(Conflict):
        listing_request_review(listing_request=listing_request, by=users["admin"], status="approved")
    with pytest.raises(Conflict):
        REQUEST_MACHINE.transition(listing_request, "cancelled", actor=users["admin"])
    assert ListingRequest.objects.values().get(pk=listing_request.pk) == before
    assert len(history(listing_request)) == 2


def test_a_request_of_a_deleted_listing_is_cancelled_in_its_history(clients, users, images):
    data = clients["host"].post("/api/listing/create", event_payload(images), format="json").json()["data"]
    assert clients["host"].delete(f"/api/listing/delete/{data['_id']}").status_code == 200
    listing_request = ListingRequest.objects.get(pk=data["requestId"])
    assert listing_request.status == "cancelled"
    assert moves(listing_request) == [("", "pending"), ("pending", "cancelled")]
    assert history(listing_request)[1].reason == "Listing deleted."
