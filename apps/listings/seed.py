"""Demo listings: 44 approved spaces in 11 cities of the six countries, a few pending and rejected ones,
amenities, facilities, generated photos (drawn here with Pillow, nothing downloaded) and favourites.

Idempotent: listings are keyed by slug, images by their deterministic storage names.
"""

import contextlib
import functools
import hashlib
import inspect
import io
import os
import random
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import PIL
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone
from PIL import Image, ImageDraw, ImageFont

from apps.accounts.models import User

from . import media, zones
from .models import (
    OFFERING_PERIODS,
    AddOn,
    Amenity,
    CancellationPolicy,
    Facility,
    Favourite,
    Listing,
    ListingImage,
    ListingRequest,
    ListingStatus,
    OfferingKind,
    PaymentPreference,
    PropertyType,
    RequestKind,
    RequestStatus,
    SpaceOffering,
)

AMENITIES = [
    ("Wi-Fi", "wifi"),
    ("Air conditioning", "snowflake"),
    ("Projector", "projector"),
    ("Whiteboard", "board"),
    ("Coffee and tea", "coffee"),
    ("Printer", "printer"),
    ("Sound system", "speaker"),
    ("Parking", "car"),
    ("Wheelchair access", "accessible"),
    ("24/7 access", "clock"),
]
FACILITIES = [
    ("Kitchen", "kitchen"),
    ("Showers", "shower"),
    ("Lockers", "lock"),
    ("Phone booths", "phone"),
    ("Lounge", "sofa"),
    ("Bike storage", "bike"),
    ("Reception", "desk"),
    ("Stage", "stage"),
]

# city, state, country, latitude, longitude, neighbourhoods
CITIES = [
    ("Toronto", "ON", "Canada", "43.6532", "-79.3832", ["King West", "Liberty Village", "Yorkville", "Distillery"]),
    ("Vancouver", "BC", "Canada", "49.2827", "-123.1207", ["Gastown", "Yaletown", "Mount Pleasant", "Kitsilano"]),
    ("New York", "NY", "United States", "40.7128", "-74.0060", ["SoHo", "Chelsea", "Flatiron", "Dumbo"]),
    ("San Francisco", "CA", "United States", "37.7749", "-122.4194", ["SoMa", "Mission", "Nob Hill", "Presidio"]),
    ("Bengaluru", "KA", "India", "12.9716", "77.5946", ["Indiranagar", "Koramangala", "Whitefield", "HSR Layout"]),
    ("Mumbai", "MH", "India", "19.0760", "72.8777", ["Bandra", "Lower Parel", "Powai", "Andheri"]),
    ("Sydney", "NSW", "Australia", "-33.8688", "151.2093", ["Surry Hills", "Barangaroo", "Pyrmont", "Newtown"]),
    ("Melbourne", "VIC", "Australia", "-37.8136", "144.9631", ["Fitzroy", "Docklands", "Southbank", "Richmond"]),
    ("Auckland", "", "New Zealand", "-36.8485", "174.7633", ["Ponsonby", "Britomart", "Parnell", "Wynyard"]),
    ("London", "", "United Kingdom", "51.5074", "-0.1278", ["Shoreditch", "Soho", "Canary Wharf", "Camden"]),
    (
        "Manchester",
        "",
        "United Kingdom",
        "53.4808",
        "-2.2426",
        ["Northern Quarter", "Ancoats", "Spinningfields", "Salford"],
    ),
]

