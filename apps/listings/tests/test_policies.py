"""Rules of listings (apps/listings/policies.py): the one public set, who may do what, refunds."""

import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings

from apps.accounts.models import Role
from apps.listings import policies
from apps.listings.factories import FavouriteFactory, ListingFactory
from apps.listings.models import ListingStatus

GOLDEN = json.loads((Path(settings.BASE_DIR) / "frontend/src/shared/policies.golden.json").read_text())


@pytest.mark.parametrize("case", GOLDEN["refunds"], ids=lambda c: f"{c['policy']}-{c['hoursBefore']}h")
def test_refund_share_follows_the_schedule(case):
    assert policies.refund_share(case["policy"], Decimal(str(case["hoursBefore"]))) == Decimal(case["share"])


def test_refund_sentences_are_written_from_the_schedule():
    assert GOLDEN["refundTexts"] == policies.CANCELLATION_TEXT
    for policy in GOLDEN["refundTexts"]:
        assert policies.refund_schedule_text(policy) == GOLDEN["refundTexts"][policy]


@pytest.mark.django_db
def test_public_listings_exclude_every_hidden_kind(users):
    host = users["host"]
    live = ListingFactory(host=host)
    ListingFactory(host=host, status=ListingStatus.PENDING)
    ListingFactory(host=host, is_active=False)
    ListingFactory(host=host, is_deleted=True)
    suspended_host = users["other_host"]
    hidden = ListingFactory(host=suspended_host)
    suspended_host.is_active = False
    suspended_host.save(update_fields=["is_active"])
    assert list(policies.public_listings()) == [live]
    assert policies.is_public(live) and not policies.is_public(hidden)


@pytest.mark.django_db
def test_favourites_list_only_public_listings(api, users):
    renter = users["renter"]
    live = ListingFactory(host=users["host"])
    inactive = ListingFactory(host=users["host"], is_active=False)
    of_gone_host = ListingFactory(host=users["other_host"])
    for listing in (live, inactive, of_gone_host):
        FavouriteFactory(user=renter, listing=listing)
    users["other_host"].is_deleted = True
    users["other_host"].save(update_fields=["is_deleted"])
    response = api.as_user(renter).get("/api/favourites/get-all")
    assert response.status_code == 200, response.content
    ids = [row["_id"] for row in response.json()["data"]["listings"]]
    assert ids == [str(live.pk)]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("actor", "expected"),
    [
        ("host", {"edit": True, "delete": True, "activate": True, "approve": False, "reject": False}),
        ("sub_host", {"edit": True, "delete": True, "activate": True, "approve": False, "reject": False}),
        ("other_host", {"edit": False, "delete": False, "activate": False, "approve": False, "reject": False}),
        ("renter", {"edit": False, "delete": False, "activate": False, "approve": False, "reject": False}),
        ("moderator", {"edit": False, "delete": True, "activate": True, "approve": False, "reject": False}),
        ("admin", {"edit": False, "delete": True, "activate": True, "approve": False, "reject": False}),
    ],
)
def test_listing_can_by_role(users, actor, expected):
    listing = ListingFactory(host=users["host"])
    assert policies.listing_can(users[actor], listing) == expected


@pytest.mark.django_db
def test_staff_may_review_only_while_a_request_waits(users):
    listing = ListingFactory(host=users["host"], status=ListingStatus.PENDING)
    listing.request_id = "waiting"
    assert policies.listing_can(users["moderator"], listing)["approve"]
    assert not policies.listing_can(users["host"], listing)["approve"]
    listing.request_id = None
    assert not policies.listing_can(users["admin"], listing)["reject"]
    assert users["admin"].role == Role.ADMIN


@pytest.mark.django_db
@pytest.mark.parametrize("actor", ["renter", "host", "sub_host", "other_host", "moderator", "admin"])
def test_listing_services_refuse_exactly_what_can_denies(clients, users, actor):
    from apps.core.exceptions import DomainError
    from apps.listings.models import Listing
    from apps.listings.services import lifecycle

    listing = ListingFactory(host=users["host"])
    user = users[actor]
    can = policies.listing_can(user, listing)
    response = clients[actor].get(f"/api/listing/get-single/{listing.pk}")
    assert response.status_code == 200, response.content
    assert response.json()["data"]["can"] == can

    def state():
        return Listing.objects.filter(pk=listing.pk).values("is_active", "is_deleted", "title", "status").get()

    for flag, write in (
        ("activate", lambda: lifecycle.listing_set_active(actor=user, listing=listing, is_active=False)),
        ("delete", lambda: lifecycle.listing_delete(actor=user, listing=listing)),
    ):
        before = state()
        if can[flag]:
            write()
            assert state() != before
            Listing.objects.filter(pk=listing.pk).update(is_active=True, is_deleted=False, deleted_at=None)
        else:
            with pytest.raises(DomainError):
                write()
            assert state() == before
