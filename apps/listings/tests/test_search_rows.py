"""The search row (``SearchRow``) and the search answered from it.

The triggers keep the row of each listing the search shows, whatever writes the listing, its
offerings, its amenity and facility links or its host; and the search answered from the rows
gives what the ORM query on the listings (``queries.matching``, the reference) gives: the same
listings in the same order on every page and the same capped total, on random filters.
"""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from psycopg.types.range import Range

from apps.listings import search as discovery
from apps.listings.factories import AmenityFactory, FacilityFactory, ListingFactory, SpaceOfferingFactory
from apps.listings.models import Availability, Listing, OfferingKind, SearchRow, SpaceOffering
from apps.listings.search import SearchFilters
from apps.listings.search.paging import bounded_count, featured_first
from apps.listings.search.queries import matching

from .test_search_reference import CAP, LIMIT, data_set, filters_strategy  # noqa: F401

pytestmark = pytest.mark.django_db


def row(listing) -> SearchRow | None:
    return SearchRow.objects.filter(listing_id=listing.pk).first()


class TestTheRowFollowsEveryWrite:
    def test_a_public_event_space_has_its_row(self):
        amenity, facility = AmenityFactory(), FacilityFactory()
        listing = ListingFactory(
            city="Toronto", country="Canada", guest=30, hourly=Decimal("12.50"), daily=None, weekly=None
        )
        listing.amenities.add(amenity)
        listing.facilities.add(facility)
        Listing.objects.filter(pk=listing.pk).update(
            opening_hours={"sunday": None, "monday": {"open": "09:00", "close": "17:00"}, "friday": None},
            blocked_dates=[date(2030, 1, 2)],
            minimum_notice_hours=48,
        )
        found = row(listing)
        assert (found.closed_days, found.blocked_dates, found.minimum_notice_hours) == (
            ["friday", "sunday"],
            [date(2030, 1, 2)],
            48,
        )
        assert (found.city, found.country, found.property_type, found.capacity) == (
            "TORONTO",
            "CANADA",
            "eventSpace",
            30,
        )
        assert (found.amenity_ids, found.facility_ids, found.offering_kinds) == ([amenity.pk], [facility.pk], [])
        assert found.hourly_prices == Range(Decimal("12.50"), Decimal("12.50"), "[]")
        assert found.daily_prices is None

    def test_offerings_written_in_any_way_move_the_row(self):
        listing = ListingFactory(office=True, offerings=[], number_of_seats=12)
        assert row(listing).offering_kinds == []
        offering = SpaceOfferingFactory(listing=listing, kind=OfferingKind.MEETING_SPACE, hourly=Decimal("40"))
        found = row(listing)
        assert found.offering_kinds == [OfferingKind.MEETING_SPACE]
        assert found.capacity == 12
        # Office prices sit one band above event prices.
        assert found.hourly_prices.lower == Decimal("100000000040")
        SpaceOffering.objects.filter(pk=offering.pk).update(hourly=Decimal("55"))
        assert row(listing).hourly_prices.upper == Decimal("100000000055")
        SpaceOffering.objects.bulk_create(
            [SpaceOffering(listing=listing, kind=OfferingKind.HOT_DESK, daily=Decimal(9))]
        )
        assert row(listing).offering_kinds == [OfferingKind.HOT_DESK, OfferingKind.MEETING_SPACE]
        SpaceOffering.objects.filter(listing=listing).delete()
        found = row(listing)
        assert (found.offering_kinds, found.hourly_prices, found.daily_prices) == ([], None, None)

    def test_amenities_removed_leave_the_row(self):
        listing = ListingFactory()
        amenity = AmenityFactory()
        listing.amenities.add(amenity)
        listing.amenities.remove(amenity)
        assert row(listing).amenity_ids == []

    def test_the_row_exists_only_while_the_search_shows_the_listing(self):
        listing = ListingFactory()
        assert row(listing)
        Listing.objects.filter(pk=listing.pk).update(availability=Availability.UNAVAILABLE)
        assert row(listing) is None
        Listing.objects.filter(pk=listing.pk).update(availability=Availability.AVAILABLE, title="Renamed")
        assert row(listing).title == "Renamed"
        listing.host.is_active = False
        listing.host.save()
        assert row(listing) is None
        listing.host.is_active = True
        listing.host.save()
        assert row(listing)
        Listing.objects.filter(pk=listing.pk).update(status="pending")
        assert row(listing) is None

    def test_a_deleted_listing_takes_its_row(self):
        listing = ListingFactory(office=True)
        Listing.objects.get(pk=listing.pk).delete()
        assert not SearchRow.objects.filter(listing_id=listing.pk).exists()

    def test_rows_refreshed_from_scratch_are_the_rows_kept(self):
        """The migration's backfill and the triggers write the same rows."""
        from django.db import connection

        listings = [ListingFactory(office=True), ListingFactory()]
        listings[0].amenities.add(AmenityFactory())
        kept = list(SearchRow.objects.order_by("pk").values())
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM listings_searchrow")
            cursor.execute("SELECT listings_search_rows_refresh(ARRAY(SELECT id FROM listings_listing))")
        assert list(SearchRow.objects.order_by("pk").values()) == kept


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(asked=filters_strategy)
def test_the_search_rows_answer_as_the_reference_query(data_set, asked):  # noqa: F811
    assume(asked["min_price"] is None or asked["max_price"] is None or asked["min_price"] <= asked["max_price"])
    start = asked.pop("start")
    length = asked.pop("length")
    page = asked.pop("page")
    filters = SearchFilters(**asked)
    if start is not None:
        filters.start_date = date.today() + timedelta(days=start)
        filters.end_date = filters.start_date + timedelta(days=length)

    reference = matching(filters)
    total = min(bounded_count(reference, CAP), CAP)
    start_at = (page - 1) * LIMIT
    expected = featured_first(reference, start_at, LIMIT) if start_at < total else []

    result, items = discovery.search_page({"page": page, "limit": LIMIT}, filters, capped=True)

    assert result.total_count == total
    assert result.capped == (bounded_count(reference, CAP) > CAP)
    assert [item["_id"] for item in items] == [str(found["id"]) for found in expected]
    assert [item["isPremium"] for item in items] == [found["featured"] for found in expected]
    # The first page reads its cards in the same statement: the same cards as read apart.
    assert items == discovery.cards(expected)


