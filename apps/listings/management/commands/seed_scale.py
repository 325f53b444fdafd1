"""``manage.py seed_scale``: a large data set for measuring the public search (100,000 listings by default).

Bulk inserts in batches, a progress bar on the terminal; run it again to add more. The listings use
a few shared drawn images, 300 hosts, the demo amenities and facilities, and realistic mixes of
types, statuses, cities, prices, offerings and opening hours.
"""

import random
import sys
import time
import uuid
from datetime import timedelta
from decimal import Decimal

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify

from apps.accounts.models import Role, User
from apps.listings import seed as demo
from apps.listings import zones
from apps.listings.models import (
    OFFERING_PERIODS,
    Amenity,
    Availability,
    CancellationPolicy,
    Facility,
    Listing,
    ListingImage,
    ListingStatus,
    OfferingKind,
    PropertyType,
    SpaceOffering,
)

CITIES = [
    ("Toronto", "ON", "Canada", 43.6532, -79.3832),
    ("Vancouver", "BC", "Canada", 49.2827, -123.1207),
    ("Montreal", "QC", "Canada", 45.5019, -73.5674),
    ("Calgary", "AB", "Canada", 51.0447, -114.0719),
    ("Ottawa", "ON", "Canada", 45.4215, -75.6972),
    ("New York", "NY", "United States", 40.7128, -74.0060),
    ("San Francisco", "CA", "United States", 37.7749, -122.4194),
    ("Los Angeles", "CA", "United States", 34.0522, -118.2437),
    ("Chicago", "IL", "United States", 41.8781, -87.6298),
    ("Austin", "TX", "United States", 30.2672, -97.7431),
    ("Seattle", "WA", "United States", 47.6062, -122.3321),
    ("Boston", "MA", "United States", 42.3601, -71.0589),
    ("Miami", "FL", "United States", 25.7617, -80.1918),
    ("Bengaluru", "KA", "India", 12.9716, 77.5946),
    ("Mumbai", "MH", "India", 19.0760, 72.8777),
    ("New Delhi", "DL", "India", 28.6139, 77.2090),
    ("Hyderabad", "TG", "India", 17.3850, 78.4867),
    ("Pune", "MH", "India", 18.5204, 73.8567),
    ("Chennai", "TN", "India", 13.0827, 80.2707),
    ("Sydney", "NSW", "Australia", -33.8688, 151.2093),
    ("Melbourne", "VIC", "Australia", -37.8136, 144.9631),
    ("Brisbane", "QLD", "Australia", -27.4698, 153.0251),
    ("Perth", "WA", "Australia", -31.9505, 115.8605),
    ("Auckland", "", "New Zealand", -36.8485, 174.7633),
    ("Wellington", "", "New Zealand", -41.2865, 174.7762),
    ("Christchurch", "", "New Zealand", -43.5321, 172.6362),
    ("London", "", "United Kingdom", 51.5074, -0.1278),
    ("Manchester", "", "United Kingdom", 53.4808, -2.2426),
    ("Edinburgh", "", "United Kingdom", 55.9533, -3.1883),
    ("Bristol", "", "United Kingdom", 51.4545, -2.5879),
    ("Birmingham", "", "United Kingdom", 52.4862, -1.8904),
]
ADJECTIVES = [
    "Sunny",
    "Quiet",
    "Bright",
    "Central",
    "Modern",
    "Historic",
    "Creative",
    "Green",
    "Urban",
    "Cosy",
    "Spacious",
    "Elegant",
    "Industrial",
    "Riverside",
    "Harbour",
    "Garden",
    "Skyline",
    "Corner",
    "Loft",
    "Royal",
]
PLACES = [
    "Market",
    "Station",
    "Park",
    "Square",
    "Mill",
    "Wharf",
    "Hill",
    "Bridge",
    "Canal",
    "Library",
    "Foundry",
    "Terrace",
    "Lane",
    "Court",
    "Yard",
    "Quarter",
    "Commons",
    "Exchange",
    "Arcade",
    "Works",
]
OFFICE_NOUNS = ["Coworking", "Work Hub", "Desk Space", "Business Centre", "Studio Offices", "Office Suites"]
EVENT_NOUNS = ["Event Hall", "Rooftop Venue", "Gallery", "Conference Centre", "Ballroom", "Meeting House"]
KINDS = list(OfferingKind.values)
IMAGE_SETS = 12


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.started, self.done = total, label, time.monotonic(), 0

    def advance(self, count: int) -> None:
        self.done += count
        share = self.done / self.total if self.total else 1
        bar = "#" * int(share * 30)
        elapsed = time.monotonic() - self.started
        rate = self.done / elapsed if elapsed else 0
        sys.stderr.write(
            f"\r{self.label} [{bar:<30}] {share:4.0%} {self.done:,}/{self.total:,} {elapsed:5.0f}s {rate:,.0f}/s"
        )
        sys.stderr.flush()
        if self.done >= self.total:
            sys.stderr.write("\n")


