"""Result cards: flat dictionaries built from ``values()`` rows, their images and offerings in one query each."""

from decimal import Decimal
from typing import Any

from django.core.files.storage import default_storage

from ..models import OFFERING_PERIODS, Favourite, ListingImage, OfferingKind, SpaceOffering
from ..policies import from_price
from .filters import PRICE_PERIODS

# --- Result cards ------------------------------------------------------------

CARD_FIELDS = (
    "id",
    "slug",
    "title",
    "property_type",
    "city",
    "state",
    "country",
    "street_address",
    "address",
    "latitude",
    "longitude",
    "hourly",
    "daily",
    "weekly",
    "monthly",
    "discount",
    "payment_preference",
    "number_of_seats",
    "guest",
    "dimension",
    "minimum_days",
    "featured",
    "rating_average",
    "rating_count",
    "status",
    "is_active",
    "availability",
)


def _money(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


def image_url(path: str, *, small: bool = False) -> str:
    """The public URL of a stored listing image (``small``: the 480 px copy stored beside it)."""
    if small:
        stem, dot, extension = path.rpartition(".")
        path = f"{stem}-sm{dot}{extension}"
    return default_storage.url(path)


OFFERING_FIELDS = ("id", "kind", "hourly", "daily", "weekly", "monthly", "seats", "minimum_period")
"""What a card shows of each offering."""


def cards(rows, *, user=None) -> list[dict[str, Any]]:
    """Turn rows of ``queryset.values(*CARD_FIELDS)`` into flat API dictionaries.

    Their images, offerings and the signed-in user's favourites are read in one query each,
    whatever the number of rows; rows that already carry them (``images``, ``offerings``,
    ``favourite``: the search's first page reads them in its one statement) are used as they are."""
    rows = list(rows)
    if rows and "images" not in rows[0]:
        _read_extras(rows, user)
    return [_card(row) for row in rows]


def _read_extras(rows: list[dict[str, Any]], user) -> None:
    ids = [row["id"] for row in rows]
    images: dict[Any, list[str]] = {}
    for listing_id, path in (
        ListingImage.objects.filter(listing_id__in=ids).order_by("position").values_list("listing_id", "path")
    ):
        images.setdefault(listing_id, []).append(path)
    offerings: dict[Any, list[dict[str, Any]]] = {}
    for offering in (
        SpaceOffering.objects.filter(listing_id__in=ids).order_by("kind").values("listing_id", *OFFERING_FIELDS)
    ):
        offerings.setdefault(offering["listing_id"], []).append(offering)
    liked: set = set()
    if user is not None and user.is_authenticated:
        liked = set(Favourite.objects.filter(user=user, listing_id__in=ids).values_list("listing_id", flat=True))
    for row in rows:
        row.update(
            images=images.get(row["id"], []), offerings=offerings.get(row["id"], []), favourite=row["id"] in liked
        )


def _card(row: dict[str, Any]) -> dict[str, Any]:
    offerings = [_offering_card(offering) for offering in row["offerings"]]
    return {
        "_id": str(row["id"]),
        "slug": row["slug"],
        "title": row["title"],
        "status": row["status"],
        "isActive": row["is_active"],
        "availability": row["availability"],
        "propertyType": row["property_type"],
        "streetAddress": row["street_address"],
        "city": row["city"],
        "state": row["state"],
        "country": row["country"],
        "address": row["address"],
        "latitude": None if row["latitude"] is None else str(row["latitude"]),
        "longitude": None if row["longitude"] is None else str(row["longitude"]),
        "images": list(row["images"]),
        "hourly": _money(row["hourly"]),
        "daily": _money(row["daily"]),
        "weekly": _money(row["weekly"]),
        "monthly": _money(row["monthly"]),
        "discount": _money(row["discount"]),
        "paymentPreference": row["payment_preference"],
        "spaceOffering": offerings,
        "numberOfSeats": row["number_of_seats"],
        "guest": row["guest"],
        "dimension": row["dimension"],
        "minimumDays": row["minimum_days"],
        "isPremium": bool(row.get("featured")),
        "reviews": {"rating": f"{row['rating_average']:.2f}", "count": row["rating_count"]},
        "favourite": bool(row["favourite"]),
        "fromPrice": _from_price(row, offerings),
    }


def _offering_card(offering: dict[str, Any]) -> dict[str, Any]:
    """One offering on a card."""
    return {
        "_id": str(offering["id"]),
        "kind": offering["kind"],
        "title": OfferingKind(offering["kind"]).label,
        "hourly": _money(offering["hourly"]),
        "daily": _money(offering["daily"]),
        "weekly": _money(offering["weekly"]),
        "monthly": _money(offering["monthly"]),
        "periods": list(OFFERING_PERIODS[offering["kind"]]),
        "seats": offering["seats"],
        "minimumPeriod": offering["minimum_period"],
    }


def _from_price(row: dict[str, Any], offerings: list[dict[str, Any]]) -> dict[str, str] | None:
    """The card's "From $25.00 / Hour" (``policies.from_price``, the rule the listing page uses too)."""
    prices = [(period, row.get(period)) for period in PRICE_PERIODS]
    prices += [(period, offering[period]) for offering in offerings for period in PRICE_PERIODS]
    return from_price(prices)
