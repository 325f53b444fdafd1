"""Route access and the sidebar of the signed-in area, for every route and every role (spec 2.3, 6)."""

import re

import pytest

from apps.accounts.factories import UserFactory
from apps.dashboard.navigation import ROUTES, counter_text, short_name
from apps.notifications.counters import register_counter, registered_counters, unregister_counter

ROLE_ACTORS = {"admin": "admin", "moderator": "moderator", "host": "host", "subHost": "sub_host", "renter": "renter"}

# Who may open each route (docs/decisions/dashboard/route-access.md); None = any signed-in user.
STAFF = {"admin", "moderator"}
STAFF_AND_HOSTS = {"admin", "moderator", "host", "subHost"}
HOSTS = {"host", "subHost"}
EVERYONE = {"admin", "moderator", "host", "subHost", "renter"}
EXPECTED_ACCESS = {
    "dashboard": EVERYONE,
    "listing": STAFF_AND_HOSTS,
    "listing-requests": STAFF_AND_HOSTS,
    "other-requests": HOSTS,
    "listing-detail/x1": EVERYONE,
    "edit-listing/x1": STAFF_AND_HOSTS,
    "add-new-listing": HOSTS,
    "booking": EVERYONE,
    "booking-requests": HOSTS,
    "booking-detail/x1": EVERYONE,
    "booking-request-details/x1": STAFF_AND_HOSTS,
    # A subHost neither sees nor opens the host's money and disputes (docs/security.md "Round two").
    "payments": {"admin", "host"},
    "payout-requests": {"admin"},
    "payout": {"admin", "host"},
    "payment-details": {"admin", "host"},
    "invoices": {"admin", "host", "renter"},
    "disputes": EVERYONE - {"subHost"},
    "dispute-requests": STAFF_AND_HOSTS - {"subHost"},
    "dispute-payments": EVERYONE - {"subHost"},
    "hosts": STAFF,
    "addhost": STAFF,
    "add-subhost": {"host"},
    "sub-hosts": {"host"},
    "view-user/x1": EVERYONE,
    "verificationRequest": STAFF,
    "renters": STAFF_AND_HOSTS,
    "moderators": {"admin"},
    "add-moderator": {"admin"},
    "cms": STAFF,
    "message": EVERYONE,
    "profile": EVERYONE,
    "profile/edit": EVERYONE,
    "general": EVERYONE,
    "favourites": {"renter"},
    "review-setting": STAFF,
    "manage-amenities": STAFF,
    "search-listing": set(),
    "notifications": EVERYONE,
    "calender": EVERYONE,
}

# Exactly what each role's sidebar shows, in order (spec 2.3's table, subHost without Payments and Disputes).
EXPECTED_SIDEBAR = {
    "admin": "/dashboard /profile /general /cms /review-setting /manage-amenities /listing /listing-requests /booking "
    "/message /invoices /payments /payout /payout-requests /calender /disputes /dispute-requests /hosts /renters "
    "/verificationRequest /moderators",
    "moderator": "/dashboard /profile /general /cms /review-setting /manage-amenities /listing /listing-requests "
    "/booking /message /calender /disputes /dispute-requests /hosts /renters /verificationRequest",
    "host": "/dashboard /profile /general /listing /listing-requests /other-requests /booking /booking-requests "
    "/message /invoices /payments /payout /calender /disputes /dispute-requests /renters /sub-hosts",
    "subHost": "/dashboard /profile /general /listing /listing-requests /other-requests /booking /booking-requests "
    "/message /calender /renters",
    "renter": "/dashboard /profile /general /booking /message /invoices /favourites /calender /disputes",
}
EXPECTED_GROUPS = {
    "admin": ["Profile", "Manage Listing", "Manage Booking", "Payments", "Disputes", "Users"],
    "moderator": ["Profile", "My Listing", "Manage Booking", "Disputes", "Users"],
    "host": ["Profile", "My Listing", "Manage Booking", "Payments", "Disputes", "Users"],
    "subHost": ["Profile", "My Listing", "Manage Booking", "Users"],
    "renter": ["Profile", "My Booking", "Payments", "Disputes"],
}


def sidebar_hrefs(html: str) -> list[str]:
    menu = html.split('data-testid="sidebar"', 1)[1].split("</nav>", 1)[0]
    return re.findall(r'<a href="([^"]+)" class="dash-link', menu)


