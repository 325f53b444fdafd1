"""The props of the listing pages' islands (apps/core/islands.py): the booking widget, the favourite
heart, and the maps of a listing and of the search results."""

from rest_framework import serializers

from apps.accounts.models import Role
from apps.core.islands import IslandProps, island_props

from .models import CancellationPolicy, OfferingKind, PaymentPreference, Period, PropertyType


class IslandOffering(serializers.Serializer):
    _id = serializers.CharField()
    kind = serializers.ChoiceField(choices=OfferingKind.choices)
    title = serializers.CharField()
    periods = serializers.ListField(child=serializers.ChoiceField(choices=Period.choices))
    prices = serializers.DictField(child=serializers.CharField(), help_text="Price by period, as a decimal string.")
    seats = serializers.IntegerField()
    minimumPeriod = serializers.IntegerField()


class IslandAddOn(serializers.Serializer):
    _id = serializers.CharField()
    title = serializers.CharField()
    price = serializers.CharField()


class IslandDayHours(serializers.Serializer):
    open = serializers.CharField(required=False)
    close = serializers.CharField(required=False)


class IslandZoneName(serializers.Serializer):
    """The zone's short name (``name``) from a day on (``from``, a Python keyword, so added in get_fields)."""

    name = serializers.CharField()

    def get_fields(self):
        return {"from": serializers.CharField(), **super().get_fields()}


class IslandBookingListing(IslandProps):
    """What a booking widget knows of the listing (apps.listings.pages.booking_widget_props)."""

    listingId = serializers.CharField()
    slug = serializers.CharField()
    title = serializers.CharField()
    propertyType = serializers.ChoiceField(choices=PropertyType.choices)
    prices = serializers.DictField(child=serializers.CharField(), help_text="Price by period, as a decimal string.")
    spaceOffering = IslandOffering(many=True)
    servicesAndAddOns = IslandAddOn(many=True)
    guest = serializers.IntegerField(allow_null=True)
    numberOfSeats = serializers.IntegerField(allow_null=True)
    minimumDays = serializers.IntegerField(allow_null=True)
    openingHours = serializers.DictField(
        child=IslandDayHours(allow_null=True), help_text="By weekday (monday … sunday); a closed day is null or absent."
    )
    blockedDates = serializers.ListField(child=serializers.CharField(), help_text="ISO dates (YYYY-MM-DD).")
    cancellationPolicy = serializers.ChoiceField(choices=CancellationPolicy.choices)
    timeZone = serializers.CharField(help_text="The listing's IANA time zone: every date and time of a booking.")
    timeZoneNames = IslandZoneName(many=True, help_text="The zone's short name from each day it changes on.")


class IslandPropsBookingWidget(IslandBookingListing):
    """The listing page's booking widget: the listing, its charges and the visitor's standing."""

    discount = serializers.CharField()
    processingFee = serializers.CharField()
    paymentPreference = serializers.ChoiceField(choices=PaymentPreference.choices)
    bufferMinutes = serializers.IntegerField()
    hostTax = serializers.CharField()
    favourite = serializers.BooleanField()
    isLoggedIn = serializers.BooleanField()


class IslandPropsFavouriteHeart(IslandProps):
    """A favourite heart: the listing page's (``FavouriteHeart``) and each listing card's (``CardHearts``
    reads it from the ``json_script`` inside the card's heart, ``favourite_heart_props``)."""

    listingId = serializers.CharField()
    title = serializers.CharField()
    favourite = serializers.BooleanField()
    isLoggedIn = serializers.BooleanField()
    isRenter = serializers.BooleanField()


def favourite_heart_props(user, *, listing_id: str, title: str, favourite: bool) -> dict:
    """The heart of a listing for ``user``: a visitor is asked to log in, only a renter keeps favourites."""
    return island_props(
        IslandPropsFavouriteHeart,
        {
            "listingId": listing_id,
            "title": title,
            "favourite": favourite,
            "isLoggedIn": user.is_authenticated,
            "isRenter": user.is_authenticated and user.role == Role.RENTER,
        },
    )


class IslandMapMarker(serializers.Serializer):
    id = serializers.CharField()
    lat = serializers.FloatField()
    lng = serializers.FloatField()
    title = serializers.CharField()
    href = serializers.CharField(required=False)
    price = serializers.CharField(required=False)


class IslandMapTiles(IslandProps):
    tileUrl = serializers.CharField()
    attribution = serializers.CharField()


class IslandPropsListingMap(IslandMapTiles):
    """The listing page's map: the space's pin."""

    markers = IslandMapMarker(many=True)
    zoom = serializers.IntegerField()


class IslandPropsSearchMap(IslandMapTiles):
    """The search page's map: the results' pins and the box searched, if any (west, south, east, north)."""

    markers = IslandMapMarker(many=True)
    bounds = serializers.ListField(child=serializers.FloatField(), min_length=4, max_length=4, allow_null=True)