OFFICE_NAMES = ["Coworking Loft", "Work Hub", "Business Centre", "Studio Offices"]
EVENT_NAMES = ["Event Hall", "Rooftop Venue", "Gallery Space", "Conference Room"]
OFFICE_PLANS = [
    [OfferingKind.HOT_DESK, OfferingKind.DEDICATED_DESK, OfferingKind.MEETING_SPACE],
    [OfferingKind.PRIVATE_CABIN, OfferingKind.VIRTUAL_OFFICE, OfferingKind.AV_ROOM],
    [OfferingKind.HOT_DESK, OfferingKind.PRIVATE_CABIN, OfferingKind.MEETING_SPACE, OfferingKind.VIRTUAL_OFFICE],
    [OfferingKind.DEDICATED_DESK, OfferingKind.MEETING_SPACE],
]
BASE_PRICES = {"hourly": 20, "daily": 35, "weekly": 160, "monthly": 450}
PALETTES = [
    ((29, 78, 216), (147, 197, 253)),
    ((15, 118, 110), (153, 246, 228)),
    ((124, 58, 237), (221, 214, 254)),
    ((180, 83, 9), (253, 230, 138)),
    ((190, 18, 60), (254, 205, 211)),
    ((51, 65, 85), (203, 213, 225)),
]
OFFICE_HOURS = {
    **{day: {"open": "08:00", "close": "20:00"} for day in ("monday", "tuesday", "wednesday", "thursday", "friday")},
    "saturday": {"open": "09:00", "close": "17:00"},
    "sunday": None,
}
EVENT_HOURS = {
    day: {"open": "09:00", "close": "23:00"}
    for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
}


