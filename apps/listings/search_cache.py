"""Anonymous answers of the public search, the navbar's title search and the listing page, kept in Redis.

A visitor without credentials (no ``Authorization`` header, no session cookie) gets the same
answer for the same address, so the answer is stored whole (body and headers) and served by
``SearchCacheMiddleware`` before the rest of the request machinery runs: one Redis round trip,
no database.

Freshness:

- Every stored answer carries the search version it was built under; any change to a listing,
  its offerings, images, amenities or facilities, the catalogue, or a listing's status replaces
  the version (``search_changed``, after the change commits), and answers of an older version
  are no longer served.
- Answers of searches with dates also carry a second version, replaced whenever time is held on
  a space or given back (``dates_changed``, called by the bookings app), and are kept
  ``DATED_SECONDS`` at most.
- A host's account suspended, closed or restored retires them too. The apps above announce their
  own changes (a premium membership: ``search_changed``). What changes without a write (a
  membership reaching its end date) or through a bulk update outside this app (a review's
  rating) shows within ``PAGE_SECONDS`` (a minute, as the search totals already do).
- Signed-in visitors never read or fill the cache (their cards carry their favourites).

The public listing page (HTML) is kept the same way for visitors (``visitor_page``), under the
same version: what differs from one visitor to the next (the CSRF token of the page's forms and
the nonce of its inline script) is stored as a mark and filled in for each visitor.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpRequest, HttpResponse
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token

from apps.accounts.models import Role, User

HOST_ROLES = frozenset({Role.HOST})

VERSION_KEY = "listings:search-version"
DATES_VERSION_KEY = "listings:search-dates-version"
PAGE_PREFIX = "listings:search-page:"
PAGE_SECONDS = 60
DATED_SECONDS = 15
CACHED_PATHS = frozenset({"/api/listing/property-listing", "/api/listing/search-titles"})
_SKIPPED_HEADERS = frozenset({"set-cookie", "content-length"})


def search_changed() -> None:
    """Retire every stored answer now, and again once the current transaction commits (a request
    that reads in between would otherwise store the old rows under the newer version)."""
    _new_version()
    transaction.on_commit(_new_version)


def _new_version() -> None:
    cache.set(VERSION_KEY, uuid.uuid4().hex, None)


def dates_changed() -> None:
    """Retire the stored answers of searches with dates (time was held on a space). One Redis
    write, at once: an answer built between the write and its commit is kept ``DATED_SECONDS``
    at most."""
    cache.set(DATES_VERSION_KEY, uuid.uuid4().hex, None)


def anonymous(request: HttpRequest) -> bool:
    """A visitor without credentials (no ``Authorization`` header, no session cookie)."""
    return "HTTP_AUTHORIZATION" not in request.META and settings.SESSION_COOKIE_NAME not in request.COOKIES


def _page_key(request: HttpRequest) -> str:
    address = f"{request.path}?{request.META.get('QUERY_STRING', '')}"
    return PAGE_PREFIX + hashlib.sha1(address.encode(), usedforsecurity=False).hexdigest()


def _dated(request: HttpRequest) -> bool:
    return "startDate" in request.META.get("QUERY_STRING", "")


class SearchCacheMiddleware:
    """Serves a stored anonymous search answer, or stores the one the view gives (200 only)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "GET" or request.path not in CACHED_PATHS or not anonymous(request):
            return self.get_response(request)
        key, dated = _page_key(request), _dated(request)
        found = cache.get_many([VERSION_KEY, DATES_VERSION_KEY, key] if dated else [VERSION_KEY, key])
        version = (found.get(VERSION_KEY), found.get(DATES_VERSION_KEY)) if dated else found.get(VERSION_KEY)
        stored = found.get(key)
        if stored is not None and stored[0] == version:
            response = HttpResponse(stored[1], status=200)
            for name, value in stored[2]:
                response[name] = value
            return response
        response = self.get_response(request)
        if response.status_code == 200 and not getattr(response, "streaming", False):
            headers = [(name, value) for name, value in response.items() if name.lower() not in _SKIPPED_HEADERS]
            cache.set(key, (version, response.content, headers), DATED_SECONDS if dated else PAGE_SECONDS)
        return response


VISITOR_PAGE_PREFIX = "listings:visitor-page:"
# Rendered in place of the visitor's own values, then replaced by them on every answer.
CSRF_MARK = "csrf-token-of-this-visitor"
NONCE_MARK = "csp-nonce-of-this-answer"


def visitor_page(request: HttpRequest, name: str, render: Callable[[dict], HttpResponse]) -> HttpResponse:
    """A page every visitor without credentials sees alike, kept under the search version.

    ``render(marks)`` renders the page with ``marks`` added to its context (the CSRF token and the
    script nonce as marks); an exception (a 404) or another status than 200 is passed on, not kept.
    Each answer carries the visitor's own CSRF token (the cookie is set as on any page) and the
    nonce of its own Content-Security-Policy header. One Redis round trip when the page is kept.
    """
    key = VISITOR_PAGE_PREFIX + hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()
    found = cache.get_many([VERSION_KEY, key])
    version, stored = found.get(VERSION_KEY), found.get(key)
    if stored is not None and stored[0] == version:
        body = stored[1]
    else:
        response = render({"csrf_token": CSRF_MARK, "csp_nonce": NONCE_MARK})
        if response.status_code != 200 or getattr(response, "streaming", False):
            return response
        body = response.content.decode(response.charset)
        cache.set(key, (version, body), PAGE_SECONDS)
    return HttpResponse(body.replace(CSRF_MARK, get_token(request)).replace(NONCE_MARK, str(get_nonce(request))))


def _rows_changed(sender, raw: bool = False, **kwargs) -> None:
    if not raw:
        search_changed()


def connect_signals() -> None:
    """Replace the version on any write to the rows a search answer is built from."""
    from .models import Amenity, Facility, Listing, ListingImage, SpaceOffering

    for model in (Listing, SpaceOffering, ListingImage, Amenity, Facility):
        post_save.connect(_rows_changed, sender=model, dispatch_uid=f"search-cache-save-{model.__name__}")
        post_delete.connect(_rows_changed, sender=model, dispatch_uid=f"search-cache-delete-{model.__name__}")
    for through in (Listing.amenities.through, Listing.facilities.through):
        m2m_changed.connect(_rows_changed, sender=through, dispatch_uid=f"search-cache-m2m-{through.__name__}")
    post_save.connect(_account_saved, sender=User, dispatch_uid="search-cache-account")


_ACCOUNT_STATUS_FIELDS = frozenset({"is_active", "is_deleted"})


def _account_saved(sender, instance, *, raw: bool = False, update_fields=None, **kwargs) -> None:
    """A host suspended, closed or restored takes its listings out of the public search or back
    (a save naming other fields, such as a sign-in's ``last_login``, does not)."""
    if raw or instance.role not in HOST_ROLES:
        return
    if update_fields is None or _ACCOUNT_STATUS_FIELDS & set(update_fields):
        search_changed()
