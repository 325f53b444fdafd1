# Over 450 lines: the listing and its parts (offerings, prices, images, requests), migrated together.
"""Listings: spaces hosts offer, with their offerings, prices, rules and images."""

import uuid
from decimal import Decimal

from django.conf import settings
from django.contrib.postgres.fields import ArrayField, DecimalRangeField
from django.contrib.postgres.indexes import GinIndex, GistIndex, OpClass
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Upper
from django.utils import timezone

from apps.cms.sanitize import sanitize_rich_text

from .zones import default_zone

PERCENT = [MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))]
NOT_NEGATIVE = [MinValueValidator(Decimal("0"))]
MAX_NOTICE_HOURS = 24 * 90  # at most 90 days of notice
MAX_BOOKING_WINDOW_DAYS = 730  # bookable at most two years ahead


def money_field(**kwargs) -> models.DecimalField:
    return models.DecimalField(max_digits=12, decimal_places=2, validators=NOT_NEGATIVE, **kwargs)


def percent_field(**kwargs) -> models.DecimalField:
    return models.DecimalField(max_digits=5, decimal_places=2, default=Decimal("0"), validators=PERCENT, **kwargs)


class PropertyType(models.TextChoices):
    EVENT_SPACE = "eventSpace", "Event space"
    OFFICE_SPACE = "officeSpace", "Work space"


class ListingStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class Availability(models.TextChoices):
    AVAILABLE = "available", "Available"
    AVAILABLE_SOON = "availableSoon", "Available soon"
    UNAVAILABLE = "unavailable", "Unavailable"


class PaymentPreference(models.TextChoices):
    PAY_NOW = "payNow", "Pay now"
    PAY_LATER = "payLater", "Pay at the space"


class CancellationPolicy(models.TextChoices):
    FLEXIBLE = "flexible", "Flexible"
    MODERATE = "moderate", "Moderate"
    STRICT = "strict", "Strict"


class Period(models.TextChoices):
    HOURLY = "hourly", "Hour"
    DAILY = "daily", "Day"
    WEEKLY = "weekly", "Week"
    MONTHLY = "monthly", "Month"


class OfferingKind(models.TextChoices):
    """Office space offerings (spec section 3) and the periods each is sold by."""

    VIRTUAL_OFFICE = "virtualOffice", "Virtual Office"
    MEETING_SPACE = "meetingSpace", "Meeting Space"
    AV_ROOM = "avRoom", "AV Room"
    HOT_DESK = "hotDesk", "Hot Desk"
    DEDICATED_DESK = "dedicatedDesk", "Dedicated Desk"
    PRIVATE_CABIN = "privateCabin", "Private Cabin"


OFFERING_PERIODS: dict[str, tuple[str, ...]] = {
    OfferingKind.VIRTUAL_OFFICE: (Period.MONTHLY,),
    OfferingKind.MEETING_SPACE: (Period.HOURLY,),
    OfferingKind.AV_ROOM: (Period.HOURLY,),
    OfferingKind.HOT_DESK: (Period.DAILY, Period.WEEKLY, Period.MONTHLY),
    OfferingKind.DEDICATED_DESK: (Period.DAILY, Period.WEEKLY, Period.MONTHLY),
    OfferingKind.PRIVATE_CABIN: (Period.MONTHLY,),
}

# Offerings booked whole (one booking at a time per unit) versus by the seat.
EXCLUSIVE_OFFERINGS = frozenset({OfferingKind.MEETING_SPACE, OfferingKind.AV_ROOM, OfferingKind.PRIVATE_CABIN})
EVENT_PERIODS: tuple[str, ...] = (Period.HOURLY, Period.DAILY, Period.WEEKLY)


