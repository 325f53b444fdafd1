"""Anonymous search answers kept in Redis: served without the database, never stale after a listing changes."""

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.accounts.services_users import user_status_set
from apps.listings import search_cache
from apps.listings.factories import AmenityFactory, FavouriteFactory, ListingFactory
from apps.listings.models import Amenity, ListingStatus, OfferingKind, SpaceOffering
from apps.listings.services.status import listing_status_change

URL = "/api/listing/property-listing?page=1&limit=10"
TITLES = "/api/listing/search-titles?q=hall"


def titles(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [item["title"] for item in response.json()["data"]["listings"]]


@pytest.mark.django_db
class TestAnonymousAnswers:
    def test_a_repeated_search_is_answered_without_the_database(self, api):
        ListingFactory(title="Harbour hall")
        first = api.get(URL)
        with CaptureQueriesContext(connection) as queries:
            again = api.get(URL)
        assert len(queries) == 0
        assert again.content == first.content
        assert again["Content-Type"] == first["Content-Type"]

    def test_the_title_search_is_kept_too(self, api):
        ListingFactory(title="Garden hall")
        assert titles(api.get(TITLES)) == ["Garden hall"]
        with CaptureQueriesContext(connection) as queries:
            assert titles(api.get(TITLES)) == ["Garden hall"]
        assert len(queries) == 0

    def test_a_new_or_edited_listing_shows_at_once(self, api):
        listing = ListingFactory(title="Old hall")
        assert titles(api.get(URL)) == ["Old hall"]
        listing.title = "Renamed hall"
        listing.save()
        assert titles(api.get(URL)) == ["Renamed hall"]
        ListingFactory(title="Second hall")
        assert set(titles(api.get(URL))) == {"Renamed hall", "Second hall"}

    def test_a_listing_approved_joins_the_results_at_once(self, api, users):
        listing = ListingFactory(title="Waiting hall", pending=True)
        assert titles(api.get(URL)) == []
        listing_status_change(listing=listing, to=ListingStatus.APPROVED, by=users["admin"])
        assert titles(api.get(URL)) == ["Waiting hall"]

    def test_a_suspended_hosts_listings_leave_the_results_at_once(self, api, users):
        ListingFactory(title="Host's hall", host=users["host"])
        assert titles(api.get(URL)) == ["Host's hall"]
        user_status_set(actor=users["admin"], user=users["host"], status="suspended")
        assert titles(api.get(URL)) == []

    def test_an_amenity_added_to_a_listing_changes_the_filtered_answer(self, api):
        listing = ListingFactory(title="Plain hall")
        AmenityFactory(name="Projector")
        url = f"{URL}&filters[amenities]=%5B%22Projector%22%5D"
        assert titles(api.get(url)) == []
        listing.amenities.add(Amenity.objects.get(name="Projector"))
        assert titles(api.get(url)) == ["Plain hall"]


@pytest.mark.django_db
class TestSignedIn:
    def test_a_signed_in_visitor_gets_their_own_favourites_not_the_stored_answer(self, api, clients, users):
        listing = ListingFactory(title="Liked hall")
        FavouriteFactory(user=users["renter"], listing=listing)
        assert api.get(URL).json()["data"]["listings"][0]["favourite"] is False
        assert clients["renter"].get(URL).json()["data"]["listings"][0]["favourite"] is True
        assert api.get(URL).json()["data"]["listings"][0]["favourite"] is False


def _page(client: Client, slug: str) -> str:
    response = client.get(f"/listing-details/{slug}")
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def _csrf_meta(page: str) -> str:
    return re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)


@pytest.mark.django_db
class TestListingPageForVisitors:
    def test_a_visitors_second_view_is_answered_without_the_database(self):
        listing = ListingFactory(title="Harbour hall")
        first = _page(Client(), listing.slug)
        with CaptureQueriesContext(connection) as queries:
            again = _page(Client(), listing.slug)
        assert len(queries) == 0
        assert "Harbour hall" in again
        assert len(again) == pytest.approx(len(first), abs=64)  # the same page, with this visitor's token and nonce

    def test_each_visitor_gets_a_token_and_nonce_of_their_own_that_work(self):
        listing = ListingFactory(title="Harbour hall")
        _page(Client(), listing.slug)  # kept
        visitor = Client(enforce_csrf_checks=True)
        response = visitor.get(f"/listing-details/{listing.slug}")
        page = response.content.decode()
        assert search_cache.CSRF_MARK not in page and search_cache.NONCE_MARK not in page
        nonce = re.search(r'<script nonce="([^"]+)">', page).group(1)
        assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
        assert "csrftoken" in response.cookies
        other = Client().get(f"/listing-details/{listing.slug}").content.decode()
        assert _csrf_meta(other) != _csrf_meta(page)
        # The token of the kept page passes the CSRF check on the visitor's next form (a wrong
        # password is a 400 or 401, never the 403 of a failed CSRF check).
        answer = visitor.post(
            "/api/user/login",
            {"email": "nobody@example.com", "password": "wrong-password"},
            content_type="application/json",
            headers={"X-CSRFToken": _csrf_meta(page), "Referer": "http://testserver/"},
        )
        assert answer.status_code in (400, 401), answer.content

    def test_an_edited_listing_shows_at_once(self):
        listing = ListingFactory(title="Old hall")
        assert "Old hall" in _page(Client(), listing.slug)
        listing.title = "Renamed hall"
        listing.save()
        assert "Renamed hall" in _page(Client(), listing.slug)

    def test_a_signed_in_renter_sees_their_own_favourite_not_the_kept_page(self, users):
        listing = ListingFactory(title="Liked hall")
        FavouriteFactory(user=users["renter"], listing=listing)
        assert '"favourite": false' in _page(Client(), listing.slug)
        signed_in = Client()
        signed_in.force_login(users["renter"])
        assert '"favourite": true' in _page(signed_in, listing.slug)
        assert '"favourite": false' in _page(Client(), listing.slug)

    def test_a_missing_listing_is_not_kept(self):
        assert Client().get("/listing-details/no-such-space").status_code == 404
        listing = ListingFactory(title="Late hall", slug="no-such-space")
        assert "Late hall" in _page(Client(), listing.slug)


