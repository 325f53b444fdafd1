"""A listing's time zone: found from its map pin or city, set by the host, migrated for old rows."""

import importlib
from decimal import Decimal

import pytest
from django.apps import apps as django_apps

from apps.bookings.factories import booking_make
from apps.listings import zones
from apps.listings.factories import ListingFactory
from apps.listings.models import Listing
from apps.listings.seed import CITIES

from .fixtures_api import event_payload, media_root, upload  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def images(clients, media_root):  # noqa: F811
    return upload(clients["host"])


def create(client, payload):
    return client.post("/api/listing/create", payload, format="json")


@pytest.mark.parametrize(
    ("city", "country", "zone"),
    [
        ("Toronto", "Canada", "America/Toronto"),
        ("Vancouver", "Canada", "America/Vancouver"),
        ("New York", "United States", "America/New_York"),
        ("San Francisco", "United States", "America/Los_Angeles"),
        ("Bengaluru", "India", "Asia/Kolkata"),
        ("Mumbai", "India", "Asia/Kolkata"),
        ("Sydney", "Australia", "Australia/Sydney"),
        ("Melbourne", "Australia", "Australia/Melbourne"),
        ("Auckland", "New Zealand", "Pacific/Auckland"),
        ("London", "United Kingdom", "Europe/London"),
        ("Manchester", "United Kingdom", "Europe/London"),
    ],
)
def test_every_demo_city_has_its_zone_by_name_and_by_pin(city, country, zone):
    _, _, _, lat, lon, _ = next(c for c in CITIES if c[0] == city)
    assert zones.zone_for_city(city, country) == zone
    assert zones.zone_for(latitude=lat, longitude=lon) == zone


def test_an_unknown_city_falls_back_to_its_country_then_to_new_york():
    assert zones.zone_for(city="Pune", country="India") == "Asia/Kolkata"
    assert zones.zone_for(city="Leeds", country=" united kingdom ") == "Europe/London"
    assert zones.zone_for(city="Nowhere", country="Atlantis") == "America/New_York"
    # A pin in the sea is no place's zone: the city decides.
    assert zones.zone_for(city="Mumbai", country="India", latitude="0", longitude="-30") == "Asia/Kolkata"


def test_a_new_listing_takes_the_zone_of_its_pin_or_city(clients, images):
    mumbai = create(
        clients["host"], event_payload(images, city="Mumbai", country="India", latitude=None, longitude=None)
    )
    assert mumbai.status_code == 201, mumbai.content
    assert mumbai.json()["data"]["timeZone"] == "Asia/Kolkata"
    # The pin wins over a city the table does not know.
    perth = create(
        clients["host"],
        event_payload(
            images, title="Perth loft", city="Fremantle", country="Australia", latitude="-32.0569", longitude="115.7439"
        ),
    )
    assert perth.json()["data"]["timeZone"] == "Australia/Perth"


def test_the_host_sets_the_zone_and_a_bad_one_changes_nothing(clients, users, images):
    response = create(clients["host"], event_payload(images, timeZone="America/Vancouver"))
    assert response.status_code == 201 and response.json()["data"]["timeZone"] == "America/Vancouver"
    listing_id = response.json()["data"]["_id"]

    for bad in ("IST", "Mars/Olympus_Mons", "+05:30"):
        refused = clients["host"].put(
            f"/api/listing/update/{listing_id}", event_payload(images, timeZone=bad), format="json"
        )
        assert refused.status_code == 400
        assert refused.json()["errors"]["timeZone"] == ["Choose a time zone from the list (for example Asia/Kolkata)"]
    assert Listing.objects.get(pk=listing_id).time_zone == "America/Vancouver"
    refused = create(clients["host"], event_payload(images, title="Another", timeZone="Nowhere/Land"))
    assert refused.status_code == 400 and not Listing.objects.filter(title="Another").exists()

    # Editing other fields keeps the zone; moving the listing to another city finds the new one.
    kept = clients["host"].put(
        f"/api/listing/update/{listing_id}", event_payload(images, title="Renamed"), format="json"
    )
    assert kept.json()["data"]["timeZone"] == "America/Vancouver"
    moved = clients["host"].put(
        f"/api/listing/update/{listing_id}",
        event_payload(images, city="London", country="United Kingdom", latitude="51.5074", longitude="-0.1278"),
        format="json",
    )
    assert moved.status_code == 200 and moved.json()["data"]["timeZone"] == "Europe/London"


def test_the_zone_cannot_move_under_upcoming_bookings(clients, users, images):
    listing = ListingFactory(host=users["host"], images=0, pending=True)
    listing.images.create(path=images[0], position=0)
    listing.status = "approved"
    listing.save(update_fields=["status"])
    booking_make(renter=users["renter"], listing=listing)
    url = f"/api/listing/update/{listing.pk}"
    payload = event_payload(
        images, city="New York", country="United States", latitude="40.712800", longitude="-74.006000"
    )
    refused = clients["host"].put(url, {**payload, "timeZone": "Asia/Kolkata"}, format="json")
    assert refused.status_code == 409
    assert "change the time zone of the listing" in refused.json()["message"]
    listing.refresh_from_db()
    assert listing.time_zone == "America/New_York"


def test_the_data_migration_gives_existing_listings_the_zone_of_their_city():
    rows = {
        "mumbai": ListingFactory(city="Mumbai", country="India"),
        "sydney": ListingFactory(city="SYDNEY", country="Australia"),
        "manchester": ListingFactory(city="Manchester", country="United Kingdom"),
        "pune": ListingFactory(city="Pune", country="India"),
        "paris": ListingFactory(
            city="Paris", country="France", latitude=Decimal("48.8566"), longitude=Decimal("2.3522")
        ),
        "nowhere": ListingFactory(city="Atlantis", country="Atlantis", latitude=None, longitude=None),
    }
    Listing.objects.update(time_zone="America/New_York")  # as the column was just added
    migration = importlib.import_module("apps.listings.migrations.0007_listing_time_zone")
    migration.zones_from_cities(django_apps, None)
    got = {name: Listing.objects.get(pk=row.pk).time_zone for name, row in rows.items()}
    assert got == {
        "mumbai": "Asia/Kolkata",
        "sydney": "Australia/Sydney",
        "manchester": "Europe/London",
        "pune": "Asia/Kolkata",
        "paris": "Europe/Paris",
        "nowhere": "America/New_York",
    }
    # The migration's frozen tables are the app's tables.
    assert migration.CITY_ZONES == zones.CITY_ZONES and migration.COUNTRY_ZONES == zones.COUNTRY_ZONES


def test_listing_api_answers_carry_the_zone(clients, users):
    listing = ListingFactory(host=users["host"], city="Auckland", country="New Zealand")
    data = clients["host"].get("/api/listing/get-all").json()["data"]
    rows = data.get("listings") or data.get("data") or []
    assert any(row.get("timeZone") == "Pacific/Auckland" for row in rows), data
    assert listing.time_zone == "Pacific/Auckland"