class CatalogueItem(models.Model):
    """An entry of an admin-managed list a listing picks from."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=80, unique=True)
    icon = models.CharField(max_length=40, blank=True)
    is_active = models.BooleanField(default=True)

    class Meta:
        abstract = True
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Amenity(CatalogueItem):
    """Admin-managed list (Wi-Fi, projector, parking...)."""

    class Meta(CatalogueItem.Meta):
        verbose_name_plural = "amenities"


class Facility(CatalogueItem):
    """Admin-managed list of facilities (kitchen, showers, lockers...)."""

    class Meta(CatalogueItem.Meta):
        verbose_name_plural = "facilities"


# Public search (apps/listings/search/): partial indexes over the rows a visitor may see, and a
# trigram index on UPPER(title), which serves both ``icontains`` and the typo-tolerant ``<%``.
_PUBLIC_ROWS = Q(status="approved", is_active=True, is_deleted=False, availability="available")
SEARCH_INDEXES = [
    # Premium listings (few) are read apart from the others, each newest first (search.featured_first).
    models.Index(fields=["-created_at", "-id"], condition=_PUBLIC_ROWS, name="search_public_newest"),
    # Listings marked premium, by host: counted and read for the hosts who are premium now.
    models.Index(
        fields=["host", "-created_at", "-id"], condition=_PUBLIC_ROWS & Q(is_premium=True), name="search_public_premium"
    ),
    models.Index(
        Upper("city"),
        "property_type",
        F("created_at").desc(),
        condition=_PUBLIC_ROWS,
        name="search_public_city",
    ),
    # A city without a type, newest first: the page is read in index order instead of sorting the city's rows.
    models.Index(
        Upper("city"), F("created_at").desc(), F("id").desc(), condition=_PUBLIC_ROWS, name="search_public_city_newest"
    ),
    models.Index(fields=["latitude", "longitude"], condition=_PUBLIC_ROWS, name="search_public_position"),
    GinIndex(OpClass(Upper("title"), name="gin_trgm_ops"), name="search_title_trgm"),
    models.Index(
        OpClass(Upper("title"), name="text_pattern_ops"), condition=_PUBLIC_ROWS, name="search_public_title_prefix"
    ),
]


class Listing(models.Model):
    """A space a host offers. Event spaces are priced hourly/daily/weekly with a guest capacity;
    office spaces carry offerings (desks, cabins, rooms) with their own prices and seats.

    ``opening_hours`` maps a weekday (``monday`` … ``sunday``) to ``{"open": "HH:MM", "close": "HH:MM"}``
    or ``null`` when closed; ``blocked_dates`` are whole local days that cannot be booked.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="listings")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    slug = models.SlugField(max_length=140, unique=True)
    title = models.CharField(max_length=140)
    description = models.TextField(max_length=5000, blank=True)
    property_type = models.CharField(max_length=16, choices=PropertyType.choices)
    status = models.CharField(max_length=16, choices=ListingStatus.choices, default=ListingStatus.PENDING)
    reject_reason = models.TextField(max_length=1000, blank=True)
    is_active = models.BooleanField(default=True)
    is_deleted = models.BooleanField(default=False)
    deleted_at = models.DateTimeField(null=True, blank=True)
    availability = models.CharField(max_length=16, choices=Availability.choices, default=Availability.AVAILABLE)
    is_premium = models.BooleanField(default=False)

    street_address = models.CharField(max_length=200, blank=True)
    city = models.CharField(max_length=80)
    state = models.CharField(max_length=80, blank=True)
    country = models.CharField(max_length=80)
    postal_code = models.CharField(max_length=20, blank=True)
    address = models.CharField(max_length=300, blank=True, help_text="Full address as shown.")
    latitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    longitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    time_zone = models.CharField(
        max_length=64,
        default=default_zone,
        help_text="IANA zone of the space (Asia/Kolkata): its opening hours, slots and booked times are wall-clock "
        "times there. Found from the map pin or the city when the listing is created; the host can change it.",
    )

    # Event space prices (office spaces price per offering).
    hourly = money_field(null=True, blank=True)
    daily = money_field(null=True, blank=True)
    weekly = money_field(null=True, blank=True)
    monthly = money_field(null=True, blank=True)
    discount = percent_field()
    processing_fee = percent_field()
    commission_collection = percent_field()
    payment_preference = models.CharField(
        max_length=16, choices=PaymentPreference.choices, default=PaymentPreference.PAY_NOW
    )

    number_of_seats = models.PositiveIntegerField(null=True, blank=True, help_text="Office spaces: total seats.")
    guest = models.PositiveIntegerField(null=True, blank=True, help_text="Event spaces: guest capacity.")
    dimension = models.CharField(max_length=60, blank=True)
    minimum_days = models.PositiveIntegerField(default=1, help_text="Event spaces: minimum booking, in hours.")

    opening_hours = models.JSONField(default=dict, blank=True)
    blocked_dates = ArrayField(models.DateField(), default=list, blank=True)
    buffer_minutes = models.PositiveIntegerField(default=0, help_text="Time kept free between bookings.")
    minimum_notice_hours = models.PositiveIntegerField(
        default=0, help_text="How long before its start a booking must be requested, in hours."
    )
    booking_window_days = models.PositiveIntegerField(
        default=365, help_text="How far ahead a booking may start, in days from today."
    )
    cancellation_policy = models.CharField(
        max_length=16, choices=CancellationPolicy.choices, default=CancellationPolicy.FLEXIBLE
    )

    amenities = models.ManyToManyField(Amenity, blank=True, related_name="listings")
    facilities = models.ManyToManyField(Facility, blank=True, related_name="listings")

    rating_average = models.DecimalField(max_digits=3, decimal_places=2, default=Decimal("0"))
    rating_count = models.PositiveIntegerField(default=0)

    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(property_type__in=PropertyType.values), name="listing_property_type_valid"
            ),
            models.CheckConstraint(condition=Q(status__in=ListingStatus.values), name="listing_status_valid"),
            models.CheckConstraint(condition=~Q(time_zone=""), name="listing_time_zone_set"),
            models.CheckConstraint(
                condition=Q(availability__in=Availability.values), name="listing_availability_valid"
            ),
            models.CheckConstraint(
                condition=Q(payment_preference__in=PaymentPreference.values), name="listing_payment_preference_valid"
            ),
            models.CheckConstraint(
                condition=Q(cancellation_policy__in=CancellationPolicy.values), name="listing_cancellation_policy_valid"
            ),
            models.CheckConstraint(
                condition=Q(discount__gte=0, discount__lte=100)
                & Q(processing_fee__gte=0, processing_fee__lte=100)
                & Q(commission_collection__gte=0, commission_collection__lte=100),
                name="listing_percentages_0_100",
            ),
            models.CheckConstraint(
                condition=(Q(hourly__isnull=True) | Q(hourly__gte=0))
                & (Q(daily__isnull=True) | Q(daily__gte=0))
                & (Q(weekly__isnull=True) | Q(weekly__gte=0))
                & (Q(monthly__isnull=True) | Q(monthly__gte=0)),
                name="listing_prices_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(minimum_notice_hours__lte=MAX_NOTICE_HOURS)
                & Q(booking_window_days__gte=1, booking_window_days__lte=MAX_BOOKING_WINDOW_DAYS),
                name="listing_notice_and_window_in_range",
            ),
        ]
        indexes = SEARCH_INDEXES

    def __str__(self) -> str:
        return self.title

    def save(self, *args, **kwargs):
        # Every write path (API, services, the Django admin, the shell) stores a sanitised description.
        self.description = sanitize_rich_text(self.description)
        super().save(*args, **kwargs)

    def period_prices(self) -> dict[str, Decimal]:
        """Event space rates by period (only those set)."""
        return {period: getattr(self, period) for period in EVENT_PERIODS if getattr(self, period) is not None}


