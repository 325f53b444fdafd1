"""Anonymous answers of the public search, the navbar's title search and the listing page, kept in Redis.

A visitor without credentials (no ``Authorization`` header, no session cookie) gets the same
answer for the same address, so the answer is stored whole (body and headers) and served by
``SearchCacheMiddleware`` before the rest of the request machinery runs: one Redis round trip,
no database.

Freshness: every stored answer carries the versions of the scopes it was built from, and a change
replaces the versions of the scopes it touches (after the change commits too), so an answer of an
older version is no longer served. An edit retires the answers that could contain the listing, not
every answer (a busy site keeps its hit rate):

- A search with a city is in the scope of that city; a map box of at most ``MAX_TILES`` tiles of
  one degree in the scopes of those tiles; any other search (no city, a wide box, the navbar's
  title search) in the scope ``any``. A listing page is in the scope of its listing's address.
- A change to a listing, its offerings, images, amenities or facilities replaces the versions of
  ``any``, its city and its tile (before and after the change) and its page (``listing_changed``).
- Time held on a space or given back replaces the dates versions of the same scopes (``dates_changed``);
  answers of searches with dates also carry those, and are kept ``DATED_SECONDS`` at most.
- Whatever can move many listings at once replaces the global version, which every answer carries
  (``search_changed``): the catalogue, a host's account suspended, closed or restored, a premium
  membership, a bulk update (a premium grace period ending, a review's rating). What changes without
  a write (a membership reaching its end date) shows within ``PAGE_SECONDS`` (a minute, as the
  search totals already do).
- Signed-in visitors never read or fill the cache (their cards carry their favourites).

The public listing page (HTML) is kept the same way for visitors (``visitor_page``), under the
versions of its scope: what differs from one visitor to the next (the CSRF token of the page's forms and
the nonce of its inline script) is stored as a mark and filled in for each visitor.
"""

from __future__ import annotations

import hashlib
import json
import math
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token

from apps.accounts.models import Role
from apps.core.django_internals import loaded_relation

HOST_ROLES = frozenset({Role.HOST})

VERSION_KEY = "listings:search-version"
DATES_VERSION_KEY = "listings:search-dates-version"
SCOPE_PREFIX = "listings:search-scope:"
PAGE_PREFIX = "listings:search-page:"
PAGE_SECONDS = 60
DATED_SECONDS = 15
MAX_TILES = 4
ANY = "any"
CACHED_PATHS = frozenset({"/api/listing/property-listing", "/api/listing/search-titles"})
_SKIPPED_HEADERS = frozenset({"set-cookie", "content-length"})
CACHE_HEADER = "X-Search-Cache"
"""``hit`` on a stored answer, ``miss`` on one built for the request (the bench counts them)."""


def search_changed() -> None:
    """Retire every stored answer now, and again once the current transaction commits (a request
    that reads in between would otherwise store the old rows under the newer version)."""
    _new_version([VERSION_KEY])
    transaction.on_commit(lambda: _new_version([VERSION_KEY]))


def _new_version(keys: list[str]) -> None:
    value = uuid.uuid4().hex
    cache.set_many(dict.fromkeys(keys, value), None)


def city_scope(city: str) -> str:
    return "city:" + hashlib.sha1(city.strip().upper().encode(), usedforsecurity=False).hexdigest()[:16]


def tile_scope(latitude, longitude) -> str:
    return f"tile:{math.floor(latitude)}:{math.floor(longitude)}"


def page_scope(slug: str) -> str:
    return "page:" + slug


def place_scopes(city: str | None, latitude, longitude, slug: str | None = None) -> set[str]:
    """The scopes of stored answers a listing at this place could be part of."""
    scopes = {ANY}
    if city:
        scopes.add(city_scope(city))
    if latitude is not None and longitude is not None:
        scopes.add(tile_scope(latitude, longitude))
    if slug:
        scopes.add(page_scope(slug))
    return scopes


def listing_changed(scopes: set[str]) -> None:
    """Retire the answers of ``scopes`` (``place_scopes`` of the listing before and after the
    change) now and once the current transaction commits."""
    keys = [SCOPE_PREFIX + scope for scope in sorted(scopes)]
    _new_version(keys)
    transaction.on_commit(lambda: _new_version(keys))