def test_every_spec_route_is_in_the_table():
    assert {route.path.replace("<id>", "x1") for route in ROUTES} == set(EXPECTED_ACCESS)


# Not a page of the dashboard: the hidden entry leads to the public search (docs/decisions/dashboard/search-listing.md).
PAGE_PATHS = sorted(set(EXPECTED_ACCESS) - {"search-listing"})


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGE_PATHS)
def test_signed_out_visitor_is_sent_home(client, path):
    response = client.get(f"/{path}")
    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.parametrize("role", sorted(ROLE_ACTORS))
@pytest.mark.parametrize("path", PAGE_PATHS)
def test_route_access_per_role(client, users, role, path):
    client.force_login(users[ROLE_ACTORS[role]])
    response = client.get(f"/{path}")
    assert response.status_code == 200
    shown = response.context["route"]
    if role in EXPECTED_ACCESS[path]:
        assert shown.path.replace("<id>", "x1") == path
    else:
        assert shown.name == "dashboard", f"{role} should see its own dashboard on /{path}"
        assert b'data-island="DashboardHome"' in response.content
    assert response["Cache-Control"].startswith("max-age=0") or "no-cache" in response["Cache-Control"]


@pytest.mark.parametrize("role", sorted(ROLE_ACTORS))
def test_each_role_sees_exactly_its_sidebar(client, users, role):
    client.force_login(users[ROLE_ACTORS[role]])
    response = client.get("/dashboard")
    assert sidebar_hrefs(response.content.decode()) == EXPECTED_SIDEBAR[role].split()
    groups = [node["label"] for node in response.context["sidebar"] if node["kind"] == "group"]
    assert groups == EXPECTED_GROUPS[role]


def test_search_listing_entry_is_hidden_from_everyone(client, users):
    for actor in ROLE_ACTORS.values():
        client.force_login(users[actor])
        assert "/search-listing" not in sidebar_hrefs(client.get("/dashboard").content.decode())


@pytest.mark.django_db
@pytest.mark.parametrize("actor", [None, *ROLE_ACTORS.values()])
def test_search_listing_leads_everyone_to_the_public_search(client, users, actor):
    if actor:
        client.force_login(users[actor])
    response = client.get("/search-listing?filters[title]=loft")
    assert response.status_code == 302
    assert response["Location"] == "/property-listing?filters%5Btitle%5D=loft"
    assert client.get("/search-listing")["Location"] == "/property-listing"


def test_group_opens_when_the_current_route_is_a_child(client, users):
    client.force_login(users["host"])
    html = client.get("/booking-requests").content.decode()
    assert '<details open data-group="booking">' in html
    assert '<details data-group="payments">' in html
    active = re.search(r'<a href="/booking-requests" class="dash-link is-active"[^>]*aria-current="page"', html)
    assert active


def test_unbuilt_page_says_coming_soon_without_data(client, users, monkeypatch):
    from apps.dashboard import pages

    monkeypatch.delitem(pages.PAGES, "moderators", raising=False)
    client.force_login(users["admin"])
    html = client.get("/moderators").content.decode()
    assert "This page is coming soon" in html
    assert 'data-island="Dashboard' not in html.split("<main", 1)[1].split("</main>", 1)[0]


def test_footer_listing_links_reach_the_public_search_when_signed_out(client, db):
    response = client.get("/listing?type=eventSpaces")
    assert response.status_code == 302
    assert response["Location"] == "/property-listing?type=eventSpaces"


def test_deleted_account_is_treated_as_signed_out(client, db):
    user = UserFactory(role="renter", is_deleted=True)
    client.force_login(user)
    assert client.get("/dashboard")["Location"] == "/"


@pytest.fixture
def busy_counters():
    saved = registered_counters()
    register_counter("pendingBookings", lambda user: 12)
    register_counter("otherRequests", lambda user: 3)
    register_counter("pendingListings", lambda user: 9)
    yield
    for name in ("pendingBookings", "otherRequests", "pendingListings"):
        unregister_counter(name)
    for name, fn in saved.items():
        register_counter(name, fn)


