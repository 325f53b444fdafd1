"""The contracts the OpenAPI schema carries beside the endpoints: every island's props, every event
the live socket sends and every command a page sends it.

``ISLANDS`` names each island (``frontend/src/islands/<Name>/main.tsx``) with the serializer of its
props, ``LIVE_EVENTS`` each socket event with the serializer of its data, ``LIVE_COMMANDS`` each
command with the serializer that validates its data. ``add_contract_components``, a drf-spectacular
postprocessing hook, adds them as the components ``IslandProps<Name>``, ``LiveEvent<Name>`` and
``LiveCommand<Name>`` of docs/openapi.yaml; openapi-typescript turns them into the types that
``mountIsland`` gives each island, ``onLive`` each event's listener and ``sendLive`` each command.
It runs after the enum hook, so their choices stay inline and the API's named enums are untouched.
"""

from drf_spectacular.plumbing import build_mocked_view
from drf_spectacular.utils import extend_schema
from rest_framework.serializers import Serializer

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
from apps.messaging import live_events as chat_events
from apps.notifications import live_events
from apps.notifications.consumers import live_command_name

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

EVENT_DATA: tuple[type[Serializer], ...] = (
    live_events.LiveEventNotification,
    live_events.LiveEventPendingCounter,
    live_events.LiveEventError,
    live_events.LiveEventPong,
    chat_events.LiveEventMessage,
    chat_events.LiveEventRead,
    chat_events.LiveEventDelivered,
    chat_events.LiveEventTyping,
)
EVENT_PREFIX = "LiveEvent"


def _event_name(cls: type[Serializer]) -> str:
    name = cls.__name__.removeprefix(EVENT_PREFIX)
    return name[:1].lower() + name[1:]


LIVE_EVENTS: dict[str, type[Serializer]] = {_event_name(cls): cls for cls in EVENT_DATA}

COMMAND_DATA: tuple[type[Serializer], ...] = (
    live_events.LiveCommandPing,
    chat_events.LiveCommandTyping,
    chat_events.LiveCommandDelivered,
    chat_events.LiveCommandRead,
)
LIVE_COMMANDS: dict[str, type[Serializer]] = {live_command_name(cls): cls for cls in COMMAND_DATA}

# An island without props, an event or command without data: an object with nothing in it (drf-spectacular
# drops empty components).
NO_PROPS = {"type": "object", "additionalProperties": False}


def contract_components(generator) -> dict[str, dict]:
    """The components of every contract (``ISLAND_PROPS``, ``EVENT_DATA``, ``COMMAND_DATA``), with the
    nested ones they use."""
    registry = generator.registry
    before = registry.build({}).get("schemas", {})
    schema = build_mocked_view("GET", "/", extend_schema(), registry).schema
    added: dict[str, dict] = {}
    for serializer in (*ISLAND_PROPS, *EVENT_DATA, *COMMAND_DATA):
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
