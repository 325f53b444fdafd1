import pytest

from apps.listings.factories import AddOnFactory, AmenityFactory, FavouriteFactory, ListingFactory, OfficeListingFactory
from apps.listings.models import ListingStatus, OfferingKind, PropertyType
from apps.listings.policies import is_public


@pytest.mark.django_db
def test_factories_build_both_property_types():
    event = ListingFactory(amenities=[AmenityFactory(name="Wi-Fi")])
    office = OfficeListingFactory(offerings=[OfferingKind.PRIVATE_CABIN, OfferingKind.HOT_DESK], images=2)
    pending = ListingFactory(office=True, pending=True)
    AddOnFactory(listing=event)
    FavouriteFactory(listing=office)
    assert event.property_type == PropertyType.EVENT_SPACE and is_public(event)
    assert event.images.count() == 1 and event.amenities.count() == 1 and event.add_ons.count() == 1
    assert office.property_type == PropertyType.OFFICE_SPACE and office.images.count() == 2
    cabin = office.space_offerings.get(kind=OfferingKind.PRIVATE_CABIN)
    assert cabin.period_prices() == {"monthly": cabin.monthly} and cabin.hourly is None
    assert pending.status == ListingStatus.PENDING and pending.space_offerings.count() == 2
