"""The public search API (no sign-in): ``GET /api/listing/property-listing`` and the navbar's
``GET /api/listing/search-titles``."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, parse_filters
from apps.core.exceptions import InvalidInput

from . import search as discovery
from .models import (
    Availability,
    ListingStatus,
    OfferingKind,
    PaymentPreference,
    PropertyType,
)
from .search import SearchFilters

# --- API -----------------------------------------------------------------------


class _OfferingCard(serializers.Serializer):
    _id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=OfferingKind.choices)
    title = serializers.CharField()
    hourly = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    daily = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    weekly = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    monthly = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    periods = serializers.ListField(child=serializers.CharField())
    seats = serializers.IntegerField()
    minimumPeriod = serializers.IntegerField()


class ListingCardSerializer(serializers.Serializer):
    """Documents the flat card ``search.cards`` builds (it is not used to build it: see there)."""

    _id = serializers.UUIDField()
    slug = serializers.CharField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=ListingStatus.choices)
    isActive = serializers.BooleanField()
    availability = serializers.ChoiceField(choices=Availability.choices)
    propertyType = serializers.ChoiceField(choices=PropertyType.choices)
    streetAddress = serializers.CharField()
    city = serializers.CharField()
    state = serializers.CharField()
    country = serializers.CharField()
    address = serializers.CharField()
    latitude = serializers.DecimalField(max_digits=9, decimal_places=6, allow_null=True)
    longitude = serializers.DecimalField(max_digits=9, decimal_places=6, allow_null=True)
    images = serializers.ListField(child=serializers.CharField(), help_text="Storage paths; prefix the uploads URL.")
    hourly = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    daily = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    weekly = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    monthly = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    discount = serializers.DecimalField(max_digits=5, decimal_places=2)
    paymentPreference = serializers.ChoiceField(choices=PaymentPreference.choices)
    spaceOffering = _OfferingCard(many=True)
    numberOfSeats = serializers.IntegerField(allow_null=True)
    guest = serializers.IntegerField(allow_null=True)
    dimension = serializers.CharField()
    minimumDays = serializers.IntegerField()
    isPremium = serializers.BooleanField()
    reviews = inline_serializer(
        name="ListingCardReviews",
        fields={
            "rating": serializers.DecimalField(max_digits=3, decimal_places=2),
            "count": serializers.IntegerField(),
        },
    )
    favourite = serializers.BooleanField(help_text="True when the signed-in user saved this listing.")
    fromPrice = inline_serializer(
        name="ListingCardFromPrice",
        fields={"amount": serializers.CharField(), "period": serializers.CharField(), "label": serializers.CharField()},
        allow_null=True,
    )


class TitleMatchSerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    slug = serializers.CharField()
    title = serializers.CharField()


def _filter_parameter(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(f"filters[{name}]", OpenApiTypes.STR, description=description)


SEARCH_PARAMETERS = [
    OpenApiParameter("page", OpenApiTypes.INT, description="Page number, from 1."),
    OpenApiParameter("limit", OpenApiTypes.INT, description="Page size, at most 10."),
    _filter_parameter("status", "Only `approved` (the public search shows approved listings only)."),
    _filter_parameter("isActive", "Only `true`."),
    _filter_parameter("availability", "Only `available`."),
    _filter_parameter("isDeleted", "Only `false`."),
    _filter_parameter("title", "Plain text: titles containing it, or with a word close to it (typos forgiven)."),
    _filter_parameter("propertyType", "`eventSpace` or `officeSpace`."),
    _filter_parameter("city", "City name, any case."),
    _filter_parameter("country", "Country name, any case."),
    _filter_parameter("amenities", 'JSON array of amenity ids or names; a listing must have all, e.g. ["Wi-Fi"].'),
    _filter_parameter("facilities", "JSON array of facility ids or names; a listing must have all."),
    _filter_parameter("spaceOffering", 'JSON array of offering kinds (any of them), e.g. ["hotDesk","privateCabin"].'),
    _filter_parameter("minPrice", "Lowest price (in the chosen period, or any period)."),
    _filter_parameter("maxPrice", "Highest price (in the chosen period, or any period)."),
    _filter_parameter("period", "`hourly`, `daily`, `weekly` or `monthly`: the period the price range applies to."),
    _filter_parameter("guests", "Event spaces holding at least this many guests; office spaces with this many seats."),
    _filter_parameter("seats", "Same as guests."),
    _filter_parameter("bounds", "Map box as a JSON array [south, west, north, east] in degrees."),
    _filter_parameter("startDate", "YYYY-MM-DD: open that day and not blocked."),
    _filter_parameter("endDate", "YYYY-MM-DD (with startDate): every day of the range free of blocked dates."),
]


class PropertyListingView(APIView):
    """``GET /api/listing/property-listing``: the public search (spec section 7)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="listing_property_listing",
        parameters=SEARCH_PARAMETERS,
        responses={
            200: enveloped_page(
                "PropertyListingResponse",
                "listings",
                ListingCardSerializer,
                extra={
                    "totalCountCapped": serializers.BooleanField(
                        help_text=f"True when there are more than {discovery.COUNT_CAP:,} matches: `totalCount` is "
                        f'then {discovery.COUNT_CAP:,} (shown as "{discovery.COUNT_CAP:,}+") and the pages stop there.'
                    )
                },
            ),
            400: ERROR_ENVELOPE,
        },
        auth=[],
    )
    def get(self, request):
        filters = SearchFilters.parse(parse_filters(request))
        page, items = discovery.search_page(request.query_params, filters, user=request.user, capped=True)
        data = {"listings": items, **page.meta(), "totalCountCapped": page.capped}
        return envelope(data, "Listings fetched successfully")


class SearchTitlesView(APIView):
    """``GET /api/listing/search-titles?q=``: the navbar's quick title search."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        operation_id="listing_search_titles",
        parameters=[OpenApiParameter("q", OpenApiTypes.STR, description="Part of a title; typos are forgiven.")],
        responses={
            200: enveloped(
                "SearchTitlesResponse",
                inline_serializer(name="SearchTitlesData", fields={"listings": TitleMatchSerializer(many=True)}),
            ),
            400: ERROR_ENVELOPE,
        },
        auth=[],
    )
    def get(self, request):
        text = request.query_params.get("q", "").strip()
        if len(text) > discovery.MAX_TEXT or "\x00" in text:
            message = f"Search text may be at most {discovery.MAX_TEXT} characters."
            raise InvalidInput(message, errors={"q": [message]})
        return envelope({"listings": discovery.title_suggestions(text)}, "")
