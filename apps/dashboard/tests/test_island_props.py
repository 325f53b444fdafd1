"""Every island's props, as the pages render them, match the island's serializer in the OpenAPI schema
(apps/dashboard/contracts.py), so the TypeScript types generated from it are what the island receives."""

import json
import re

import pytest

from apps.accounts.models import Role
from apps.bookings.templatetags.review_tags import listing_reviews
from apps.core.islands import IslandProps
from apps.dashboard.contracts import ISLANDS, PREFIX
from apps.listings.factories import AddOnFactory, ListingFactory

from .contract_schema import contract_schemas, errors_against, plain
from .test_pages import PAGE_PATHS, ROLE_ACTORS

MOUNT = re.compile(r'data-island="(?P<name>\w+)"(?: data-props-id="(?P<props>[\w-]+)")?')
# A listing card's heart holds its props (apps/listings/templatetags/listing_tags.py, card_heart).
CARD_HEART = re.compile(r'<span class="card-heart" data-heart><script type="application/json">(.*?)</script></span>')


@pytest.fixture(scope="module")
def schemas() -> dict:
    return contract_schemas()


@pytest.fixture
def built(monkeypatch) -> list:
    """Every (raw, serialized) pair an island's props went through while the test ran."""
    pairs = []
    original = IslandProps.to_representation

    def record(self, instance):
        data = original(self, instance)
        pairs.append((instance, data))
        return data

    monkeypatch.setattr(IslandProps, "to_representation", record)
    return pairs


def mounted_props(html: str) -> list[tuple[str, dict]]:
    """Each ``data-island`` element of the page with the props it is mounted with ({} when none), and
    each card's heart with its props."""
    found = []
    for match in MOUNT.finditer(html):
        props: dict = {}
        if match["props"]:
            script = re.search(rf'<script id="{match["props"]}" type="application/json">(.*?)</script>', html, re.S)
            assert script, f"{match['name']}: no props element {match['props']}"
            props = json.loads(script.group(1))
        found.append((match["name"], props))
    found.extend(("FavouriteHeart", json.loads(props)) for props in CARD_HEART.findall(html))
    return found


def check(schemas: dict, built: list, html: str, seen: set[str]) -> None:
    for name, props in mounted_props(html):
        assert name in ISLANDS, f"{name} has no props serializer in apps/dashboard/contracts.py"
        errors = errors_against(f"{PREFIX}{name}", props)
        assert not errors, f"{name}: {errors}"
        seen.add(name)
    for raw, data in built:
        assert plain(data) == plain(raw), "a prop was dropped or changed by its serializer"
    built.clear()


def test_every_island_has_a_component(schemas):
    assert {f"{PREFIX}{name}" for name in ISLANDS} <= set(schemas)


@pytest.mark.parametrize("role", sorted(ROLE_ACTORS))
def test_dashboard_pages_props_match_their_serializers(client, users, schemas, built, role):
    client.force_login(users[ROLE_ACTORS[role]])
    seen: set[str] = set()
    for path in [
        *PAGE_PATHS,
        "message?userId=u1&conversationId=c1",
        "notifications?tab=unread",
        "payment-details?paymentId=p1",
    ]:
        response = client.get(f"/{path}")
        assert response.status_code == 200, path
        check(schemas, built, response.content.decode(), seen)
    assert "DashboardShell" in seen and "DashboardHome" in seen
    if role in (Role.HOST, Role.SUB_HOST):
        assert "DashboardPremium" in seen


@pytest.mark.django_db
def test_public_pages_props_match_their_serializers(client, users, schemas, built):
    listing = ListingFactory(office=True, images=1)
    AddOnFactory(listing=listing)
    event = ListingFactory(latitude=None, longitude=None)
    seen: set[str] = set()
    for actor in (None, "renter", "host"):
        if actor:
            client.force_login(users[actor])
        for path in [
            "/",
            "/property-listing",
            "/property-listing?bounds=-75,40,-73,41",
            f"/listing-details/{listing.slug}",
            f"/listing-details/{event.slug}",
            f"/request-booking-details?listing={listing.slug}",
            f"/event-booking-details?listing={event.slug}",
            f"/review-and-pay?listing={listing.slug}",
            "/contact-us",
        ]:
            response = client.get(path)
            assert response.status_code == 200, path
            check(schemas, built, response.content.decode(), seen)
    assert {"NavbarSearch", "CookieConsent", "SearchMap", "BookingWidget", "FavouriteHeart", "ListingMap"} <= seen
    assert {"BookingFlow", "ContactForm"} <= seen
    assert CARD_HEART.search(client.get("/property-listing").content.decode()), "the cards' hearts were checked"


@pytest.mark.django_db
def test_listing_reviews_props_match_their_serializer(schemas, built):
    listing = ListingFactory()
    context = listing_reviews(listing, stats={"reviews": 11, "rating": 4.5})
    seen: set[str] = set()
    html = f'<div data-island="ListingReviews" data-props-id="r"></div><script id="r" type="application/json">{json.dumps(context["more_props"])}</script>'
    check(schemas, built, html, seen)
    assert seen == {"ListingReviews"}


def test_live_events_are_declared_and_checked():
    from apps.dashboard.contracts import LIVE_EVENTS

    from .contract_schema import check_live_event

    assert {"notification", "pendingCounter", "message", "read", "delivered", "typing", "error", "pong"} <= set(
        LIVE_EVENTS
    )
    check_live_event("typing", {"conversationId": "c1", "userId": "u1", "name": "Ann", "isTyping": True})
    with pytest.raises(AssertionError):
        check_live_event("typing", {"conversationId": "c1", "name": "Ann", "isTyping": True})
    with pytest.raises(AssertionError):
        check_live_event("unknown", {})


# The commands the chat page sends (frontend/src/features/messages/MessagesPage.tsx), as it sends them.
CONVERSATION, MESSAGE = "6f1c2b9e-8c1e-4c3a-9d53-0b6f5d2e7a10", "0b8e3f43-5d2a-4b4e-8f0e-3c1d9a7b6e21"
PAGE_COMMANDS = [
    ("read", {"conversationId": CONVERSATION}),
    ("delivered", {"messageId": MESSAGE}),
    ("typing", {"conversationId": CONVERSATION, "isTyping": True}),
    ("typing", {"conversationId": CONVERSATION, "isTyping": False}),
    ("ping", {}),
]


def test_live_commands_are_declared_registered_and_checked():
    from apps.dashboard.contracts import LIVE_COMMANDS
    from apps.notifications.consumers import live_commands

    from .contract_schema import check_live_command

    # The socket validates every command with the serializer the schema declares, and no other.
    assert live_commands() == LIVE_COMMANDS
    assert {command for command, _ in PAGE_COMMANDS} == set(LIVE_COMMANDS)
    for command, data in PAGE_COMMANDS:
        check_live_command(command, data)
    for command, data in (
        ("typing", {"isTyping": True}),
        ("typing", {"conversationId": CONVERSATION, "isTyping": "maybe"}),
        ("typing", {"conversationId": "c1", "isTyping": True}),
        ("delivered", {"messageId": "m" * 65}),
        ("read", {"conversationId": 5}),
        ("unknown", {}),
    ):
        with pytest.raises(AssertionError):
            check_live_command(command, data)