def image_bytes(
    title: str, subtitle: str, palette: int, variant: int, size: tuple[int, int], image_format: str = "JPEG"
) -> bytes:
    """A simple drawn "photo": a gradient room with windows, desks or a stage, and the title."""
    width, height = size
    dark, light = PALETTES[palette % len(PALETTES)]
    image = Image.new("RGB", size, dark)
    draw = ImageDraw.Draw(image)
    for y in range(height):
        mix = y / height
        colour = tuple(int(dark[i] * (1 - mix) + light[i] * mix) for i in range(3))
        draw.line([(0, y), (width, y)], fill=colour)
    floor = int(height * 0.7)
    draw.rectangle([0, floor, width, height], fill=tuple(max(0, c - 40) for c in dark))
    for index in range(4):
        x = int(width * (0.08 + index * 0.23))
        draw.rectangle([x, int(height * 0.12), x + int(width * 0.16), int(height * 0.45)], fill=(236, 244, 255))
        draw.line(
            [x + int(width * 0.08), int(height * 0.12), x + int(width * 0.08), int(height * 0.45)], fill=dark, width=3
        )
    for index in range(3 + variant):
        x = int(width * (0.1 + index * 0.8 / (3 + variant)))
        draw.rectangle(
            [x, floor - int(height * 0.08), x + int(width * 0.14), floor - int(height * 0.05)], fill=(120, 72, 40)
        )
        draw.rectangle([x + 6, floor - int(height * 0.05), x + 12, floor + 10], fill=(80, 50, 30))
    font = ImageFont.load_default(size=max(18, width // 22))
    small = ImageFont.load_default(size=max(14, width // 40))
    draw.rectangle([0, height - int(height * 0.2), width, height], fill=(17, 24, 39))
    draw.text((24, height - int(height * 0.18)), title, fill=(255, 255, 255), font=font)
    draw.text((24, height - int(height * 0.08)), subtitle, fill=(229, 231, 235), font=small)
    out = io.BytesIO()
    if image_format == "WEBP":
        image.save(out, format="WEBP", quality=82, method=4)  # as uploads are stored (apps.core.images)
    else:
        image.save(out, format="JPEG", quality=80, optimize=True)
    return out.getvalue()


# Drawing and encoding the demo's 441 WebP photos was most of a seed's time (41 of 69 s), and the
# demo is seeded again and again with the same photos (make run, the embedded check, the tests that
# walk the demo): the encoded bytes are kept on disk between seeds, keyed by the drawing code, the
# Pillow version and the photo's inputs. Ignored by git; `make clean` removes it.
PHOTO_CACHE = Path(settings.BASE_DIR) / ".cache" / "demo-photos"


@functools.cache
def _drawing_version() -> str:
    code = inspect.getsource(image_bytes) + PIL.__version__ + repr(PALETTES)
    return hashlib.sha256(code.encode()).hexdigest()[:16]


def demo_photo(*args) -> bytes:
    """``image_bytes(*args)``, drawn once and then read from ``PHOTO_CACHE``."""
    key = hashlib.sha256(repr((_drawing_version(), args)).encode()).hexdigest()
    cached = PHOTO_CACHE / key[:2] / key
    with contextlib.suppress(OSError):
        return cached.read_bytes()
    data = image_bytes(*args)
    with contextlib.suppress(OSError):  # a read-only checkout draws every time, as before
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{key}.{os.getpid()}.part")  # two seeds at once never read half a file
        partial.write_bytes(data)
        partial.replace(cached)
    return data


def _store_images(listing: Listing, count: int, palette: int) -> None:
    """Photos stored as an upload stores them (apps.listings.media): WebP, 1600 px with 960 and 480 px
    copies beside it, so the demo's pages offer the same ``srcset`` as a host's listing."""
    for position in range(count):
        name = hashlib.md5(f"{listing.slug}:{position}".encode(), usedforsecurity=False).hexdigest()
        path = f"listings/{listing.host_id}/{name}.webp"
        subtitle = f"{listing.city}, {listing.country}"
        for stored, width in media.sizes_of(path):
            if not default_storage.exists(stored):
                size = (width, width * 2 // 3)
                image = demo_photo(listing.title, subtitle, palette + position, position, size, "WEBP")
                default_storage.save(stored, ContentFile(image))
        ListingImage.objects.update_or_create(
            listing=listing,
            position=position,
            defaults={"path": path, "alt": f"{listing.title}: view {position + 1}"},
        )


def _price(rng: random.Random, period: str, factor: float) -> Decimal:
    return Decimal(str(round(BASE_PRICES[period] * factor * rng.uniform(0.8, 1.6)))).quantize(Decimal("0.01"))


def _listing(
    rng: random.Random, *, host: User, city: tuple, index: int, office: bool, status: str = ListingStatus.APPROVED
) -> Listing:
    name, state, country, lat, lon, areas = city
    area = areas[index % len(areas)]
    title = f"{area} {(OFFICE_NAMES if office else EVENT_NAMES)[(index + len(name)) % 4]}"
    slug = f"{title}-{name}".lower().replace(" ", "-").replace("/", "-")
    if status != ListingStatus.APPROVED:
        slug = f"{slug}-{status}"
    factor = {"India": 0.5, "United Kingdom": 1.2, "United States": 1.3}.get(country, 1.0)
    now = timezone.now()
    defaults = {
        "host": host,
        "created_by": host,
        "title": title,
        "description": (
            f"A bright {'workplace' if office else 'venue'} in {area}, {name}, close to public transport. "
            + (
                "Ergonomic chairs, fast Wi-Fi, quiet phone booths and a friendly community."
                if office
                else "Flexible layouts for meetings, workshops, launches and celebrations, with in-house catering on request."
            )
        ),
        "property_type": PropertyType.OFFICE_SPACE if office else PropertyType.EVENT_SPACE,
        "status": status,
        "reject_reason": "Please add photos of the main room." if status == ListingStatus.REJECTED else "",
        "is_active": True,
        "is_premium": index == 0 and status == ListingStatus.APPROVED and rng.random() < 0.6,
        "street_address": f"{10 + index * 7} {area} Street",
        "city": name,
        "state": state,
        "country": country,
        "postal_code": f"{1000 + index * 11}",
        "address": f"{10 + index * 7} {area} Street, {name}, {country}",
        "latitude": (Decimal(lat) + Decimal(str(round(rng.uniform(-0.03, 0.03), 6)))).quantize(Decimal("0.000001")),
        "longitude": (Decimal(lon) + Decimal(str(round(rng.uniform(-0.03, 0.03), 6)))).quantize(Decimal("0.000001")),
        "time_zone": zones.zone_for(city=name, country=country, latitude=lat, longitude=lon),
        "hourly": None if office else _price(rng, "hourly", factor * 3),
        "daily": None if office else _price(rng, "daily", factor * 12),
        "weekly": None if office else _price(rng, "weekly", factor * 12),
        "monthly": None,
        "discount": Decimal(rng.choice(["0", "0", "5", "10"])),
        "processing_fee": Decimal("3"),
        "commission_collection": Decimal("10"),
        "payment_preference": PaymentPreference.PAY_NOW,
        "number_of_seats": rng.choice([20, 40, 60, 120]) if office else None,
        "guest": None if office else rng.choice([30, 60, 120, 250]),
        "dimension": f"{rng.choice([120, 200, 350, 600])} m²",
        "minimum_days": 1 if office else rng.choice([2, 3, 4]),
        "opening_hours": OFFICE_HOURS if office else EVENT_HOURS,
        "blocked_dates": [(now + timedelta(days=20 + index)).date()],
        "buffer_minutes": 0 if office else 30,
        "cancellation_policy": [CancellationPolicy.FLEXIBLE, CancellationPolicy.MODERATE, CancellationPolicy.STRICT][
            index % 3
        ],
        "approved_at": now if status == ListingStatus.APPROVED else None,
    }
    listing, created = Listing.objects.update_or_create(slug=slug, defaults=defaults)
    if created:
        Listing.objects.filter(pk=listing.pk).update(created_at=now - timedelta(days=rng.randint(1, 400)))
    if office:
        for kind in OFFICE_PLANS[index % len(OFFICE_PLANS)]:
            periods = OFFERING_PERIODS[kind]
            prices = {
                period: _price(rng, period, factor * (2 if kind == OfferingKind.PRIVATE_CABIN else 1))
                for period in periods
            }
            SpaceOffering.objects.update_or_create(
                listing=listing,
                kind=kind,
                defaults={
                    **prices,
                    "seats": 1
                    if kind in (OfferingKind.MEETING_SPACE, OfferingKind.AV_ROOM)
                    else rng.choice([5, 10, 20]),
                    "minimum_period": 2 if periods == ("hourly",) else 1,
                },
            )
        add_ons = [("Locker", "15.00"), ("Printing bundle", "10.00"), ("Coffee for the team", "25.00")]
    else:
        add_ons = [("Catering per guest", "22.00"), ("Projector and screen", "60.00"), ("Cleaning", "90.00")]
    for title_, price in add_ons[: 2 + index % 2]:
        AddOn.objects.update_or_create(listing=listing, title=title_, defaults={"price": Decimal(price)})
    amenities = list(Amenity.objects.order_by("name"))
    facilities = list(Facility.objects.order_by("name"))
    listing.amenities.set(rng.sample(amenities, k=rng.randint(4, 8)))
    listing.facilities.set(rng.sample(facilities, k=rng.randint(2, 5)))
    _store_images(listing, 3, index + len(name))
    if status != ListingStatus.APPROVED and not ListingRequest.objects.filter(listing=listing).exists():
        ListingRequest.objects.create(
            listing=listing,
            kind=RequestKind.NEW,
            status=RequestStatus.PENDING if status == ListingStatus.PENDING else RequestStatus.REJECTED,
            requested_by=host,
            reason=defaults["reject_reason"],
            reviewed_at=None if status == ListingStatus.PENDING else now,
        )
    return listing


def seed(stdout) -> None:
    rng = random.Random(20240611)
    for name, icon in AMENITIES:
        Amenity.objects.get_or_create(name=name, defaults={"icon": icon})
    for name, icon in FACILITIES:
        Facility.objects.get_or_create(name=name, defaults={"icon": icon})
    hosts = [User.objects.get(email="host@example.com"), User.objects.get(email="host2@example.com")]
    approved = []
    for city_index, city in enumerate(CITIES):
        for index in range(4):
            host = hosts[(city_index + index) % 2]
            approved.append(_listing(rng, host=host, city=city, index=index, office=index % 2 == 0))
    for city, index, status in [
        (CITIES[0], 1, ListingStatus.PENDING),
        (CITIES[2], 2, ListingStatus.PENDING),
        (CITIES[9], 0, ListingStatus.PENDING),
        (CITIES[4], 3, ListingStatus.REJECTED),
        (CITIES[6], 1, ListingStatus.REJECTED),
    ]:
        _listing(rng, host=hosts[index % 2], city=city, index=index, office=index % 2 == 0, status=status)
    renter = User.objects.filter(email="renter@example.com").first()
    if renter is not None:
        for listing in approved[:: len(approved) // 5][:5]:
            Favourite.objects.get_or_create(user=renter, listing=listing)
    stdout.write(
        f"  {Listing.objects.filter(status=ListingStatus.APPROVED).count()} approved listings, "
        f"{Listing.objects.exclude(status=ListingStatus.APPROVED).count()} pending or rejected"
    )
