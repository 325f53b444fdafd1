"""The pages of the signed-in area: one view, driven by the route table in navigation.py."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.vary import vary_on_cookie

from apps.accounts.models import Role
from apps.core.islands import island_props
from apps.notifications.counters import pending_counters

from .contracts import ISLANDS
from .islands import IslandPropsDashboardPremium, IslandPropsDashboardShell
from .navigation import ROUTES_BY_NAME, short_name, sidebar_for
from .pages import PAGES

PREMIUM_ROLES = frozenset({Role.HOST, Role.SUB_HOST})


def _counters(user) -> dict[str, int]:
    """The pending counters of the menu; renters load none (spec section 6)."""
    if user.role == Role.RENTER:
        return {}
    return pending_counters(user)


@never_cache
@vary_on_cookie
def page(request: HttpRequest, route: str, **kwargs) -> HttpResponse:
    """Render ``route`` for the signed-in user; a role that may not open it gets its own dashboard."""
    if route == "search-listing":
        # The hidden "search listing" entry is the public search (docs/decisions/dashboard/search-listing.md).
        query = request.GET.urlencode()
        return redirect(f"/property-listing?{query}" if query else "/property-listing")
    user = request.user
    if not user.is_authenticated or getattr(user, "is_deleted", False):
        if route == "listing" and request.GET.get("type"):
            # The footer's /listing?type=... links are for everybody: show the public search.
            return redirect(f"/property-listing?{request.GET.urlencode()}")
        return redirect("/")

    requested = ROUTES_BY_NAME[route]
    shown = requested if requested.allows(user.role) else ROUTES_BY_NAME["dashboard"]
    page_info = PAGES.get(shown.name)
    counters = _counters(user)
    name = user.display_name
    props = {
        "route": shown.name,
        "requestedRoute": requested.name,
        "role": user.role,
        "userId": str(user.pk),
        **(page_info.props(request, kwargs) if page_info else {}),
    }
    shell = {
        "role": user.role,
        "userId": str(user.pk),
        "counters": counters,
        "websocketUrl": settings.WEBSOCKET_URL,
        "loadsCounters": user.role != Role.RENTER,
    }
    context = {
        "route": shown,
        "requested_route": requested,
        "page_island": page_info.island if page_info else None,
        "page_props": island_props(ISLANDS[page_info.island], props) if page_info else props,
        "shell_props": island_props(IslandPropsDashboardShell, shell),
        "sidebar": sidebar_for(user.role, request.path, counters),
        "user_display_name": name,
        "user_short_name": short_name(name),
        "show_premium": user.role in PREMIUM_ROLES,
        "premium_props": island_props(IslandPropsDashboardPremium, {"role": user.role}),
    }
    return render(request, "dashboard/page.html", context)
