"""Test and demo data builders for listings (factory_boy)."""

from decimal import Decimal

import factory
from django.utils import timezone
from django.utils.text import slugify

from apps.accounts.factories import UserFactory
from apps.accounts.models import Role

from . import zones
from .models import (
    OFFERING_PERIODS,
    AddOn,
    Amenity,
    Facility,
    Listing,
    ListingImage,
    ListingStatus,
    OfferingKind,
    PaymentPreference,
    Period,
    PropertyType,
    SpaceOffering,
)

DEFAULT_OFFERING_PRICES: dict[str, Decimal] = {
    Period.HOURLY: Decimal("25.00"),
    Period.DAILY: Decimal("30.00"),
    Period.WEEKLY: Decimal("150.00"),
    Period.MONTHLY: Decimal("500.00"),
}


class AmenityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Amenity
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Amenity {n}")
    is_active = True


class FacilityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Facility
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Facility {n}")
    is_active = True


class ListingFactory(factory.django.DjangoModelFactory):
    """An approved, active event space by default.

    ``ListingFactory(office=True)`` (or ``property_type=PropertyType.OFFICE_SPACE``) builds an office
    space with a hot desk and a meeting space offering; pass ``offerings=[OfferingKind.PRIVATE_CABIN, ...]``
    to choose the offerings (each gets default prices for its periods), or ``offerings=[]`` for none.
    ``images=2`` adds that many image rows. ``ListingFactory(pending=True)`` leaves it waiting for review.
    Payment is at the space by default (``payLater``), so a request can be approved without an online
    payment; pass ``payment_preference=PaymentPreference.PAY_NOW`` where paying first matters.
    """

    class Meta:
        model = Listing
        skip_postgeneration_save = True

    class Params:
        office = factory.Trait(
            property_type=PropertyType.OFFICE_SPACE,
            hourly=None,
            daily=None,
            weekly=None,
            guest=None,
            number_of_seats=20,
        )
        pending = factory.Trait(status=ListingStatus.PENDING, approved_at=None)
        rejected = factory.Trait(status=ListingStatus.REJECTED, approved_at=None, reject_reason="Photos are unclear.")

    host = factory.SubFactory(UserFactory, role=Role.HOST)
    created_by = factory.SelfAttribute("host")
    title = factory.Sequence(lambda n: f"Bright space number {n}")
    slug = factory.LazyAttributeSequence(lambda o, n: f"{slugify(o.title)[:100]}-{n}")
    description = "A bright, quiet space close to public transport."
    property_type = PropertyType.EVENT_SPACE
    status = ListingStatus.APPROVED
    approved_at = factory.LazyFunction(timezone.now)
    is_active = True
    street_address = "1 Main Street"
    city = "New York"
    state = "NY"
    country = "United States"
    postal_code = "10001"
    address = factory.LazyAttribute(lambda o: f"{o.street_address}, {o.city}, {o.country}")
    latitude = Decimal("40.712800")
    longitude = Decimal("-74.006000")
    # The city's zone (ListingFactory(city="Mumbai", country="India") is in Asia/Kolkata), else the pin's.
    time_zone = factory.LazyAttribute(
        lambda o: zones.zone_for_city(o.city, o.country) or zones.zone_for(latitude=o.latitude, longitude=o.longitude)
    )
    hourly = Decimal("50.00")
    daily = Decimal("300.00")
    weekly = Decimal("1500.00")
    guest = 50
    minimum_days = 1
    discount = Decimal("0")
    processing_fee = Decimal("3")
    commission_collection = Decimal("10")
    payment_preference = PaymentPreference.PAY_LATER

    @factory.post_generation
    def offerings(obj, create, extracted, **kwargs):
        if not create:
            return
        if extracted is None:
            extracted = (
                [OfferingKind.HOT_DESK, OfferingKind.MEETING_SPACE]
                if obj.property_type == PropertyType.OFFICE_SPACE
                else []
            )
        for kind in extracted:
            SpaceOfferingFactory(listing=obj, kind=kind)

    @factory.post_generation
    def images(obj, create, extracted, **kwargs):
        if not create:
            return
        for position in range(extracted if extracted is not None else 1):
            ListingImageFactory(listing=obj, position=position)

    @factory.post_generation
    def amenities(obj, create, extracted, **kwargs):
        if create and extracted:
            obj.amenities.set(extracted)

    @factory.post_generation
    def facilities(obj, create, extracted, **kwargs):
        if create and extracted:
            obj.facilities.set(extracted)


class OfficeListingFactory(ListingFactory):
    """An approved office space (work space) with a hot desk and a meeting space offering."""

    office = True


class SpaceOfferingFactory(factory.django.DjangoModelFactory):
    """An offering of an office listing with default prices for each period its kind is sold by."""

    class Meta:
        model = SpaceOffering

    listing = factory.SubFactory(OfficeListingFactory, offerings=[])
    kind = OfferingKind.HOT_DESK
    seats = 10
    minimum_period = 1
    hourly = factory.LazyAttribute(lambda o: _price(o.kind, Period.HOURLY))
    daily = factory.LazyAttribute(lambda o: _price(o.kind, Period.DAILY))
    weekly = factory.LazyAttribute(lambda o: _price(o.kind, Period.WEEKLY))
    monthly = factory.LazyAttribute(lambda o: _price(o.kind, Period.MONTHLY))


def _price(kind: str, period: str) -> Decimal | None:
    return DEFAULT_OFFERING_PRICES[period] if period in OFFERING_PERIODS[kind] else None


class AddOnFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AddOn

    listing = factory.SubFactory(ListingFactory)
    title = factory.Sequence(lambda n: f"Catering {n}")
    price = Decimal("20.00")


class ListingImageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ListingImage

    listing = factory.SubFactory(ListingFactory, images=0)
    path = factory.Sequence(lambda n: f"uploads/demo/image-{n}.jpg")
    position = 0
    alt = factory.LazyAttribute(lambda o: o.listing.title)


class FavouriteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "listings.Favourite"

    user = factory.SubFactory(UserFactory, role=Role.RENTER)
    listing = factory.SubFactory(ListingFactory)