class SpaceOffering(models.Model):
    """One kind of space inside an office listing (a hot desk area, a private cabin...)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    listing = models.ForeignKey(Listing, on_delete=models.CASCADE, related_name="space_offerings")
    kind = models.CharField(max_length=20, choices=OfferingKind.choices)
    hourly = money_field(null=True, blank=True)
    daily = money_field(null=True, blank=True)
    weekly = money_field(null=True, blank=True)
    monthly = money_field(null=True, blank=True)
    seats = models.PositiveIntegerField(
        default=1, help_text="Seats (desks) or units (rooms, cabins) available at once."
    )
    minimum_period = models.PositiveIntegerField(
        default=1, help_text="Minimum booking: hours for hourly offerings, otherwise days."
    )

    class Meta:
        ordering = ["listing", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["listing", "kind"], name="offering_one_per_kind"),
            models.CheckConstraint(condition=Q(kind__in=OfferingKind.values), name="offering_kind_valid"),
            models.CheckConstraint(condition=Q(seats__gte=1), name="offering_seats_positive"),
            models.CheckConstraint(
                condition=(Q(hourly__isnull=True) | Q(hourly__gte=0))
                & (Q(daily__isnull=True) | Q(daily__gte=0))
                & (Q(weekly__isnull=True) | Q(weekly__gte=0))
                & (Q(monthly__isnull=True) | Q(monthly__gte=0)),
                name="offering_prices_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.listing_id}"

    @property
    def title(self) -> str:
        return self.get_kind_display()

    @property
    def periods(self) -> tuple[str, ...]:
        return OFFERING_PERIODS[self.kind]

    @property
    def is_exclusive(self) -> bool:
        return self.kind in EXCLUSIVE_OFFERINGS

    @property
    def is_hourly(self) -> bool:
        return self.periods == (Period.HOURLY,)

    def period_prices(self) -> dict[str, Decimal]:
        return {period: getattr(self, period) for period in self.periods if getattr(self, period) is not None}


class AddOn(models.Model):
    """A service or add-on a renter can choose with a booking (catering, projector...)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    listing = models.ForeignKey(Listing, on_delete=models.CASCADE, related_name="add_ons")
    title = models.CharField(max_length=120)
    price = money_field()

    class Meta:
        ordering = ["listing", "title"]
        constraints = [models.CheckConstraint(condition=Q(price__gte=0), name="add_on_price_not_negative")]

    def __str__(self) -> str:
        return self.title


