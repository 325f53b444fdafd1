"""The public search (``GET /api/listing/property-listing``) and the navbar's title search."""

import json
from datetime import date, timedelta
from decimal import Decimal

import pytest

from apps.core.testing import ACTORS
from apps.listings.factories import (
    AmenityFactory,
    FacilityFactory,
    FavouriteFactory,
    ListingFactory,
    OfficeListingFactory,
)
from apps.listings.models import Availability, OfferingKind, PropertyType
from apps.payments.subscriptions import subscription_grant

URL = "/api/listing/property-listing"
SPEC_QUERY = "filters[status]=approved&filters[isActive]=true&filters[availability]=available&filters[isDeleted]=false"


def search(api, **filters):
    query = {f"filters[{name}]": value for name, value in filters.items()}
    return api.get(URL, query)


def titles(response) -> set[str]:
    assert response.status_code == 200, response.content
    return {item["title"] for item in response.json()["data"]["listings"]}


@pytest.mark.django_db
class TestVisibility:
    def test_only_approved_active_available_not_deleted_listings_are_found(self, api):
        ListingFactory(title="Shown hall")
        ListingFactory(title="Pending hall", pending=True)
        ListingFactory(title="Rejected hall", rejected=True)
        ListingFactory(title="Inactive hall", is_active=False)
        ListingFactory(title="Deleted hall", is_deleted=True)
        ListingFactory(title="Unavailable hall", availability=Availability.UNAVAILABLE)

        response = api.get(f"{URL}?page=1&limit=10&{SPEC_QUERY}")

        assert titles(response) == {"Shown hall"}
        data = response.json()["data"]
        assert data["totalCount"] == 1 and data["page"] == 1 and data["limit"] == 10

    def test_everybody_may_search(self, clients):
        ListingFactory()
        for actor in ACTORS:
            assert clients[actor].get(URL).status_code == 200, actor

    def test_the_fixed_public_filters_cannot_widen_the_search(self, api):
        ListingFactory(title="Pending", pending=True)
        response = search(api, status="pending")
        assert response.status_code == 400
        assert "approved" in response.json()["message"]
        assert search(api, isDeleted="true").status_code == 400

    def test_the_card_is_flat_and_carries_what_a_result_shows(self, api, users):
        subscription_grant(host=users["host"], by=users["admin"])
        OfficeListingFactory(
            host=users["host"], title="Desk loft", images=2, city="Toronto", country="Canada", is_premium=True
        )
        item = search(api).json()["data"]["listings"][0]
        assert item["title"] == "Desk loft"
        assert item["propertyType"] == PropertyType.OFFICE_SPACE
        assert len(item["images"]) == 2
        assert {offering["kind"] for offering in item["spaceOffering"]} == {"hotDesk", "meetingSpace"}
        assert item["isPremium"] is True
        assert item["fromPrice"] == {"amount": "25.00", "period": "hourly", "label": "Hour"}
        assert item["favourite"] is False
        assert set(item) >= {"_id", "slug", "city", "country", "latitude", "longitude", "reviews", "numberOfSeats"}

    def test_a_signed_in_renter_sees_the_favourite_flag(self, clients, users):
        listing = ListingFactory()
        FavouriteFactory(user=users["renter"], listing=listing)
        assert search(clients["renter"]).json()["data"]["listings"][0]["favourite"] is True
        assert search(clients["other_renter"]).json()["data"]["listings"][0]["favourite"] is False

    def test_premium_listings_come_first(self, api, users):
        subscription_grant(host=users["host"], by=users["admin"])
        ListingFactory(title="Plain")
        ListingFactory(host=users["host"], title="Premium", is_premium=True)
        ListingFactory(title="Newest plain")
        listed = [item["title"] for item in search(api).json()["data"]["listings"]]
        assert listed[0] == "Premium"

    def test_pages_of_ten(self, api):
        ListingFactory.create_batch(12, images=0)
        first = api.get(URL, {"page": 1}).json()["data"]
        second = api.get(URL, {"page": 2}).json()["data"]
        assert len(first["listings"]) == 10 and len(second["listings"]) == 2
        assert first["totalPages"] == 2
        assert api.get(URL, {"limit": 50}).json()["data"]["limit"] == 10


