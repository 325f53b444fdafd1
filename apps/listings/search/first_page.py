"""The first page of a public search in one statement: the matches' total (up to a bound), the
premium matches then the others newest first, and each card's listing, images, offerings and the
signed-in user's heart.

Built by the ORM as five queries, a first page spent more time compiling SQL (about 2 ms a query
for the search row's conditions, compiled again in each) than PostgreSQL spent answering (1-4 ms
in all at 100,000 listings). Here the conditions are compiled once, as the body of a common table
expression that PostgreSQL inlines into each part, so every part is still planned on the search
row's indexes, as its own query was (docs/performance.md).
"""

from decimal import Decimal
from functools import cache
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import QuerySet

from apps.premium.selectors import premium_subscriptions

from ..models import Favourite, Listing, ListingImage, SearchRow, SpaceOffering
from .cards import CARD_FIELDS, OFFERING_FIELDS

PRICES = ("hourly", "daily", "weekly", "monthly")


def _column(model, field: str) -> str:
    return model._meta.get_field(field).column


@cache
def _premium_hosts() -> tuple[str, tuple]:
    """The hosts premium now (``premium_subscriptions``, compiled once: "now" is the database's)."""
    return premium_subscriptions().values("host_id").query.sql_with_params()


def _offering_json() -> str:
    """An offering as JSON, prices as text (JSON numbers would be read back as floats)."""
    parts = []
    for field in OFFERING_FIELDS:
        column = f's."{_column(SpaceOffering, field)}"'
        parts.append(f"'{field}', {column}::text" if field in PRICES else f"'{field}', {column}")
    return f"json_build_object({', '.join(parts)})"


def _statement(matches: str, premium_hosts: str, total: str, favourite: bool) -> str:
    """The statement around ``matches`` and ``premium_hosts`` (SQL the ORM compiled) and ``total``
    (SQL written here): every other name in it is a table or column name of the models, and every
    value a parameter.

    The premium matches are those of hosts premium now, asked as ``IN``, which PostgreSQL turns into
    a join from the few premium memberships to the search row's premium index; asked per row (a
    column of the matches), it read the rows newest first until ten premium ones were found: the
    whole table (80 ms) when no premium listing matches."""
    listing_columns = ", ".join(
        f'l."{_column(Listing, field)}" AS "{field}"' for field in CARD_FIELDS if field != "featured"
    )
    images, offerings, favourites = (
        ListingImage._meta.db_table,
        SpaceOffering._meta.db_table,
        Favourite._meta.db_table,
    )
    favourite_sql = (
        f"EXISTS (SELECT 1 FROM {favourites} f WHERE f.user_id = %s AND f.listing_id = l.id)"  # noqa: S608
        if favourite
        else "false"
    )
    return f"""
WITH matches AS NOT MATERIALIZED ({matches}),
premium_hosts AS NOT MATERIALIZED ({premium_hosts}),
page AS (
    (SELECT listing_id, created_at, true AS featured FROM matches
     WHERE is_premium AND host_id IN (SELECT host_id FROM premium_hosts)
     ORDER BY created_at DESC, listing_id DESC LIMIT %s)
    UNION ALL
    (SELECT listing_id, created_at, false FROM matches
     WHERE NOT (is_premium AND host_id IN (SELECT host_id FROM premium_hosts))
     ORDER BY created_at DESC, listing_id DESC LIMIT %s)
)
SELECT {total} AS total, page.featured, {listing_columns},
    ARRAY(SELECT i.path FROM {images} i WHERE i.listing_id = l.id ORDER BY i.position) AS images,
    ARRAY(SELECT {_offering_json()} FROM {offerings} s WHERE s.listing_id = l.id ORDER BY s.kind) AS offerings,
    {favourite_sql} AS favourite
FROM page
JOIN {Listing._meta.db_table} l ON l.id = page.listing_id
ORDER BY page.featured DESC, page.created_at DESC, page.listing_id DESC
LIMIT %s"""  # noqa: S608


def first_page(
    rows: QuerySet[SearchRow], limit: int, *, cap: int | None, total: int | None = None, user=None
) -> tuple[int, list[dict[str, Any]]]:
    """(the number of matches, the first ``limit`` card rows) of the search rows ``rows``, in
    ``PUBLIC_ORDER``; the rows carry what ``cards`` needs (images, offerings, favourite).

    ``cap``: count up to ``cap + 1`` matches only (None: all of them). ``total``: the number is
    already known (a kept count), so it is not counted again."""
    try:
        matches, params = (
            rows.order_by().values("listing_id", "created_at", "is_premium", "host_id").query.sql_with_params()
        )
    except EmptyResultSet:
        return 0, []
    signed_in = user is not None and user.is_authenticated
    if total is not None:
        total_sql, total_params = "%s", [total]
    elif cap is not None:
        total_sql, total_params = "(SELECT count(*) FROM (SELECT 1 FROM matches LIMIT %s) counted)", [cap + 1]
    else:
        total_sql, total_params = "(SELECT count(*) FROM matches)", []
    premium_hosts, premium_params = _premium_hosts()
    sql = _statement(matches, premium_hosts, total_sql, favourite=signed_in)
    arguments = [*params, *premium_params, limit, limit, *total_params, *([user.pk] if signed_in else []), limit]
    with connection.cursor() as cursor:
        cursor.execute(sql, arguments)
        names = [column.name for column in cursor.description]
        found = [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]
    for row in found:
        row["offerings"] = [
            {
                **offering,
                **{period: None if offering[period] is None else Decimal(offering[period]) for period in PRICES},
            }
            for offering in row["offerings"]
        ]
    return (found[0]["total"] if found else (total or 0)), found