class Command(BaseCommand):
    help = "Generate a large data set of listings with bulk inserts (100,000 by default)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--count", type=int, default=100_000)
        parser.add_argument("--batch", type=int, default=5_000)
        parser.add_argument("--hosts", type=int, default=300)
        parser.add_argument("--seed", type=int, default=7)

    def handle(self, *args, count: int, batch: int, hosts: int, seed: int, **options) -> None:
        rng = random.Random(seed)
        for name, icon in demo.AMENITIES:
            Amenity.objects.get_or_create(name=name, defaults={"icon": icon})
        for name, icon in demo.FACILITIES:
            Facility.objects.get_or_create(name=name, defaults={"icon": icon})
        amenity_ids = list(Amenity.objects.values_list("id", flat=True))
        facility_ids = list(Facility.objects.values_list("id", flat=True))
        host_ids = self._hosts(hosts)
        images = self._images(host_ids[0])
        start = Listing.objects.filter(slug__contains="-x").count()
        progress = Progress(count, "listings")
        for offset in range(0, count, batch):
            size = min(batch, count - offset)
            with transaction.atomic():
                self._batch(rng, start + offset, size, host_ids, images, amenity_ids, facility_ids)
            progress.advance(size)
        with connection.cursor() as cursor:
            for table in ("listings_listing", "listings_spaceoffering", "listings_listingimage"):
                cursor.execute(f"ANALYZE {table}")
        self.stdout.write(self.style.SUCCESS(f"{Listing.objects.count():,} listings in the database"))

    def _hosts(self, count: int) -> list:
        existing = list(
            User.objects.filter(email__startswith="scale-host-", role=Role.HOST).values_list("id", flat=True)
        )
        missing = count - len(existing)
        if missing > 0:
            password = make_password(None)
            first = len(existing)
            User.objects.bulk_create(
                [
                    User(
                        email=f"scale-host-{first + n}@example.com",
                        role=Role.HOST,
                        first_name="Host",
                        last_name=f"{first + n}",
                        user_name=f"scalehost{first + n}",
                        password=password,
                        account_verified=True,
                        is_verified=True,
                        tax=Decimal("5"),
                    )
                    for n in range(missing)
                ],
                batch_size=1000,
            )
            existing = list(
                User.objects.filter(email__startswith="scale-host-", role=Role.HOST).values_list("id", flat=True)
            )
        return existing[:count]

    def _images(self, host_id) -> list[list[str]]:
        """A few drawn image sets shared by every generated listing."""
        sets = []
        for index in range(IMAGE_SETS):
            holder = Listing(slug=f"scale-image-set-{index}", title=f"Space {index + 1}", city="", country="")
            holder.host_id = host_id
            paths = []
            for position in range(2):
                name = f"{uuid.uuid5(uuid.NAMESPACE_URL, f'scale-{index}-{position}').hex}"
                paths.append(f"listings/{host_id}/{name}.jpg")
                large, small = paths[-1], f"listings/{host_id}/{name}-sm.jpg"
                from django.core.files.base import ContentFile
                from django.core.files.storage import default_storage

                if not default_storage.exists(large):
                    data = demo.image_bytes("Spacemarket", f"Space {index + 1}", index, position, (1200, 800))
                    default_storage.save(large, ContentFile(data))
                if not default_storage.exists(small):
                    data = demo.image_bytes("Spacemarket", f"Space {index + 1}", index, position, (480, 320))
                    default_storage.save(small, ContentFile(data))
            sets.append(paths)
        return sets

    def _batch(self, rng, first: int, size: int, host_ids, images, amenity_ids, facility_ids) -> None:
        now = timezone.now()
        listings, offerings, image_rows, amenity_rows, facility_rows = [], [], [], [], []
        amenity_through = Listing.amenities.through
        facility_through = Listing.facilities.through
        for n in range(first, first + size):
            office = rng.random() < 0.55
            city, state, country, lat, lon = rng.choice(CITIES)
            noun = rng.choice(OFFICE_NOUNS if office else EVENT_NOUNS)
            title = f"{rng.choice(ADJECTIVES)} {rng.choice(PLACES)} {noun}"
            roll = rng.random()
            status = (
                ListingStatus.APPROVED
                if roll < 0.92
                else ListingStatus.PENDING
                if roll < 0.97
                else ListingStatus.REJECTED
            )
            factor = {"India": 0.5, "United Kingdom": 1.2, "United States": 1.3}.get(country, 1.0)
            listing_id = uuid.uuid4()
            closed = rng.choice(["sunday", "saturday", None, None])
            hours = {
                day: (None if day == closed else {"open": "08:00", "close": "20:00"})
                for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
            }
            listings.append(
                Listing(
                    id=listing_id,
                    host_id=rng.choice(host_ids),
                    slug=f"{slugify(title)}-{slugify(city)}-x{n}",
                    title=title,
                    description=f"{title} in {city}: a {'workplace' if office else 'venue'} close to transport.",
                    property_type=PropertyType.OFFICE_SPACE if office else PropertyType.EVENT_SPACE,
                    status=status,
                    is_active=rng.random() < 0.97,
                    availability=Availability.AVAILABLE if rng.random() < 0.95 else Availability.UNAVAILABLE,
                    is_premium=rng.random() < 0.03,
                    street_address=f"{rng.randint(1, 400)} {rng.choice(PLACES)} Street",
                    city=city,
                    state=state,
                    country=country,
                    address=f"{city}, {country}",
                    latitude=Decimal(f"{lat + rng.uniform(-0.15, 0.15):.6f}"),
                    longitude=Decimal(f"{lon + rng.uniform(-0.15, 0.15):.6f}"),
                    time_zone=zones.zone_for(city=city, country=country),
                    hourly=None if office else Decimal(f"{rng.uniform(20, 300) * factor:.2f}"),
                    daily=None if office else Decimal(f"{rng.uniform(150, 2500) * factor:.2f}"),
                    weekly=None if office else Decimal(f"{rng.uniform(800, 12000) * factor:.2f}"),
                    discount=Decimal(rng.choice(["0", "0", "0", "5", "10"])),
                    processing_fee=Decimal("3"),
                    commission_collection=Decimal("10"),
                    number_of_seats=rng.choice([10, 20, 40, 80, 150]) if office else None,
                    guest=None if office else rng.choice([20, 50, 100, 200, 500]),
                    minimum_days=1 if office else rng.choice([1, 2, 4]),
                    opening_hours=hours,
                    blocked_dates=[
                        (now + timedelta(days=rng.randint(1, 120))).date() for _ in range(rng.randint(0, 3))
                    ],
                    cancellation_policy=rng.choice(CancellationPolicy.values),
                    rating_average=Decimal(f"{rng.uniform(3, 5):.1f}") if status == ListingStatus.APPROVED else 0,
                    rating_count=rng.randint(0, 200) if status == ListingStatus.APPROVED else 0,
                    created_at=now - timedelta(minutes=rng.randint(1, 3 * 365 * 24 * 60)),
                    approved_at=now if status == ListingStatus.APPROVED else None,
                )
            )
            if office:
                for kind in rng.sample(KINDS, k=rng.randint(1, 3)):
                    prices = {
                        period: Decimal(f"{demo.BASE_PRICES[period] * factor * rng.uniform(0.6, 2.5):.2f}")
                        for period in OFFERING_PERIODS[kind]
                    }
                    offerings.append(
                        SpaceOffering(listing_id=listing_id, kind=kind, seats=rng.choice([1, 5, 10, 20]), **prices)
                    )
            for position, path in enumerate(images[n % len(images)]):
                image_rows.append(ListingImage(listing_id=listing_id, path=path, position=position, alt=title))
            for amenity_id in rng.sample(amenity_ids, k=min(len(amenity_ids), rng.randint(2, 6))):
                amenity_rows.append(amenity_through(listing_id=listing_id, amenity_id=amenity_id))
            for facility_id in rng.sample(facility_ids, k=min(len(facility_ids), rng.randint(1, 3))):
                facility_rows.append(facility_through(listing_id=listing_id, facility_id=facility_id))
        Listing.objects.bulk_create(listings, batch_size=1000)
        SpaceOffering.objects.bulk_create(offerings, batch_size=2000)
        ListingImage.objects.bulk_create(image_rows, batch_size=2000)
        amenity_through.objects.bulk_create(amenity_rows, batch_size=5000)
        facility_through.objects.bulk_create(facility_rows, batch_size=5000)