@pytest.mark.django_db
class TestFilters:
    def test_title_matches_part_of_a_title_in_any_case(self, api):
        ListingFactory(title="Harbour View Event Hall")
        ListingFactory(title="Quiet Desk Studio")
        assert titles(search(api, title="harbour")) == {"Harbour View Event Hall"}
        assert titles(search(api, title="VIEW EVENT")) == {"Harbour View Event Hall"}

    def test_title_forgives_a_typo(self, api):
        ListingFactory(title="King West Coworking Loft")
        ListingFactory(title="Rooftop Venue")
        assert titles(search(api, title="cowrking")) == {"King West Coworking Loft"}

    def test_title_with_like_wildcards_is_plain_text(self, api):
        ListingFactory(title="Hall A")
        assert titles(search(api, title="%")) == set()
        assert titles(search(api, title="_")) == set()

    def test_property_type_and_city(self, api):
        ListingFactory(title="Toronto hall", city="Toronto")
        OfficeListingFactory(title="Toronto desks", city="Toronto")
        ListingFactory(title="London hall", city="London")
        assert titles(search(api, city="toronto")) == {"Toronto hall", "Toronto desks"}
        assert titles(search(api, city="TORONTO", propertyType="officeSpace")) == {"Toronto desks"}
        assert titles(search(api, country="united states")) == {"Toronto hall", "Toronto desks", "London hall"}

    def test_amenities_and_facilities_as_json_arrays_need_all_of_them(self, api):
        wifi, parking = AmenityFactory(name="Wi-Fi"), AmenityFactory(name="Parking")
        kitchen = FacilityFactory(name="Kitchen")
        ListingFactory(title="Both", amenities=[wifi, parking], facilities=[kitchen])
        ListingFactory(title="Wifi only", amenities=[wifi])
        assert titles(search(api, amenities=json.dumps([str(wifi.id)]))) == {"Both", "Wifi only"}
        assert titles(search(api, amenities=json.dumps([str(wifi.id), str(parking.id)]))) == {"Both"}
        assert titles(search(api, amenities='["wi-fi","PARKING"]')) == {"Both"}
        assert titles(search(api, facilities=json.dumps([str(kitchen.id)]))) == {"Both"}
        assert titles(search(api, amenities='["No such amenity"]')) == set()
        assert titles(search(api, amenities="[]")) == {"Both", "Wifi only"}

    def test_space_offering(self, api):
        OfficeListingFactory(title="Cabins", offerings=[OfferingKind.PRIVATE_CABIN])
        OfficeListingFactory(title="Desks", offerings=[OfferingKind.HOT_DESK])
        assert titles(search(api, spaceOffering='["privateCabin"]')) == {"Cabins"}
        assert titles(search(api, spaceOffering="privateCabin,hotDesk")) == {"Cabins", "Desks"}

    def test_price_range_over_event_prices_and_offering_prices(self, api):
        ListingFactory(title="Cheap hall", hourly=Decimal("20"), daily=Decimal("100"), weekly=None)
        ListingFactory(title="Dear hall", hourly=Decimal("200"), daily=Decimal("1500"), weekly=None)
        OfficeListingFactory(title="Desks", offerings=[OfferingKind.HOT_DESK])  # 30 daily, 150 weekly, 500 monthly
        assert titles(search(api, maxPrice="50", period="hourly")) == {"Cheap hall"}
        assert titles(search(api, minPrice="25", maxPrice="120", period="daily")) == {"Cheap hall", "Desks"}
        assert titles(search(api, minPrice="400", maxPrice="600")) == {"Desks"}
        assert titles(search(api, minPrice="1000")) == {"Dear hall"}

    def test_guests_or_seats(self, api):
        ListingFactory(title="Small hall", guest=20)
        ListingFactory(title="Big hall", guest=300)
        OfficeListingFactory(title="Desks", number_of_seats=40)
        assert titles(search(api, guests="100")) == {"Big hall"}
        assert titles(search(api, seats="30")) == {"Big hall", "Desks"}

    def test_map_bounding_box(self, api):
        ListingFactory(title="Toronto", latitude=Decimal("43.65"), longitude=Decimal("-79.38"))
        ListingFactory(title="Sydney", latitude=Decimal("-33.87"), longitude=Decimal("151.21"))
        assert titles(search(api, bounds="[43, -80, 44, -79]")) == {"Toronto"}
        assert titles(search(api, bounds="-34,151,-33,152")) == {"Sydney"}
        # a box across the antimeridian
        assert titles(search(api, bounds="[-40, 150, -30, -170]")) == {"Sydney"}

    def test_available_on_a_date_range(self, api):
        start = date.today() + timedelta(days=7)
        weekday = start.strftime("%A").lower()
        ListingFactory(title="Open")
        ListingFactory(title="Blocked", blocked_dates=[start + timedelta(days=1)])
        ListingFactory(title="Closed that day", opening_hours={weekday: None})
        ListingFactory(title="Open that day", opening_hours={weekday: {"open": "09:00", "close": "17:00"}})
        found = titles(search(api, startDate=start.isoformat(), endDate=(start + timedelta(days=1)).isoformat()))
        assert found == {"Open", "Open that day"}
        assert titles(search(api, startDate=start.isoformat())) == {"Open", "Blocked", "Open that day"}

    def test_filters_combine(self, api):
        wifi = AmenityFactory(name="Wi-Fi")
        ListingFactory(title="Match", city="London", guest=80, amenities=[wifi])
        ListingFactory(title="Wrong city", city="Leeds", guest=80, amenities=[wifi])
        ListingFactory(title="Too small", city="London", guest=10, amenities=[wifi])
        found = titles(
            search(api, city="London", guests="50", amenities=json.dumps(["Wi-Fi"]), propertyType="eventSpace")
        )
        assert found == {"Match"}