def test_the_first_page_reads_cards_hearts_and_total_in_one_statement(clients, users):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from apps.listings.factories import FavouriteFactory, OfficeListingFactory

    liked = OfficeListingFactory(images=3, city="Lisbon")
    other = ListingFactory(city="Lisbon")
    FavouriteFactory(user=users["renter"], listing=liked)
    address = "/api/listing/property-listing?page=1&filters[city]=lisbon"
    with CaptureQueriesContext(connection) as context:
        data = clients["renter"].get(address).json()["data"]
    search_queries = [q for q in context.captured_queries if "listings_searchrow" in q["sql"]]
    assert len(search_queries) == 1
    assert data["totalCount"] == 2
    cards = {card["_id"]: card for card in data["listings"]}
    assert cards[str(liked.pk)]["favourite"] is True and cards[str(other.pk)]["favourite"] is False
    assert cards[str(liked.pk)]["images"] == list(liked.images.order_by("position").values_list("path", flat=True))
    assert len(cards[str(liked.pk)]["images"]) == 3
    kinds = sorted(liked.space_offerings.values_list("kind", flat=True))
    assert [offering["kind"] for offering in cards[str(liked.pk)]["spaceOffering"]] == kinds
    assert all(
        offering["hourly"] is None or "." in offering["hourly"] for offering in cards[str(liked.pk)]["spaceOffering"]
    )
    assert clients["other_renter"].get(address).json()["data"]["listings"][0]["favourite"] is False
