"""The search seam: the views ask ``search_page`` and ``title_suggestions`` here, and the engine
that answers is a setting (``LISTING_SEARCH_ENGINE``, a dotted path to a class with those two
methods).

Today the one engine is PostgreSQL (``PostgresEngine``: the queries of this package). A search
engine (OpenSearch, Meilisearch) fed from the outbox would be a second class answering the same
two calls from its index (ids in order and the capped total, the cards then read by id), so
moving search off PostgreSQL is a setting, not a change to the views (docs/deployment.md).
"""

from functools import cache

from django.conf import settings
from django.utils.module_loading import import_string

from .paging import search_page as _postgres_page
from .queries import title_suggestions as _postgres_titles


class PostgresEngine:
    """The public search answered by PostgreSQL (apps/listings/search/queries.py and paging.py)."""

    def search_page(self, params, filters, *, user=None, base=None, capped: bool = False):
        return _postgres_page(params, filters, user=user, base=base, capped=capped)

    def title_suggestions(self, text: str, *, limit: int = 10) -> list[dict[str, str]]:
        return _postgres_titles(text, limit=limit)


@cache
def engine():
    path = getattr(settings, "LISTING_SEARCH_ENGINE", "apps.listings.search.engine.PostgresEngine")
    return import_string(path)()


def search_page(params, filters, *, user=None, base=None, capped: bool = False):
    """One page of result cards (``paging.search_page``), from the configured engine."""
    return engine().search_page(params, filters, user=user, base=base, capped=capped)


def title_suggestions(text: str, *, limit: int = 10) -> list[dict[str, str]]:
    """The navbar's quick title search (``queries.title_suggestions``), from the configured engine."""
    return engine().title_suggestions(text, limit=limit)