def test_menu_counters_show_9_plus_above_nine(client, users, busy_counters):
    client.force_login(users["host"])
    html = client.get("/dashboard").content.decode()
    assert re.search(r'data-counter="pendingBookings" data-value="12">9\+</span>', html)
    assert re.search(r'data-counter="otherRequests" data-value="3">3</span>', html)
    # The Listing group shows its children's counts: other requests for a host (spec 2.3).
    assert re.search(r'data-group-counters="pendingListings otherRequests">3</span>', html)
    client.force_login(users["admin"])
    html = client.get("/dashboard").content.decode()
    assert re.search(r'data-counter="pendingListings" data-value="9">9</span>', html)
    assert "pendingBookings" not in html.split("<main", 1)[0].split("data-testid")[1].split("shell-props")[0]


def test_renter_loads_no_counters(client, users, busy_counters):
    client.force_login(users["renter"])
    response = client.get("/dashboard")
    assert response.context["shell_props"]["counters"] == {}
    assert response.context["shell_props"]["loadsCounters"] is False


def test_user_name_is_cut_to_six_characters_and_two_dots(client, db):
    user = UserFactory(role="renter", first_name="Maximilian", last_name="Long")
    client.force_login(user)
    html = client.get("/dashboard").content.decode()
    assert '<span class="dash-user-name" title="Maximilian Long">Maximi..</span>' in html


@pytest.mark.parametrize(("value", "text"), [(0, ""), (1, "1"), (9, "9"), (10, "9+"), (250, "9+"), (None, "")])
def test_counter_text(value, text):
    assert counter_text(value) == text


@pytest.mark.parametrize(
    ("name", "short"), [("Alex", "Alex"), ("Hannah", "Hannah"), ("Hannah H", "Hannah.."), ("", "")]
)
def test_short_name(name, short):
    assert short_name(name) == short


def test_premium_button_only_for_host_and_subhost(client, users):
    for actor, shown in (("host", True), ("sub_host", True), ("renter", False), ("admin", False), ("moderator", False)):
        client.force_login(users[actor])
        html = client.get("/dashboard").content.decode()
        assert ('data-island="DashboardPremium"' in html) is shown, actor


def test_logout_asks_for_confirmation(client, users):
    client.force_login(users["renter"])
    html = client.get("/dashboard").content.decode()
    assert 'action="/logout" data-confirm="Are you sure you want to log out?"' in html


@pytest.mark.parametrize(
    ("path", "island", "view", "allowed"),
    [
        ("/payout", "DashboardPayout", "payout", {"admin", "host"}),
        ("/payout-requests", "DashboardPayout", "requests", {"admin"}),
        ("/payments", "DashboardPayments", None, {"admin", "host"}),
        ("/payment-details", "DashboardPaymentDetails", None, {"admin", "host"}),
        ("/message", "DashboardMessages", None, EVERYONE),
        ("/notifications", "DashboardNotifications", None, EVERYONE),
        ("/disputes", "DashboardDisputes", "list", EVERYONE - {"subHost"}),
        ("/dispute-requests", "DashboardDisputes", "list", STAFF_AND_HOSTS - {"subHost"}),
        ("/dispute-payments", "DashboardDisputes", "detail", EVERYONE - {"subHost"}),
    ],
)
def test_pages_mount_their_island_for_allowed_roles(client, users, path, island, view, allowed):
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        response = client.get(path)
        props = response.context["page_props"]
        if role in allowed:
            assert response.context["page_island"] == island, role
            assert props["route"] == path.strip("/")
            assert props.get("view") == view
            assert "This page is coming soon" not in response.content.decode()
        else:
            assert props["route"] == "dashboard", role
            assert response.context["page_island"] != island


def test_message_page_passes_the_user_to_start_with(client, users):
    client.force_login(users["renter"])
    props = client.get(f"/message?userId={users['host'].pk}").context["page_props"]
    assert props["withUserId"] == str(users["host"].pk)
    assert props["userId"] == str(users["renter"].pk)
    props = client.get("/dispute-payments?id=" + "x" * 500).context["page_props"]
    assert props["id"] == "x" * 64


def test_message_page_says_which_side_of_a_conversation_the_user_speaks_for(client, users):
    seen = {}
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        seen[role] = client.get("/message").context["page_props"]["side"]
    assert seen == {"admin": None, "moderator": None, "host": "host", "subHost": "host", "renter": "renter"}


def test_payout_and_payment_pages_say_what_each_role_is_offered(client, users):
    offered = {}
    for role in ("admin", "host"):
        client.force_login(users[ROLE_ACTORS[role]])
        payout = client.get("/payout").context["page_props"]
        payments = client.get("/payments").context["page_props"]
        offered[role] = (payout["requestsPayouts"], payout["seesBalance"], payout["withHost"], payments["withHost"])
    assert offered == {
        "admin": (False, False, True, True),
        "host": (True, True, False, False),
    }


