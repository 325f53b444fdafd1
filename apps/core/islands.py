"""The props a template hands to a React island, declared as serializers.

Each island's props are one serializer named ``IslandProps<Island>``: it is a component of the OpenAPI
schema (docs/openapi.yaml, listed in apps/dashboard/contracts.py), from which the front end's types are
generated, and ``mountIsland("<Island>", ...)`` gives the island that type. The page builds the props
through the serializer (``island_props``), so a prop it does not declare never reaches the client, and
a test renders every page's props and checks them against the schema.
"""

from typing import Any

from rest_framework import serializers


class IslandProps(serializers.Serializer):
    """The base of every island's props: read only, built from a dict."""


def island_props(serializer_class: type[IslandProps], value: dict[str, Any] | None) -> dict[str, Any] | None:
    """``value`` as the island receives it: through its serializer (None stays None: no island)."""
    if value is None:
        return None
    return dict(serializer_class(value).data)


class IslandPropsNavbar(IslandProps):
    """The navbar's props (``navbar-props``): its search and its menu."""

    signedIn = serializers.BooleanField()


class IslandPropsNavbarSearch(IslandPropsNavbar):
    """The navbar's search reads the navbar's props."""


class IslandPropsCookieConsent(IslandProps):
    """The cookie banner takes no props."""


class IslandPropsContactForm(IslandProps):
    """The contact form takes over the server-rendered form: no props."""