def _city(city: str) -> str:
    return f"{URL}&filters[city]={city}"


def _hit(response) -> bool:
    assert response.status_code == 200, response.content
    return response[search_cache.CACHE_HEADER] == "hit"


@pytest.mark.django_db
class TestRetiredByWhatChanged:
    """An edit retires the stored answers that could contain the listing, and only those."""

    def test_an_edit_in_one_city_keeps_the_answers_of_another(self, api):
        ListingFactory(title="Toronto hall", city="Toronto")
        boston = ListingFactory(title="Boston hall", city="Boston")
        assert titles(api.get(_city("Toronto"))) == ["Toronto hall"]
        assert titles(api.get(_city("Boston"))) == ["Boston hall"]
        boston.title = "Boston loft"
        boston.save()
        assert _hit(api.get(_city("Toronto")))
        again = api.get(_city("Boston"))
        assert not _hit(again) and titles(again) == ["Boston loft"]

    def test_a_listing_moved_to_another_city_leaves_the_old_citys_answer_at_once(self, api):
        listing = ListingFactory(title="Moving hall", city="Toronto")
        assert titles(api.get(_city("toronto"))) == ["Moving hall"]
        listing.city = "Ottawa"
        listing.save()
        assert titles(api.get(_city("toronto"))) == []
        assert titles(api.get(_city("Ottawa"))) == ["Moving hall"]

    def test_a_map_box_is_retired_by_an_edit_inside_it_not_by_one_far_away(self, api):
        ListingFactory(title="Harbour hall", latitude=Decimal("43.65"), longitude=Decimal("-79.38"))
        far = ListingFactory(title="Far hall", city="Sydney", latitude=Decimal("-33.86"), longitude=Decimal("151.2"))
        box = f"{URL}&filters[bounds]=%5B43.5,-79.6,43.8,-79.1%5D"
        assert titles(api.get(box)) == ["Harbour hall"]
        far.title = "Far loft"
        far.save()
        assert _hit(api.get(box))
        far.latitude, far.longitude = Decimal("43.7"), Decimal("-79.4")
        far.save()
        assert set(titles(api.get(box))) == {"Harbour hall", "Far loft"}

    def test_an_offering_changed_retires_its_citys_answers(self, api):
        office = ListingFactory(office=True, title="Desk hall", city="Toronto")
        url = f"{_city('Toronto')}&filters[spaceOffering]=%5B%22privateCabin%22%5D"
        assert titles(api.get(url)) == []
        SpaceOffering.objects.create(listing_id=office.pk, kind=OfferingKind.PRIVATE_CABIN, daily=Decimal("40"))
        assert titles(api.get(url)) == ["Desk hall"]

    def test_an_edit_retires_that_listings_page_only(self):
        listing = ListingFactory(title="Harbour hall")
        other = ListingFactory(title="Garden hall")
        _page(Client(), listing.slug), _page(Client(), other.slug)
        listing.title = "Harbour loft"
        listing.save()
        with CaptureQueriesContext(connection) as queries:
            _page(Client(), other.slug)
        assert len(queries) == 0
        assert "Harbour loft" in _page(Client(), listing.slug)


@pytest.mark.django_db
class TestCappedTotal:
    def test_the_api_counts_up_to_the_cap_and_says_there_are_more(self, api, monkeypatch):
        monkeypatch.setattr("apps.listings.search.paging.COUNT_CAP", 3)
        ListingFactory.create_batch(4)
        data = api.get(URL).json()["data"]
        assert data["totalCount"] == 3 and data["totalCountCapped"] is True and data["totalPages"] == 1
        assert api.get(f"{URL}&limit=2&page=2").json()["data"]["listings"] != []
        assert api.get(f"{URL}&limit=2&page=3").json()["data"]["listings"] == []

    def test_below_the_cap_the_total_is_exact(self, api, monkeypatch):
        monkeypatch.setattr("apps.listings.search.paging.COUNT_CAP", 3)
        ListingFactory.create_batch(3)
        data = api.get(URL).json()["data"]
        assert data["totalCount"] == 3 and data["totalCountCapped"] is False


@pytest.mark.django_db
def test_a_listing_saved_from_a_partial_load_still_retires_its_citys_answers(api):
    listing = ListingFactory(title="Partial hall", city="Toronto")
    assert titles(api.get(_city("Toronto"))) == ["Partial hall"]
    partial = type(listing).objects.only("id", "title").get(pk=listing.pk)
    partial.title = "Partial loft"
    partial.save(update_fields=["title"])
    assert titles(api.get(_city("Toronto"))) == ["Partial loft"]
