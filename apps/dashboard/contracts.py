"""The contracts the OpenAPI schema carries beside the endpoints: every island's props.

``ISLANDS`` names each island (``frontend/src/islands/<Name>/main.tsx``) with the serializer of its
props. ``add_contract_components``, a drf-spectacular postprocessing hook, adds each as the component
``IslandProps<Name>`` of docs/openapi.yaml; openapi-typescript turns them into the types that
``mountIsland`` gives each island. It runs after the enum hook, so the islands' choices stay inline
and the API's named enums are untouched.
"""

from drf_spectacular.plumbing import build_mocked_view
from drf_spectacular.utils import extend_schema

from apps.bookings.islands import IslandPropsBookingFlow, IslandPropsListingReviews
from apps.core.islands import (
    IslandProps,
    IslandPropsContactForm,
    IslandPropsCookieConsent,
    IslandPropsNavbar,
    IslandPropsNavbarSearch,
)
from apps.listings.islands import (
    IslandPropsBookingWidget,
    IslandPropsFavouriteHeart,
    IslandPropsListingMap,
    IslandPropsSearchMap,
)

from . import islands as dashboard

ISLAND_PROPS: tuple[type[IslandProps], ...] = (
    IslandPropsNavbar,
    IslandPropsNavbarSearch,
    IslandPropsCookieConsent,
    IslandPropsContactForm,
    IslandPropsBookingWidget,
    IslandPropsFavouriteHeart,
    IslandPropsListingMap,
    IslandPropsSearchMap,
    IslandPropsBookingFlow,
    IslandPropsListingReviews,
    dashboard.IslandPropsDashboardShell,
    dashboard.IslandPropsDashboardPremium,
    dashboard.IslandPropsDashboardHome,
    dashboard.IslandPropsDashboardBookings,
    dashboard.IslandPropsDashboardListings,
    dashboard.IslandPropsDashboardListingForm,
    dashboard.IslandPropsDashboardAmenities,
    dashboard.IslandPropsDashboardFavourites,
    dashboard.IslandPropsDashboardInvoices,
    dashboard.IslandPropsDashboardVerification,
    dashboard.IslandPropsDashboardCalendar,
    dashboard.IslandPropsDashboardPayments,
    dashboard.IslandPropsDashboardPayout,
    dashboard.IslandPropsDashboardPaymentDetails,
    dashboard.IslandPropsDashboardMessages,
    dashboard.IslandPropsDashboardNotifications,
    dashboard.IslandPropsDashboardDisputes,
    dashboard.IslandPropsDashboardProfile,
    dashboard.IslandPropsDashboardSettings,
    dashboard.IslandPropsDashboardUsers,
    dashboard.IslandPropsDashboardContent,
)
PREFIX = "IslandProps"
ISLANDS: dict[str, type[IslandProps]] = {cls.__name__.removeprefix(PREFIX): cls for cls in ISLAND_PROPS}

# An island without props: an object with nothing in it (drf-spectacular drops empty components).
NO_PROPS = {"type": "object", "additionalProperties": False}


def contract_components(generator) -> dict[str, dict]:
    """The components of every contract in ``ISLAND_PROPS``, with the nested ones they refer to."""
    registry = generator.registry
    before = registry.build({}).get("schemas", {})
    schema = build_mocked_view("GET", "/", extend_schema(), registry).schema
    added: dict[str, dict] = {}
    for serializer in ISLAND_PROPS:
        if schema.resolve_serializer(serializer, "response").name is None:
            added[serializer.__name__] = {**NO_PROPS, "description": (serializer.__doc__ or "").strip()}
    for name, component in registry.build({}).get("schemas", {}).items():
        if name not in before:
            added[name] = component
    return added


def add_contract_components(result, generator, request, public):
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(contract_components(generator))
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result
