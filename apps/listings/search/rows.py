"""The public search answered from the search row (``SearchRow``: one narrow row per listing the
search shows, kept by triggers), so each filter is an index condition rather than a probe per
listing: catalogue ids and offering kinds in arrays (GIN), a period's prices with the capacity
(GiST), the city, the position and the title as on the listing.

``queries.matching`` is the reference these conditions reproduce exactly (the property test in
``apps/listings/tests/test_search_rows.py`` compares the two on random filters)."""

from decimal import Decimal

from django.db.backends.postgresql.psycopg_any import NumericRange
from django.db.models import BooleanField, Func, Q, QuerySet, Value
from django.db.models.functions import Cast, Upper

from ..models import (
    OFFERING_SLOTS,
    PRICE_SLOT_WIDTH,
    Amenity,
    Facility,
    NumericMultiRangeField,
    PropertyType,
    SearchRow,
)
from .filters import PRICE_PERIODS, SearchFilters
from .queries import available_between, catalogue_ids, title_filter, title_match, within_bounds

PRICE_CEILING = Decimal("10000000000")
"""Every price is below this (``money_field``: 12 digits, 2 of them decimals)."""
TYPE_BANDS = {PropertyType.EVENT_SPACE: Decimal(0), PropertyType.OFFICE_SPACE: PRICE_SLOT_WIDTH}


class Overlaps(Func):
    """``prices && '{[a,b],...}'::nummultirange``: some price within one of the ranges."""

    arg_joiner = " && "
    template = "(%(expressions)s)"
    output_field = BooleanField()


def matching_rows(filters: SearchFilters, *, close_titles: bool | None = None) -> QuerySet[SearchRow]:
    """The search rows matching ``filters``, unordered: the same listings as ``queries.matching``.

    ``close_titles``: for a title, titles with a word close to it (True) or titles containing it
    (False); None asks first whether any title contains it (``queries.title_filter``). A caller
    that tries the containing titles first falls back when ``no_title_contains`` the text."""
    rows = SearchRow.objects.all()
    if filters.title and close_titles is None:
        rows = title_filter(rows, filters.title)
    elif filters.title:
        rows = rows.filter(title_match(filters.title, close=close_titles))
    if filters.property_type:
        rows = rows.filter(property_type=filters.property_type)
    if filters.city:
        rows = rows.filter(city=Upper(Value(filters.city)))
    if filters.country:
        rows = rows.filter(country=Upper(Value(filters.country)))
    if filters.amenities:
        rows = rows.filter(amenity_ids__contains=catalogue_ids(Amenity, filters.amenities))
    if filters.facilities:
        rows = rows.filter(facility_ids__contains=catalogue_ids(Facility, filters.facilities))
    if filters.space_offerings:
        rows = rows.filter(offering_kinds__overlap=filters.space_offerings)
    if filters.min_price is not None or filters.max_price is not None or filters.period:
        rows = rows.filter(_price_condition(filters))
    if filters.guests:
        rows = rows.filter(capacity__gte=filters.guests)
    if filters.bounds:
        rows = rows.filter(within_bounds(filters.bounds))
    if filters.start_date and filters.end_date:
        rows = available_between(
            rows, filters.start_date, filters.end_date, closed=lambda day: Q(closed_days__contains=[day])
        )
    return rows


def no_title_contains(text: str) -> bool:
    """No title the search shows contains ``text``: the title search then looks for close words."""
    return not SearchRow.objects.filter(title_match(text, close=False)).exists()


def _price_condition(filters: SearchFilters) -> Q:
    """Some price of the period (any period when none is chosen) between the bounds: of an event
    space its own, of an office space one of its offerings' (of the chosen kinds, when kinds are
    chosen). The index answers on the period's span; with both bounds, or with kinds, the span
    says only "maybe" and the exact prices are rechecked."""
    periods = (filters.period,) if filters.period else PRICE_PERIODS
    types = (filters.property_type,) if filters.property_type else tuple(TYPE_BANDS)
    low = filters.min_price if filters.min_price is not None else Decimal(0)
    high, bounds = (filters.max_price, "[]") if filters.max_price is not None else (PRICE_CEILING, "[)")
    spans = Q()
    for period in periods:
        for kind in types:
            band = TYPE_BANDS[kind]
            spans |= Q(**{f"{period}_prices__overlap": NumericRange(band + low, band + high, bounds)})
    if not filters.space_offerings and (filters.min_price is None or filters.max_price is None):
        return spans  # one bound or none: some price is above the minimum when the highest is
    ranges = []
    for kind in types:
        owners = [0]
        if kind == PropertyType.OFFICE_SPACE:
            chosen = filters.space_offerings or OFFERING_SLOTS[1:]
            owners = [OFFERING_SLOTS.index(name) for name in chosen]
        for owner in owners:
            for period in periods:
                base = (owner * 4 + PRICE_PERIODS.index(period)) * PRICE_SLOT_WIDTH
                ranges.append(f"{bounds[0]}{base + low:f},{base + high:f}{bounds[1]}")
    exact = Cast(Value("{" + ",".join(ranges) + "}"), output_field=NumericMultiRangeField())
    return spans & Q(Overlaps("prices", exact))