class ListingImage(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    listing = models.ForeignKey(Listing, on_delete=models.CASCADE, related_name="images")
    path = models.CharField(max_length=300, help_text="Storage path of the web-size image.")
    position = models.PositiveSmallIntegerField(default=0)
    alt = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["listing", "position"]

    def __str__(self) -> str:
        return self.path


class Favourite(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="favourites")
    listing = models.ForeignKey(Listing, on_delete=models.CASCADE, related_name="favourited_by")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "listing"], name="favourite_once")]

    def __str__(self) -> str:
        return f"{self.user_id} likes {self.listing_id}"


class RequestKind(models.TextChoices):
    NEW = "new", "New listing"
    EDIT = "edit", "Edit of an approved listing"


class RequestStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    CANCELLED = "cancelled", "Cancelled"


class ListingRequest(models.Model):
    """A review request (the listing's ``requestId``): a new listing, or a substantive edit of an
    approved one. An edit's proposed values wait in ``payload`` while the live listing stays as it
    was; approving applies them. At most one pending request per listing.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    listing = models.ForeignKey(Listing, on_delete=models.CASCADE, related_name="requests")
    kind = models.CharField(max_length=8, choices=RequestKind.choices)
    status = models.CharField(max_length=12, choices=RequestStatus.choices, default=RequestStatus.PENDING)
    payload = models.JSONField(default=dict, blank=True, help_text="Edit requests: the proposed listing.")
    changed_fields = ArrayField(models.CharField(max_length=40), default=list, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.TextField(max_length=1000, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=RequestKind.values), name="listing_request_kind_valid"),
            models.CheckConstraint(condition=Q(status__in=RequestStatus.values), name="listing_request_status_valid"),
            models.UniqueConstraint(
                fields=["listing"], condition=Q(status="pending"), name="listing_request_one_pending"
            ),
        ]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.status}) for {self.listing_id}"


class ListingDraft(models.Model):
    """The listing form as the host left it: a new listing not submitted yet (``listing`` null), or
    unsaved changes to an existing one. One per host for a new listing and one per listing; kept
    until the host submits or discards it. ``data`` is the form's own shape, not validated."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="listing_drafts")
    listing = models.ForeignKey(Listing, on_delete=models.CASCADE, null=True, blank=True, related_name="drafts")
    step = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField(default=dict, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.UniqueConstraint(fields=["host"], condition=Q(listing__isnull=True), name="listing_draft_one_new"),
            models.UniqueConstraint(
                fields=["listing"], condition=Q(listing__isnull=False), name="listing_draft_one_per_listing"
            ),
        ]

    def __str__(self) -> str:
        return f"Draft of {self.listing_id or 'a new listing'} by {self.host_id}"


# --- The search row ---------------------------------------------------------------------------------

