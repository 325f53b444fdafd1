"""Public discovery: the filters of the public search, the queries behind them and flat result cards.

Everything here reads only what a visitor may see: approved, active, available, not deleted
listings. The API (``GET /api/listing/property-listing``) and the server-rendered pages share
``SearchFilters`` (parsing and validation, one clear message per bad value) and ``search``.
"""

from ..policies import public_listings
from .cards import CARD_FIELDS, cards, image_url
from .engine import search_page, title_suggestions
from .filters import (
    CATEGORIES,
    CATEGORY_BY_TYPE,
    FIXED_FILTERS,
    MAX_ITEMS,
    MAX_RANGE_DAYS,
    MAX_TEXT,
    PRICE_PERIODS,
    WEEKDAYS,
    SearchFilters,
)
from .paging import (
    COUNT_CACHE_SECONDS,
    COUNT_CAP,
    bounded_count,
    cached_count,
    featured_first,
)
from .queries import (
    LOCAL_TZ,
    NEWEST,
    NO_MATCH,
    PUBLIC,
    PUBLIC_ORDER,
    WordSimilar,
    available_between,
    matching,
    premium_now_q,
    search,
    searchable_listings,
    title_filter,
    title_match,
    with_featured,
)

__all__ = [
    "CARD_FIELDS",
    "CATEGORIES",
    "CATEGORY_BY_TYPE",
    "COUNT_CACHE_SECONDS",
    "COUNT_CAP",
    "FIXED_FILTERS",
    "LOCAL_TZ",
    "MAX_ITEMS",
    "MAX_RANGE_DAYS",
    "MAX_TEXT",
    "NEWEST",
    "NO_MATCH",
    "PRICE_PERIODS",
    "PUBLIC",
    "PUBLIC_ORDER",
    "WEEKDAYS",
    "SearchFilters",
    "WordSimilar",
    "available_between",
    "bounded_count",
    "cached_count",
    "cards",
    "featured_first",
    "image_url",
    "matching",
    "premium_now_q",
    "public_listings",
    "search",
    "search_page",
    "searchable_listings",
    "title_filter",
    "title_match",
    "title_suggestions",
    "with_featured",
]