def test_booking_pages_carry_the_side_and_the_tabs_from_the_server(client, users):
    sides = {}
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        props = client.get("/booking").context["page_props"]
        assert props["tabs"][0] == "all" and "pending" in props["tabs"], role
        sides[role] = props["side"]
        assert client.get("/booking-detail/x").context["page_props"]["side"] == props["side"]
    assert sides == {"admin": "staff", "moderator": "staff", "host": "host", "subHost": "host", "renter": "renter"}


def test_dashboard_names_the_widgets_each_role_sees(client, users):
    seen = {}
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        props = client.get("/dashboard").context["page_props"]
        seen[role] = (set(props["widgets"]) & {"revenue", "payoutRequests", "geoChart"}, props["platformNumbers"])
        assert props["seesInvoices"] is (role != "moderator"), role
    assert seen == {
        "admin": ({"revenue", "payoutRequests", "geoChart"}, True),
        "moderator": ({"geoChart"}, True),
        "host": (set(), False),
        "subHost": (set(), False),
        "renter": (set(), False),
    }


def test_listing_and_calendar_pages_say_whether_the_user_works_on_every_listing_or_its_hosts(client, users):
    seen = {}
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        assert client.get("/calender").context["page_props"]["hostSide"] is (role in ("host", "subHost")), role
        props = client.get("/listing").context["page_props"]
        if props["route"] == "listing":
            seen[role] = (props["staff"], props["hostSide"])
    assert seen == {
        "admin": (True, False),
        "moderator": (True, False),
        "host": (False, True),
        "subHost": (False, True),
    }


def test_booking_detail_says_who_loads_the_payment_record(client, users):
    seen = {}
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        seen[role] = client.get("/booking-detail/x").context["page_props"]["seesPayment"]
    # The subHost reads no money records (docs/security.md "Round two"): its detail asks for none.
    assert seen == {"admin": True, "moderator": False, "host": True, "subHost": False, "renter": True}


def test_dispute_pages_carry_the_side_and_the_staff_flag(client, users):
    seen = {}
    for role, actor in ROLE_ACTORS.items():
        if role == "subHost":  # the host's disputes are not the subHost's (docs/security.md)
            continue
        client.force_login(users[actor])
        props = client.get("/disputes").context["page_props"]
        detail = client.get("/dispute-payments?id=x").context["page_props"]
        assert (detail["side"], detail["staff"], detail["id"]) == (props["side"], props["staff"], "x"), role
        seen[role] = (props["side"], props["staff"])
    assert seen == {
        "admin": ("staff", True),
        "moderator": ("staff", True),
        "host": ("host", False),
        "renter": ("renter", False),
    }


def test_listing_form_says_whether_staff_edits(client, users):
    seen = {}
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        props = client.get("/edit-listing/x1").context["page_props"]
        if props["route"] == "edit-listing":
            seen[role] = props["staff"]
    assert seen == {"admin": True, "moderator": True, "host": False, "subHost": False}


def test_settings_page_says_what_each_role_is_offered(client, users):
    seen = {}
    for role, actor in ROLE_ACTORS.items():
        client.force_login(users[actor])
        props = client.get("/general").context["page_props"]
        seen[role] = (props["setsTax"], props["seesPremiumHistory"], props["closesAccount"], props["closingNotes"])
    assert seen == {
        "admin": (False, False, False, []),
        "moderator": (False, False, True, []),
        "host": (True, True, True, ["listings", "subHosts", "earnings"]),
        "subHost": (False, True, True, []),
        "renter": (False, False, True, ["upcomingBookings"]),
    }


def test_the_dashboard_names_the_money_card_by_side_and_shows_a_new_host_the_way_to_a_first_listing(client, users):
    from apps.listings.factories import ListingFactory

    def props(actor):
        client.force_login(users[actor])
        return client.get("/dashboard").context["page_props"]

    assert props("host")["moneyLabel"] == "Total earnings" and props("host")["firstListing"] is True
    assert props("sub_host")["firstListing"] is True
    assert props("renter")["moneyLabel"] == "Total rent paid" and props("renter")["firstListing"] is False
    assert props("admin")["firstListing"] is False
    ListingFactory(host=users["host"])
    assert props("host")["firstListing"] is False and props("sub_host")["firstListing"] is False