def dates_changed(scopes: set[str] | None = None) -> None:
    """Retire the stored answers of searches with dates in ``scopes`` (time was held on a space
    there; ``None``: everywhere). One Redis write, at once: an answer built between the write and
    its commit is kept ``DATED_SECONDS`` at most."""
    if scopes is None:
        _new_version([DATES_VERSION_KEY])
    else:
        _new_version([SCOPE_PREFIX + "dates:" + scope for scope in sorted(scopes)])


def anonymous(request: HttpRequest) -> bool:
    """A visitor without credentials (no ``Authorization`` header, no session cookie)."""
    return "HTTP_AUTHORIZATION" not in request.META and settings.SESSION_COOKIE_NAME not in request.COOKIES


def _page_key(request: HttpRequest) -> str:
    address = f"{request.path}?{request.META.get('QUERY_STRING', '')}"
    return PAGE_PREFIX + hashlib.sha1(address.encode(), usedforsecurity=False).hexdigest()


def _dated(request: HttpRequest) -> bool:
    return "startDate" in request.META.get("QUERY_STRING", "")


def search_scopes(request: HttpRequest) -> list[str]:
    """The scopes a search answer depends on, from its address (``scopes_of``). A value the search
    would refuse gets ``any`` (the answer is an error, not kept)."""
    if request.path != "/api/listing/property-listing":
        return [ANY]
    city = request.GET.get("filters[city]", "").strip()
    bounds = request.GET.get("filters[bounds]", "").strip()
    box = None
    if bounds and not city:
        try:
            parts = json.loads(bounds) if bounds.startswith("[") else bounds.split(",")
            box = tuple(float(str(part)) for part in parts)
        except (ValueError, TypeError):
            return [ANY]
        if len(box) != 4:
            return [ANY]
    return scopes_of(city, box)


def scopes_of(city: str | None, bounds) -> list[str]:
    """A search's scopes: its city; else the tiles of a map box of at most ``MAX_TILES`` tiles;
    else ``any``."""
    if city:
        return [city_scope(city)]
    if bounds:
        south, west, north, east = (float(value) for value in bounds)
        if all(math.isfinite(value) for value in (south, west, north, east)) and west <= east:
            rows = range(math.floor(south), math.floor(north) + 1)
            columns = range(math.floor(west), math.floor(east) + 1)
            if 0 < len(rows) * len(columns) <= MAX_TILES:
                return [f"tile:{row}:{column}" for row in rows for column in columns]
    return [ANY]


def version_keys(scopes: list[str], *, dated: bool) -> list[str]:
    """The version keys an answer of ``scopes`` carries (with the dates versions when ``dated``)."""
    keys = [VERSION_KEY, *(SCOPE_PREFIX + scope for scope in scopes)]
    if dated:
        keys += [DATES_VERSION_KEY, *(SCOPE_PREFIX + "dates:" + scope for scope in scopes)]
    return keys


