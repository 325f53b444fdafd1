# Over 450 lines: the search, listing and host pages share the cards, the map and the JSON-LD built here.
"""Public discovery pages (server-rendered): search, category and city pages, listing pages and host
pages (the search API is ``search_api``; the site's own pages are ``apps.site``).

Pages are complete HTML without JavaScript: filters are a GET form, pagination is links, and
every page carries its title, description, canonical URL and Open Graph tags (templates/base.html
blocks). Listing pages add schema.org JSON-LD.
"""

import json
import re
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import OuterRef, Prefetch
from django.db.models.functions import Upper
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.utils.html import strip_tags
from django.utils.safestring import mark_safe

from apps.accounts.models import Role, User
from apps.core.django_internals import JSON_SCRIPT_ESCAPES
from apps.core.exceptions import InvalidInput
from apps.core.islands import island_props
from apps.core.policies import page_window
from apps.premium.selectors import host_is_premium, premium_now

from . import media, search_cache, zones
from . import search as discovery
from .islands import IslandPropsBookingWidget, IslandPropsListingMap, IslandPropsSearchMap, favourite_heart_props
from .models import (
    Amenity,
    Facility,
    Favourite,
    Listing,
    ListingImage,
    OfferingKind,
    Period,
    PropertyType,
)
from .policies import CANCELLATION_TEXT, from_price, public_listings
from .search import CARD_FIELDS, CATEGORIES, CATEGORY_BY_TYPE, SearchFilters, cards, image_url, searchable_listings

# --- Page helpers --------------------------------------------------------------


def ld_json(data: dict[str, Any]) -> str:
    """A ``<script type="application/ld+json">`` block, escaped like ``json_script``."""
    text = json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":")).translate(JSON_SCRIPT_ESCAPES)
    return mark_safe(f'<script type="application/ld+json">{text}</script>')  # noqa: S308 - escaped above


BLOCK_END = re.compile(r"</(?:p|div|h[1-6]|li|tr|td|th|blockquote|pre|figcaption)>|<br\s*/?>", re.IGNORECASE)


