"""Pages of results: premium matches then the others, each along its index; totals counted up to
a bound (the API) or exactly (the pages), kept a minute."""

import hashlib
import re
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet, Value

from apps.core.api import MAX_PAGE, PAGE_SIZE, Page

from .. import search_cache
from ..models import Listing, SearchRow
from .cards import CARD_FIELDS, cards
from .filters import SearchFilters, invalid_param
from .first_page import first_page
from .queries import NEWEST, matching, premium_now_q
from .rows import matching_rows, no_title_contains

# --- Pages of results ------------------------------------------------------

COUNT_CACHE_SECONDS = 60
COUNT_CAP = 1000
"""The API counts a search's matches exactly up to this bound (100 pages of 10); beyond it the
answer carries ``totalCount`` 1000 with ``totalCountCapped`` true ("1,000+") and its pages stop
there, as large marketplaces do (docs/decisions/listings/the-api-counts-a-search-s-matches-exactly-up-to-1-000.md). An exact count reads every match (50-160 ms
for a broad search at 100,000 listings, docs/performance.md); the bounded one stops at 1,001."""


class KeptCount:
    """The number of matches of a filter set, kept a minute: counting every public listing takes
    tens of milliseconds at 100,000 rows, while the page itself is an index scan of ten rows.
    A change retires the kept totals with the stored answers of the same scopes (``search_cache``:
    the search's city or map tiles, the dates); what changes without a write (premium ending)
    shows within the minute. ``value`` is the kept number, or None."""

    def __init__(self, filters: SearchFilters, cap: int | None) -> None:
        digest = hashlib.sha1(repr(filters).encode(), usedforsecurity=False).hexdigest()
        self.key = f"listings:search-count:{cap or ''}:{digest}"
        versions = search_cache.version_keys(
            search_cache.scopes_of(filters.city, filters.bounds), dated=filters.start_date is not None
        )
        found = cache.get_many([*versions, self.key])
        self.version, stored = tuple(found.get(name) for name in versions), found.get(self.key)
        self.value = stored[1] if stored is not None and stored[0] == self.version else None

    def keep(self, total: int) -> None:
        cache.set(self.key, (self.version, total), COUNT_CACHE_SECONDS)


def cached_count(queryset: QuerySet[Listing], filters: SearchFilters, *, cap: int | None = None) -> int:
    """The number of matches (``bounded_count`` up to ``cap``), kept a minute per filter set (``KeptCount``)."""
    kept = KeptCount(filters, cap)
    if kept.value is not None:
        return kept.value
    total = queryset.count() if cap is None else bounded_count(queryset, cap)
    kept.keep(total)
    return total


def bounded_count(queryset: QuerySet[Listing], cap: int) -> int:
    """The number of matches when at most ``cap``, else ``cap + 1``: one query that stops reading
    after ``cap + 1`` rows (``SELECT COUNT(*) FROM (... LIMIT cap + 1)``)."""
    return queryset.order_by().values("pk")[: cap + 1].count()


def search_page(
    params, filters: SearchFilters, *, user=None, base: QuerySet[Listing] | None = None, capped: bool = False
) -> tuple[Page, list]:
    """One page (``page``, ``limit`` from ``params``; page size 10) of result cards.

    ``capped``: count the matches up to ``COUNT_CAP`` only (the API); the pages beyond it are empty.
    The public search reads the search rows; a ``base`` (a host's listings) reads the listings."""
    page_number = _page_param(params, "page", 1)
    limit = min(_page_param(params, "limit", PAGE_SIZE), PAGE_SIZE)
    start = (page_number - 1) * limit
    cap = COUNT_CAP if capped else None
    rows: list = []
    if base is not None:
        queryset = matching(filters, base=base)
        total = queryset.count()
    elif start == 0:
        # The first page, most searches' only one: the total and the cards in one statement. A
        # title is first asked as containing titles; only when none contains it, as close words.
        kept = KeptCount(filters, cap)
        queryset = matching_rows(filters, close_titles=False)
        total, rows = first_page(queryset, limit, cap=cap, total=kept.value, user=user)
        if not rows and filters.title and no_title_contains(filters.title):
            queryset = matching_rows(filters, close_titles=True)
            total, rows = first_page(queryset, limit, cap=cap, total=kept.value, user=user)
        if kept.value is None:
            kept.keep(total)
    else:
        queryset = matching_rows(filters)
        total = cached_count(queryset, filters, cap=cap)
    more = capped and total > COUNT_CAP
    total = min(total, COUNT_CAP) if capped else total
    if start < total and not rows:
        rows = featured_first(queryset, start, limit)
    page = Page(items=rows, total_count=total, page=page_number, limit=limit, capped=more)
    return page, cards(rows, user=user)


def featured_first(queryset: QuerySet, start: int, limit: int) -> list[dict[str, Any]]:
    """Rows ``start`` to ``start + limit`` of ``queryset`` in ``PUBLIC_ORDER``, as card rows.

    ``queryset``: listings or search rows. Premium listings are few, so they are read apart (index
    on the premium rows), then the others follow newest first (index on the newest order): each query reads about one page of rows,
    where sorting every match on the computed ``featured`` would read them all. Only pages after
    the first count the premium matches, to know where the others start.
    """
    premium = queryset.filter(premium_now_q())
    rows: list[dict[str, Any]] = []
    if start == 0:
        # The first page reads the premium rows straight away: fewer than a page means that is all of them.
        rows = _card_rows(premium, True, 0, limit)
        premium_count = len(rows)
    else:
        premium_count = premium.count()
        if start < premium_count:
            rows = _card_rows(premium, True, start, start + limit)
    if len(rows) < limit:
        offset = max(0, start - premium_count)
        rows += _card_rows(queryset.exclude(premium_now_q()), False, offset, offset + limit - len(rows))
    return rows


def _card_rows(queryset: QuerySet, featured: bool, low: int, high: int) -> list[dict[str, Any]]:
    """Card rows ``low`` to ``high``, newest first (``cards`` adds their images and offerings in two
    queries; reading them in the same query as array subqueries cost more to build in Python than
    it saved). From search rows, the rows choose the page and the listings give the cards, in the
    same order (the row's ``created_at`` and key are the listing's)."""
    if queryset.model is SearchRow:
        # The page's keys from the rows (ordered and cut along their index), then those listings:
        # joining the listing before the cut would read it for every match.
        keys = queryset.order_by("-created_at", "-listing_id").values("pk")[low:high]
        queryset, low, high = Listing.objects.filter(pk__in=keys), None, None
    return list(queryset.annotate(featured=Value(featured)).order_by(*NEWEST).values(*CARD_FIELDS)[low:high])


def _page_param(params, name: str, default: int) -> int:
    raw = params.get(name)
    if raw in (None, ""):
        return default
    if not re.fullmatch(r"\d{1,9}", str(raw)) or int(raw) < 1:
        raise invalid_param(name, f"{name} must be a whole number, 1 or more.")
    if name == "page" and int(raw) > MAX_PAGE:
        raise invalid_param(name, f"{name} must be at most {MAX_PAGE}.")  # the schema's declared maximum
    return int(raw)