@pytest.mark.django_db
class TestBadFilters:
    @pytest.mark.parametrize(
        ("name", "value", "field"),
        [
            ("propertyType", "castle", "propertyType"),
            ("minPrice", "abc", "minPrice"),
            ("maxPrice", "-5", "maxPrice"),
            ("minPrice", "NaN", "minPrice"),
            ("minPrice", "1e999", "minPrice"),
            ("period", "yearly", "period"),
            ("guests", "0", "guests"),
            ("guests", "2.5", "guests"),
            ("guests", "99999999999", "guests"),
            ("bounds", "[1,2,3]", "bounds"),
            ("bounds", "[50,0,40,10]", "bounds"),
            ("bounds", '["a","b","c","d"]', "bounds"),
            ("bounds", "[true,1,2,3]", "bounds"),
            ("startDate", "2026-13-40", "startDate"),
            ("startDate", "tomorrow", "startDate"),
            ("amenities", "[not json", "amenities"),
            ("amenities", '{"a": 1}', "amenities"),
            ("amenities", "[[1]]", "amenities"),
            ("spaceOffering", '["castle"]', "spaceOffering"),
            ("title", "x" * 101, "title"),
            ("title", "bad\x00byte", "title"),
            ("colour", "blue", "colour"),
        ],
    )
    def test_a_bad_value_gets_a_clear_400(self, api, name, value, field):
        response = search(api, **{name: value})
        assert response.status_code == 400, response.content
        body = response.json()
        assert body["message"] and field in body["errors"]

    def test_price_range_upside_down(self, api):
        response = search(api, minPrice="100", maxPrice="10")
        assert response.status_code == 400
        assert response.json()["errors"]["maxPrice"] == ["Maximum price must not be below the minimum price."]

    def test_end_before_start_and_overlong_ranges(self, api):
        assert search(api, startDate="2026-05-10", endDate="2026-05-01").status_code == 400
        assert search(api, startDate="2026-01-01", endDate="2027-06-01").status_code == 400
        assert search(api, endDate="2026-01-01").status_code == 400

    def test_too_many_amenities(self, api):
        response = search(api, amenities=json.dumps([f"a{n}" for n in range(21)]))
        assert response.status_code == 400

    @pytest.mark.parametrize("text", ["' OR 1=1 --", "Robert'); DROP TABLE listings_listing;--", "😀 café", "<script>"])
    def test_injection_and_unicode_are_plain_text(self, api, text):
        ListingFactory(title="Hall")
        assert search(api, title=text).status_code == 200

    def test_bad_page_numbers(self, api):
        assert api.get(URL, {"page": "x"}).status_code == 400
        assert api.get(URL, {"page": "0"}).status_code == 400