def plain_text(html: str) -> str:
    """A description as plain text on one line (meta descriptions, JSON-LD): sanitized first (a script's
    text goes with it), blocks kept apart by a space, tags dropped, entities decoded, white space collapsed."""
    from html import unescape

    from apps.cms.sanitize import sanitize_html

    text = sanitize_html(html) if "<" in (html or "") else (html or "")
    return " ".join(unescape(strip_tags(BLOCK_END.sub(" ", text))).split())


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def with_image_urls(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for item in items:
        item["imageUrl"] = image_url(item["images"][0], small=True) if item["images"] else ""
        item["imageSrcset"] = media.srcset(item["images"][0]) if item["images"] else ""
        item["listingId"] = item["_id"]  # templates cannot read names that start with an underscore
        item["category"] = CATEGORY_BY_TYPE[item["propertyType"]]
    return items


def _catalogue() -> dict[str, list]:
    return {
        "amenities": list(Amenity.objects.filter(is_active=True).values("id", "name")),
        "facilities": list(Facility.objects.filter(is_active=True).values("id", "name")),
    }


# --- Pages ---------------------------------------------------------------------


def _raw_query(request: HttpRequest) -> dict[str, list[str]]:
    return {name: request.GET.getlist(name) for name in request.GET if name not in ("page", "type")}


def property_listing(request: HttpRequest, space: str | None = None, city: str | None = None) -> HttpResponse:
    """``/property-listing``, ``/{space}`` and ``/{space}/{city}``: search results with a filter form."""
    category = None
    footer_type = request.GET.get("type")
    if space is None and footer_type in FOOTER_TYPES:
        # The footer's /listing?type=workSpaces|eventSpaces arrives here (the dashboard route sends it on).
        return HttpResponsePermanentRedirect(f"/{FOOTER_TYPES[footer_type]}")
    if space is not None:
        category = CATEGORIES.get(space)
        if category is None:
            raise Http404
    asked = _raw_query(request)
    raw = dict(asked)
    if category:
        raw["propertyType"] = [category["property_type"]]
    if city:
        raw["city"] = [city.replace("-", " ")]
    errors: dict[str, list[str]] = {}
    status = 200
    try:
        filters = SearchFilters.parse(raw, strict=False)
        page, items = discovery.search_page(request.GET, filters, user=request.user)
    except InvalidInput as error:
        filters, page, items, errors, status = SearchFilters(), None, [], error.errors or {"": [error.message]}, 400
    items = with_image_urls(items)
    city_name = (items[0]["city"] if items else city.replace("-", " ").title()) if city else None

    if category and city_name:
        heading = f"{category['name']} in {city_name}"
        description = f"Book {category['name'].lower()} in {city_name}: {category['blurb']}"
    elif category:
        heading, description = category["name"], category["blurb"]
    else:
        heading = "Spaces to book"
        description = "Coworking desks, private cabins, meeting rooms, virtual offices and event venues to book."
    base_path = request.path
    kept = {name: values for name, values in asked.items() if any(value.strip() for value in values)}

    def link(number: int) -> str:
        query = urlencode([(name, value) for name, values in kept.items() for value in values] + [("page", number)])
        return f"{base_path}?{query}"

    pages = []
    if page:
        pages = [
            {"number": number, "url": link(number), "current": number == page.page} if number else None
            for number in page_window(page.page, page.total_pages)
        ]
    canonical = absolute(base_path) + (f"?page={page.page}" if page and page.page > 1 and not kept else "")
    context = {
        "heading": heading,
        "description": description,
        "canonical": canonical,
        "category": category,
        "space": space,
        "city_slug": city,
        "city_name": city_name,
        "listings": items,
        "page": page,
        "pages": pages,
        "previous_url": link(page.page - 1) if page and page.page > 1 else None,
        "next_url": link(page.page + 1) if page and page.page < page.total_pages else None,
        "errors": errors,
        "form": {name: values[0] if values else "" for name, values in raw.items()},
        "form_lists": raw,
        "filters_set": bool(kept),
        # How many of the folded filters ("More filters") are set, shown on its button.
        "more_active": sum(
            len([value for value in raw.get(name, []) if value.strip()])
            for name in ("minPrice", "maxPrice", "period", "spaceOffering", "amenities", "facilities")
        ),
        "offering_kinds": OfferingKind.choices,
        "periods": [(value, label) for value, label in Period.choices],
        "property_types": PropertyType.choices,
        "categories": CATEGORIES,
        "catalogue": _catalogue(),
        "filters": filters,
        "map_props": island_props(
            IslandPropsSearchMap,
            {
                **map_tiles(),
                "markers": [
                    {
                        "id": item["_id"],
                        "lat": float(item["latitude"]),
                        "lng": float(item["longitude"]),
                        "title": item["title"],
                        "href": f"/listing-details/{item['slug']}",
                        "price": _marker_price(item),
                    }
                    for item in items
                    if item.get("latitude") is not None and item.get("longitude") is not None
                ],
                "bounds": [float(value) for value in filters.bounds] if filters.bounds else None,
            },
        ),
        "list_ld": ld_json(
            {
                "@context": "https://schema.org",
                "@type": "ItemList",
                "name": heading,
                "itemListElement": [
                    {"@type": "ListItem", "position": index + 1, "url": absolute(f"/listing-details/{item['slug']}")}
                    for index, item in enumerate(items)
                ],
            }
        ),
    }
    return render(request, "listings/property_listing.html", context, status=status)


FOOTER_TYPES = {"workSpaces": "coworking-spaces", "eventSpaces": "event-spaces"}


def _listing_for_page(slug: str) -> Listing:
    """An approved, active, not deleted listing with everything its page shows (fixed query count)."""
    listing = (
        public_listings()
        .filter(slug=slug)
        .select_related("host")
        .annotate(
            host_premium=premium_now("host_id"),
            # The names only, read in the listing's own query (two round trips fewer than prefetching).
            amenity_names=ArraySubquery(
                Amenity.objects.filter(listings=OuterRef("pk")).order_by("name").values("name")
            ),
            facility_names=ArraySubquery(
                Facility.objects.filter(listings=OuterRef("pk")).order_by("name").values("name")
            ),
        )
        .prefetch_related(
            Prefetch("images", queryset=ListingImage.objects.order_by("position")),
            "space_offerings",
            "add_ons",
        )
    )
    # get(), not first(): the slug is unique, and no ORDER BY needs building for the wide SELECT.
    try:
        return listing.get()
    except Listing.DoesNotExist:
        raise Http404 from None


def booking_widget_props(listing: Listing, offerings) -> dict:
    """What a booking widget knows of the listing: the listing page's and the booking steps' (apps.bookings.pages)."""
    return {
        "listingId": str(listing.id),
        "slug": listing.slug,
        "title": listing.title,
        "propertyType": listing.property_type,
        "prices": {period: str(value) for period, value in listing.period_prices().items()},
        "spaceOffering": [
            {
                "_id": str(offering.id),
                "kind": offering.kind,
                "title": offering.title,
                "periods": list(offering.periods),
                "prices": {period: str(value) for period, value in offering.period_prices().items()},
                "seats": offering.seats,
                "minimumPeriod": offering.minimum_period,
            }
            for offering in offerings
        ],
        "servicesAndAddOns": [
            {"_id": str(add_on.id), "title": add_on.title, "price": str(add_on.price)}
            for add_on in listing.add_ons.all()
        ],
        "guest": listing.guest,
        "numberOfSeats": listing.number_of_seats,
        "minimumDays": listing.minimum_days,
        "openingHours": listing.opening_hours,
        "blockedDates": [day.isoformat() for day in listing.blocked_dates],
        "cancellationPolicy": listing.cancellation_policy,
        **zones.booking_zone_props(listing),
    }


def listing_details(request: HttpRequest, slug: str) -> HttpResponse:
    if search_cache.anonymous(request):
        return search_cache.visitor_page(
            request,
            f"listing-details:{slug}",
            lambda marks: _listing_details(request, slug, marks),
            scope=slug,
        )
    return _listing_details(request, slug)


def _listing_details(request: HttpRequest, slug: str, marks: dict | None = None) -> HttpResponse:
    listing = _listing_for_page(slug)
    path = f"/listing-details/{listing.slug}"
    images = [
        {
            "url": image_url(image.path),
            "srcset": media.srcset(image.path),
            "alt": image.alt or f"{listing.title}, photo {index + 1}",
        }
        for index, image in enumerate(listing.images.all())
    ]
    offerings = list(listing.space_offerings.all())
    prices = _price_rows(listing, offerings)
    favourite = request.user.is_authenticated and Favourite.objects.filter(user=request.user, listing=listing).exists()
    plain = plain_text(listing.description)
    description = (plain or f"{listing.get_property_type_display()} in {listing.city}")[:155]
    booking_props = {
        **booking_widget_props(listing, offerings),
        "discount": str(listing.discount),
        "processingFee": str(listing.processing_fee),
        "paymentPreference": listing.payment_preference,
        "bufferMinutes": listing.buffer_minutes,
        "hostTax": str(listing.host.tax),
        "favourite": favourite,
        "isLoggedIn": request.user.is_authenticated,
    }
    host_premium = listing.host_premium
    context = {
        "listing": listing,
        "host_premium": host_premium,
        "featured": listing.is_premium and host_premium,
        "canonical": absolute(path),
        "description": description,
        "images": images,
        "og_image": absolute(images[0]["url"]) if images and images[0]["url"].startswith("/") else "",
        "offerings": offerings,
        "prices": prices,
        "from_price": from_price((row["period"], row["amount"]) for row in prices),
        "cancellation_text": CANCELLATION_TEXT.get(listing.cancellation_policy, ""),
        "category": CATEGORY_BY_TYPE[listing.property_type],
        "category_name": CATEGORIES[CATEGORY_BY_TYPE[listing.property_type]]["name"],
        "map_url": _map_url(listing),
        "map_props": island_props(IslandPropsListingMap, _listing_map_props(listing)),
        "favourite_props": favourite_heart_props(
            request.user, listing_id=str(listing.id), title=listing.title, favourite=bool(favourite)
        ),
        "booking_props": island_props(IslandPropsBookingWidget, booking_props),
        "opening_hours": _opening_rows(listing.opening_hours),
        "listing_ld": ld_json(listing_json_ld(listing, images, prices, path)),
        "breadcrumb_ld": ld_json(
            {
                "@context": "https://schema.org",
                "@type": "BreadcrumbList",
                "itemListElement": [
                    {"@type": "ListItem", "position": 1, "name": "Home", "item": absolute("/")},
                    {
                        "@type": "ListItem",
                        "position": 2,
                        "name": CATEGORIES[CATEGORY_BY_TYPE[listing.property_type]]["name"],
                        "item": absolute(f"/{CATEGORY_BY_TYPE[listing.property_type]}"),
                    },
                    {"@type": "ListItem", "position": 3, "name": listing.title, "item": absolute(path)},
                ],
            }
        ),
    }
    return render(request, "listings/listing_details.html", {**context, **(marks or {})})


def _price_rows(listing: Listing, offerings: list) -> list[dict[str, Any]]:
    if listing.property_type == PropertyType.EVENT_SPACE:
        return [
            {"name": "Whole venue", "period": period, "label": Period(period).label, "amount": amount}
            for period, amount in listing.period_prices().items()
        ]
    return [
        {
            "name": offering.title,
            "period": period,
            "label": Period(period).label,
            "amount": amount,
            "seats": offering.seats,
        }
        for offering in offerings
        for period, amount in offering.period_prices().items()
    ]


def _opening_rows(hours: dict) -> list[dict[str, str]]:
    if not hours:
        return []
    rows = []
    for day in discovery.WEEKDAYS:
        value = hours.get(day)
        if isinstance(value, dict) and value.get("open") and value.get("close"):
            rows.append({"day": day.title(), "hours": f"{value['open']} to {value['close']}"})
        elif day in hours:
            rows.append({"day": day.title(), "hours": "Closed"})
    return rows


def _marker_price(item: dict[str, Any]) -> str:
    price = item.get("fromPrice") or {}
    if not price.get("amount"):
        return ""
    return f"${price['amount']}" + (f" / {price['label']}" if price.get("label") else "")


def map_tiles() -> dict[str, str]:
    """The tile server every map draws from (settings MAP_TILE_URL and MAP_TILE_ATTRIBUTION)."""
    return {"tileUrl": settings.MAP_TILE_URL, "attribution": settings.MAP_TILE_ATTRIBUTION}


def _listing_map_props(listing: Listing) -> dict[str, Any] | None:
    if listing.latitude is None or listing.longitude is None:
        return None
    return {
        **map_tiles(),
        "markers": [
            {
                "id": str(listing.id),
                "lat": float(listing.latitude),
                "lng": float(listing.longitude),
                "title": listing.title,
            }
        ],
        "zoom": 15,
    }


def _map_url(listing: Listing) -> str:
    if listing.latitude is None or listing.longitude is None:
        return ""
    lat, lon = listing.latitude, listing.longitude
    return f"https://www.openstreetmap.org/?mlat={lat}&mlon={lon}#map=16/{lat}/{lon}"


def listing_json_ld(listing: Listing, images: list[dict], prices: list[dict], path: str) -> dict[str, Any]:
    """schema.org LocalBusiness (a Place) with its offers and rating."""
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": ["LocalBusiness", "Place"],
        "@id": absolute(path),
        "name": listing.title,
        "description": plain_text(listing.description)[:500],
        "url": absolute(path),
        "image": [absolute(image["url"]) if image["url"].startswith("/") else image["url"] for image in images],
        "address": {
            "@type": "PostalAddress",
            "streetAddress": listing.street_address,
            "addressLocality": listing.city,
            "addressRegion": listing.state,
            "postalCode": listing.postal_code,
            "addressCountry": listing.country,
        },
        "offers": [
            {
                "@type": "Offer",
                "name": f"{row['name']} per {row['label'].lower()}",
                "price": f"{row['amount']:.2f}",
                "priceCurrency": "USD",
                "availability": "https://schema.org/InStock",
                "url": absolute(path),
            }
            for row in prices
        ],
    }
    if listing.latitude is not None and listing.longitude is not None:
        data["geo"] = {
            "@type": "GeoCoordinates",
            "latitude": float(listing.latitude),
            "longitude": float(listing.longitude),
        }
    if prices:
        amounts = [row["amount"] for row in prices]
        data["priceRange"] = f"${min(amounts):.2f} to ${max(amounts):.2f}"
    if listing.rating_count:
        data["aggregateRating"] = {
            "@type": "AggregateRating",
            "ratingValue": f"{listing.rating_average:.2f}",
            "reviewCount": listing.rating_count,
            "bestRating": 5,
            "worstRating": 1,
        }
    return data


def host_profile(request: HttpRequest, user_name: str) -> HttpResponse:
    """``/host/{userName}``: only hosts who chose a user name."""
    host = (
        User.objects.annotate(upper_name=Upper("user_name"))
        .filter(upper_name=user_name.upper(), role=Role.HOST, is_deleted=False, is_active=True)
        .exclude(user_name="")
        .first()
    )
    if host is None:
        raise Http404
    base = discovery.with_featured(searchable_listings().filter(host=host))
    listings = with_image_urls(
        cards(base.order_by(*discovery.PUBLIC_ORDER).values(*CARD_FIELDS)[:12], user=request.user)
    )
    path = f"/host/{host.user_name}"
    name = host.display_name
    context = {
        "host": host,
        "host_premium": host_is_premium(host.pk),
        "name": name,
        "listings": listings,
        "listing_count": base.count(),
        "canonical": absolute(path),
        "host_ld": ld_json(
            {
                "@context": "https://schema.org",
                "@type": "Person",
                "name": name,
                "url": absolute(path),
                "address": {"@type": "PostalAddress", "addressLocality": host.city, "addressCountry": host.country},
            }
        ),
    }
    return render(request, "listings/host_profile.html", context)
