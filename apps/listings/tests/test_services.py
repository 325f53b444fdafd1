"""Listing services: the status table, review requests, edits, deletion and the pending counters."""

import pytest

from apps.core.exceptions import Conflict, Forbidden, InvalidInput
from apps.listings import selectors
from apps.listings.factories import AmenityFactory, ListingFactory
from apps.listings.models import ListingRequest, ListingStatus, RequestKind, RequestStatus
from apps.listings.services import changes, edit_requests, lifecycle, status
from apps.notifications.counters import pending_counters

pytestmark = pytest.mark.django_db


def test_status_table_refuses_moves_it_does_not_list(users):
    listing = ListingFactory(host=users["host"], pending=True)
    status.listing_status_change(listing=listing, to=ListingStatus.REJECTED, by=users["admin"], reason="No photos")
    with pytest.raises(Conflict):
        status.listing_status_change(listing=listing, to=ListingStatus.APPROVED, by=users["admin"])
    status.listing_status_change(listing=listing, to=ListingStatus.PENDING, by=users["host"])
    listing.refresh_from_db()
    assert listing.status == ListingStatus.PENDING and listing.reject_reason == ""
    status.listing_status_change(listing=listing, to=ListingStatus.APPROVED, by=users["admin"])
    for target in ListingStatus.values:
        with pytest.raises(Conflict):
            status.listing_status_change(listing=listing, to=target, by=users["admin"])


def test_a_stale_copy_cannot_win_a_race(users):
    listing = ListingFactory(host=users["host"], pending=True)
    request = ListingRequest.objects.create(listing=listing, kind=RequestKind.NEW)
    stale = ListingRequest.objects.get(pk=request.pk)
    edit_requests.listing_request_review(listing_request=request, by=users["admin"], status="approved")
    with pytest.raises(Conflict):
        edit_requests.listing_request_review(
            listing_request=stale, by=users["moderator"], status="rejected", reason="x"
        )
    listing.refresh_from_db()
    assert listing.status == ListingStatus.APPROVED


def test_only_staff_review_and_rejection_needs_a_reason(users):
    request = ListingRequest.objects.create(listing=ListingFactory(pending=True), kind=RequestKind.NEW)
    with pytest.raises(Forbidden):
        edit_requests.listing_request_review(listing_request=request, by=users["host"], status="approved")
    with pytest.raises(InvalidInput):
        edit_requests.listing_request_review(listing_request=request, by=users["admin"], status="rejected", reason=" ")


def test_substantive_changes_names_the_fields(users):
    wifi = AmenityFactory(name="Wi-Fi")
    listing = ListingFactory(host=users["host"], title="Hall", amenities=[wifi])
    data = changes.snapshot(listing)
    assert changes.substantive_changes(listing, data) == []
    assert changes.substantive_changes(listing, {**data, "title": " Hall "}) == []
    assert changes.substantive_changes(listing, {**data, "title": "Big hall", "amenities": []}) == [
        "title",
        "amenities",
    ]


def test_reverting_an_edit_withdraws_the_proposal_and_delete_cancels_requests(users):
    listing = ListingFactory(host=users["host"], title="Hall")
    data = {**changes.snapshot(listing), "propertyType": "eventSpace", "guest": 5}
    data["amenities"], data["facilities"] = list(data["amenities"]), list(data["facilities"])
    _, pending = lifecycle.listing_update(actor=users["sub_host"], listing=listing, data={**data, "title": "Hall 2"})
    assert pending.kind == RequestKind.EDIT and pending.requested_by == users["sub_host"]
    assert pending_counters(users["host"])["otherRequests"] == 1
    assert pending_counters(users["sub_host"])["otherRequests"] == 1
    assert pending_counters(users["moderator"])["pendingListings"] == 1
    assert pending_counters(users["other_host"])["otherRequests"] == 0
    _, none = lifecycle.listing_update(actor=users["host"], listing=listing, data=data)
    assert none is None
    pending.refresh_from_db()
    assert pending.status == RequestStatus.CANCELLED
    listing.refresh_from_db()
    assert listing.guest == 5 and listing.title == "Hall"

    _, pending = lifecycle.listing_update(actor=users["host"], listing=listing, data={**data, "title": "Hall 3"})
    lifecycle.listing_delete(actor=users["host"], listing=listing)
    pending.refresh_from_db()
    assert pending.status == RequestStatus.CANCELLED
    assert pending_counters(users["admin"])["pendingListings"] == 0


def test_hosts_cannot_touch_other_hosts_listings(users):
    listing = ListingFactory(host=users["other_host"])
    with pytest.raises(Exception) as error:
        lifecycle.listing_set_active(actor=users["sub_host"], listing=listing, is_active=False)
    assert getattr(error.value, "status_code", None) == 404
    with pytest.raises(Forbidden):
        lifecycle.listing_create(actor=users["renter"], data={})
    assert selectors.listing_list_for(user=users["renter"], filters={}).count() == 0