@pytest.mark.django_db
class TestQueryCounts:
    def test_queries_do_not_grow_with_the_page(self, api, django_assert_max_num_queries):
        # The total (cached a minute), the premium listings' count, the page, its images and offerings;
        # one more query reads the premium listings when the page shows some.
        OfficeListingFactory(images=2)
        with django_assert_max_num_queries(5):
            assert search(api).status_code == 200
        OfficeListingFactory.create_batch(9, images=3)
        ListingFactory.create_batch(3, images=3)
        with django_assert_max_num_queries(5):
            response = search(api, amenities="[]", city="New York")
        assert len(response.json()["data"]["listings"]) == 10

    def test_a_signed_in_user_adds_one_query_for_favourites(self, clients, django_assert_max_num_queries):
        ListingFactory.create_batch(10, images=2)
        with django_assert_max_num_queries(7):  # + the user behind the token
            assert search(clients["renter"]).status_code == 200


@pytest.mark.django_db
class TestTitleSearch:
    def test_navbar_search_reads_slug_id_and_title(self, api):
        listing = ListingFactory(title="Gallery Space Soho")
        ListingFactory(title="Hidden Gallery", pending=True)
        response = api.get(URL, {"page": 1, "filters[title]": "gallery"})
        found = response.json()["data"]["listings"]
        assert [(item["slug"], item["_id"], item["title"]) for item in found] == [
            (listing.slug, str(listing.id), "Gallery Space Soho")
        ]

    def test_search_titles_puts_prefix_matches_first_and_forgives_typos(self, api):
        ListingFactory(title="Soho Gallery Space")
        ListingFactory(title="Gallery Loft")
        ListingFactory(title="Riverside Hall")
        response = api.get("/api/listing/search-titles", {"q": "gallery"})
        assert response.status_code == 200
        found = response.json()["data"]["listings"]
        assert [item["title"] for item in found] == ["Gallery Loft", "Soho Gallery Space"]
        assert set(found[0]) == {"_id", "slug", "title"}
        typo = api.get("/api/listing/search-titles", {"q": "galery"}).json()["data"]["listings"]
        assert {item["title"] for item in typo} == {"Gallery Loft", "Soho Gallery Space"}

    def test_search_titles_empty_and_bad_input(self, api):
        assert api.get("/api/listing/search-titles").json()["data"]["listings"] == []
        assert api.get("/api/listing/search-titles", {"q": "x" * 101}).status_code == 400
        assert api.get("/api/listing/search-titles", {"q": "%' OR 1=1"}).status_code == 200

    def test_search_titles_uses_at_most_three_small_queries(self, api, django_assert_max_num_queries):
        ListingFactory.create_batch(12, title="Hall")
        with django_assert_max_num_queries(3):
            found = api.get("/api/listing/search-titles", {"q": "hall"}).json()["data"]["listings"]
        assert len(found) == 10