class SearchCacheMiddleware:
    """Serves a stored anonymous search answer, or stores the one the view gives (200 only)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "GET" or request.path not in CACHED_PATHS or not anonymous(request):
            return self.get_response(request)
        key, dated = _page_key(request), _dated(request)
        versions = version_keys(search_scopes(request), dated=dated)
        found = cache.get_many([*versions, key])
        version = tuple(found.get(name) for name in versions)
        stored = found.get(key)
        if stored is not None and stored[0] == version:
            response = HttpResponse(stored[1], status=200)
            for name, value in stored[2]:
                response[name] = value
            response[CACHE_HEADER] = "hit"
            return response
        response = self.get_response(request)
        if response.status_code == 200 and not getattr(response, "streaming", False):
            headers = [(name, value) for name, value in response.items() if name.lower() not in _SKIPPED_HEADERS]
            cache.set(key, (version, response.content, headers), DATED_SECONDS if dated else PAGE_SECONDS)
            response[CACHE_HEADER] = "miss"
        return response


VISITOR_PAGE_PREFIX = "listings:visitor-page:"
# Rendered in place of the visitor's own values, then replaced by them on every answer.
CSRF_MARK = "csrf-token-of-this-visitor"
NONCE_MARK = "csp-nonce-of-this-answer"


def visitor_page(
    request: HttpRequest, name: str, render: Callable[[dict], HttpResponse], *, scope: str = ""
) -> HttpResponse:
    """A page every visitor without credentials sees alike, kept under the global version and the
    version of ``scope`` (a listing's slug: ``listing_changed`` retires its page).

    ``render(marks)`` renders the page with ``marks`` added to its context (the CSRF token and the
    script nonce as marks); an exception (a 404) or another status than 200 is passed on, not kept.
    Each answer carries the visitor's own CSRF token (the cookie is set as on any page) and the
    nonce of its own Content-Security-Policy header. One Redis round trip when the page is kept.
    """
    key = VISITOR_PAGE_PREFIX + hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()
    versions = [VERSION_KEY, SCOPE_PREFIX + page_scope(scope)]
    found = cache.get_many([*versions, key])
    version, stored = tuple(found.get(name) for name in versions), found.get(key)
    if stored is not None and stored[0] == version:
        body = stored[1]
    else:
        response = render({"csrf_token": CSRF_MARK, "csp_nonce": NONCE_MARK})
        if response.status_code != 200 or getattr(response, "streaming", False):
            return response
        body = response.content.decode(response.charset)
        cache.set(key, (version, body), PAGE_SECONDS)
    return HttpResponse(body.replace(CSRF_MARK, get_token(request)).replace(NONCE_MARK, str(get_nonce(request))))


def catalogue_changed(sender, raw: bool = False, **kwargs) -> None:
    if not raw:
        search_changed()


def _place_of(listing) -> set[str]:
    """The scopes of a listing as loaded (fields not loaded are not read: no query)."""
    values = listing.__dict__
    return place_scopes(values.get("city"), values.get("latitude"), values.get("longitude"), values.get("slug"))


_PLACE_FIELDS = frozenset({"city", "latitude", "longitude", "slug"})


def listing_loaded(sender, instance, **kwargs) -> None:
    instance._search_place = _place_of(instance)


def listing_saved(sender, instance, raw: bool = False, **kwargs) -> None:
    """The answers that could contain the listing where it was and where it is now."""
    if raw:
        return
    scopes = _place_of(instance) | getattr(instance, "_search_place", set())
    if not _PLACE_FIELDS.issubset(instance.__dict__):  # loaded with .only(): read where it is
        scopes |= listing_scopes(instance.pk)
    listing_changed(scopes)
    instance._search_place = _place_of(instance)


def listing_scopes(listing_id) -> set[str]:
    """The scopes of a listing read from the database (a deleted one: everywhere)."""
    from .models import Listing

    row = Listing.objects.filter(pk=listing_id).values_list("city", "latitude", "longitude", "slug").first()
    return place_scopes(*row) if row else {ANY}


def part_changed(sender, instance, raw: bool = False, **kwargs) -> None:
    """An offering or image of a listing: the listing's scopes (its row when already loaded)."""
    if raw:
        return
    listing = loaded_relation(instance, "listing")
    scopes = _place_of(listing) if listing is not None else listing_scopes(instance.listing_id)
    listing_changed(scopes)


def items_changed(sender, instance, action: str, reverse: bool, **kwargs) -> None:
    """Amenities or facilities added to a listing or taken off (from an item's side: everywhere)."""
    if not action.startswith("post_"):
        return
    if reverse:
        search_changed()
    else:
        listing_changed(_place_of(instance))


_ACCOUNT_STATUS_FIELDS = frozenset({"is_active", "is_deleted"})


def account_saved(sender, instance, *, raw: bool = False, update_fields=None, **kwargs) -> None:
    """A host suspended, closed or restored takes its listings out of the public search or back
    (a save naming other fields, such as a sign-in's ``last_login``, does not)."""
    if raw or instance.role not in HOST_ROLES:
        return
    if update_fields is None or _ACCOUNT_STATUS_FIELDS & set(update_fields):
        search_changed()