OFFERING_SLOTS = ("event", *OfferingKind.values)
"""The owners of a price in ``SearchRow.prices``: an event space's own prices, then each offering kind."""
PRICE_SLOT_WIDTH = Decimal("100000000000")
"""Prices are below 10**10 (``money_field``); each (owner, period) slot is a band of 10**11 in ``prices``."""


class NumericMultiRangeField(models.Field):
    """A PostgreSQL ``nummultirange``: written by the search row's triggers, read only in SQL conditions."""

    description = "A set of numeric ranges"

    def db_type(self, connection) -> str:
        return "nummultirange"


class SearchRow(models.Model):
    """What the public search filters on, one row per listing it shows (approved, active, not deleted,
    available, of an active host), kept by PostgreSQL triggers on the listing, its offerings, its
    amenity and facility links and its host (migration ``0010_search_row``), so every write keeps
    it: the services', the admin's and bulk seeding alike.

    ``prices`` holds every price exactly, as ``slot * PRICE_SLOT_WIDTH + price``, the slot being the
    owner's index in ``OFFERING_SLOTS`` * 4 + the period's index in ``PRICE_PERIODS`` (an event
    space's own prices in slots 0-3, each offering kind's in its own four): "a price of these
    periods, of these offerings, between min and max" is one ``&&`` against a few ranges. It is a
    recheck, not indexed (its GiST entry would be the whole span of the row's prices). The index
    answers from ``<period>_prices``, the lowest to the highest price of the period, in the band of
    the listing's type (event spaces as they are, office spaces plus ``PRICE_SLOT_WIDTH``, so the
    planner's statistics know how few office spaces have an hourly price): exact for a minimum or
    a maximum alone, a superset rechecked on ``prices`` with both or with offering kinds."""

    # Removed by the listing's delete trigger (the foreign key is checked at commit).
    listing = models.OneToOneField(Listing, on_delete=models.DO_NOTHING, primary_key=True, related_name="search_row")
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    title = models.CharField(max_length=140)
    property_type = models.CharField(max_length=16)
    city = models.CharField(max_length=80, help_text="Upper-cased.")
    country = models.CharField(max_length=80, help_text="Upper-cased.")
    created_at = models.DateTimeField()
    is_premium = models.BooleanField()
    latitude = models.DecimalField(max_digits=9, decimal_places=6, null=True)
    longitude = models.DecimalField(max_digits=9, decimal_places=6, null=True)
    capacity = models.PositiveIntegerField(null=True, help_text="Guests of an event space, seats of an office space.")
    amenity_ids = ArrayField(models.UUIDField())
    facility_ids = ArrayField(models.UUIDField())
    offering_kinds = ArrayField(models.CharField(max_length=20))
    prices = NumericMultiRangeField()
    # What a dated search asks of the listing (queries.available_between), read without joining it.
    blocked_dates = ArrayField(models.DateField())
    closed_days = ArrayField(models.CharField(max_length=9), help_text="Weekdays ``opening_hours`` marks closed.")
    booking_window_days = models.PositiveIntegerField()
    minimum_notice_hours = models.PositiveIntegerField()
    hourly_prices = DecimalRangeField(null=True)
    daily_prices = DecimalRangeField(null=True)
    weekly_prices = DecimalRangeField(null=True)
    monthly_prices = DecimalRangeField(null=True)

    class Meta:
        indexes = [
            models.Index(F("created_at").desc(), F("listing").desc(), name="searchrow_newest"),
            models.Index(
                "host",
                F("created_at").desc(),
                F("listing").desc(),
                condition=Q(is_premium=True),
                name="searchrow_premium",
            ),
            models.Index("city", "property_type", F("created_at").desc(), name="searchrow_city_type"),
            models.Index("city", F("created_at").desc(), F("listing").desc(), name="searchrow_city_newest"),
            models.Index("latitude", "longitude", name="searchrow_position"),
            GinIndex(OpClass(Upper("title"), name="gin_trgm_ops"), name="searchrow_title_trgm"),
            GinIndex(fields=["amenity_ids", "facility_ids", "offering_kinds"], name="searchrow_catalogue"),
            # A period's price with the capacity (btree_gist): "type + guests + hourly price" in one index scan.
            *(GistIndex(f"{period}_prices", "capacity", name=f"searchrow_{period}") for period in Period.values),
        ]

    def __str__(self) -> str:
        return f"Search row of {self.listing_id}"
