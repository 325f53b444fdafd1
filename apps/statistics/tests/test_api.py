"""Dashboard statistics: who may ask, and each number against the hand-computed data set of conftest."""

import datetime as dt

import pytest
import time_machine

from apps.core.schema_check import check
from apps.core.testing import ACTORS, check_role_matrix
from apps.listings.factories import ListingFactory
from apps.statistics import intervals

from .data import make_booking

pytestmark = pytest.mark.django_db

SIGNED_IN = [actor for actor in ACTORS if actor != "anonymous"]
NOT_RENTER = ["host", "other_host", "sub_host", "moderator", "admin"]
STAFF = ["moderator", "admin"]
MONEY = ["renter", "other_renter", "host", "other_host", "sub_host", "admin"]
REVENUE = ["host", "other_host", "sub_host", "admin"]

BASE = "/api/dashboard/"
ENDPOINTS = [
    ("get-dashboard-numbers/week", SIGNED_IN),
    ("get-dashboard-numbers/month", SIGNED_IN),
    ("get-dashboard-numbers/year", SIGNED_IN),
    ("property-statistics/week", SIGNED_IN),
    ("availability-statistics/month", NOT_RENTER),
    ("total-users", STAFF),
    ("revenue-statistics?propertyType=eventSpace", REVENUE),
    ("listing-statistics/year", NOT_RENTER),
    ("popular-hosts", STAFF),
    ("recent-requests", NOT_RENTER),
    ("recent-bookings", SIGNED_IN),
    ("payment-invoices", MONEY),
    ("payout-requests/all", ["admin"]),
    ("popular-spaces", NOT_RENTER),
    ("new-reservations", NOT_RENTER),
    ("recent-listings", NOT_RENTER),
    ("cancelled-bookings", SIGNED_IN),
    ("high-demand-locations", NOT_RENTER),
    ("high-demand-amenities/all", NOT_RENTER),
    ("geo-chart", NOT_RENTER),
]


@pytest.mark.parametrize(("path", "allowed"), ENDPOINTS)
def test_role_matrix(clients, world, path, allowed):
    statuses = check_role_matrix(clients, "get", BASE + path, allowed=allowed)
    assert all(statuses[actor] == 200 for actor in allowed)


def get(clients, actor, path):
    response = clients[actor].get(BASE + path)
    assert response.status_code == 200, response.content
    return response.json()["data"]


# --- Stat cards ----------------------------------------------------------------------------------


def test_numbers_per_role_this_week(clients, world):
    assert get(clients, "renter", "get-dashboard-numbers/week") == {
        "totalBooking": 2,
        "totalRentPaid": "160.00",
        "totalSpaceOccupied": 2,
        "cancelledRequestsCount": 0,
    }
    assert get(clients, "other_renter", "get-dashboard-numbers/week") == {
        "totalBooking": 2,
        "totalRentPaid": "0.00",
        "totalSpaceOccupied": 0,
        "cancelledRequestsCount": 1,
    }
    host = {"totalBooking": 3, "totalRentPaid": "160.00", "totalSpaceOccupied": 2, "cancelledRequestsCount": 1}
    assert get(clients, "host", "get-dashboard-numbers/week") == host
    assert get(clients, "sub_host", "get-dashboard-numbers/week") == host, "a subHost sees its host's numbers"
    assert get(clients, "other_host", "get-dashboard-numbers/week") == {
        "totalBooking": 1,
        "totalRentPaid": "0.00",
        "totalSpaceOccupied": 0,
        "cancelledRequestsCount": 0,
    }
    platform = {
        "totalBooking": 4,
        "totalSpaceOccupied": 2,
        "cancelledRequestsCount": 1,
        "eventSpaceCount": 2,
        "workSpaceCount": 1,
        "totalUsers": 7,
    }
    assert get(clients, "admin", "get-dashboard-numbers/week") == {
        **platform,
        "totalRentPaid": "160.00",
        "totalRevenue": "160.00",
    }
    assert get(clients, "moderator", "get-dashboard-numbers/week") == platform, "no money for a moderator"


@pytest.fixture
def mid_june():
    """A Wednesday in mid-June, so this week began this year whatever the day the tests run."""
    with time_machine.travel(dt.datetime(2026, 6, 17, 15, tzinfo=dt.UTC), tick=False):
        yield


def test_numbers_year_leave_out_last_year(mid_june, clients, world):
    assert world["week_start"].year == intervals.today().year == 2026
    data = get(clients, "renter", "get-dashboard-numbers/year")
    assert data["totalBooking"] == 2, "b5 was made last year"
    assert data["totalRentPaid"] == "160.00"


def test_numbers_count_only_the_period(clients, world):
    bookings = world["bookings"]
    for booking in (bookings["b1"], bookings["b2"]):
        booking.created_at -= dt.timedelta(days=400)
        booking.check_in -= dt.timedelta(days=400)
        booking.check_out -= dt.timedelta(days=400)
        booking.save()
    data = get(clients, "renter", "get-dashboard-numbers/week")
    assert data["totalBooking"] == 0
    assert data["totalSpaceOccupied"] == 0
    assert data["totalRentPaid"] == "160.00", "money counts when it was taken"


@pytest.mark.parametrize("interval", ["decade", "Week", "1", "%27%3B%20drop%20table", "w%C3%ABek", "x" * 300])
def test_bad_interval_is_a_clear_400(clients, world, interval):
    for path in ("get-dashboard-numbers", "property-statistics", "availability-statistics", "listing-statistics"):
        response = clients["admin"].get(f"{BASE}{path}/{interval}")
        assert response.status_code == 400
        assert response.json()["message"] == "Interval must be week, month or year."


# --- Series --------------------------------------------------------------------------------------


def counts(entries):
    return [{item["propertyType"]: item["count"] for item in entry["data"]} for entry in entries]


def test_property_statistics_week(clients, world):
    data = get(clients, "admin", "property-statistics/week")
    assert [entry["label"] for entry in data] == ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    zero = {"eventSpace": 0, "officeSpace": 0}
    assert counts(data) == [
        {"eventSpace": 1, "officeSpace": 0},
        {"eventSpace": 1, "officeSpace": 1},
        {"eventSpace": 1, "officeSpace": 0},
        zero,
        zero,
        zero,
        zero,
    ]
    assert data[0]["startDate"] == world["week_start"].date().isoformat()
    assert counts(get(clients, "host", "property-statistics/week"))[:3] == [
        {"eventSpace": 1, "officeSpace": 0},
        {"eventSpace": 1, "officeSpace": 1},
        zero,
    ]
    assert counts(get(clients, "renter", "property-statistics/week"))[:3] == [
        {"eventSpace": 1, "officeSpace": 0},
        {"eventSpace": 0, "officeSpace": 1},
        zero,
    ]


def test_property_statistics_month_and_year(clients, world):
    this_year = intervals.today().year
    months = get(clients, "admin", "property-statistics/month")
    assert [entry["label"] for entry in months][:3] == ["Jan", "Feb", "Mar"] and len(months) == 12
    assert {entry["year"] for entry in months} == {this_year}
    expected = [{"eventSpace": 0, "officeSpace": 0} for _ in range(12)]
    for key, kind in (("b1", "eventSpace"), ("b2", "officeSpace"), ("b3", "eventSpace"), ("b4", "eventSpace")):
        local = world["bookings"][key].created_at.astimezone(intervals.LOCAL_TZ)
        if local.year == this_year:
            expected[local.month - 1][kind] += 1
    assert counts(months) == expected

    years = get(clients, "admin", "property-statistics/year")
    assert [entry["year"] for entry in years] == list(range(this_year - 9, this_year + 1))
    assert counts(years)[-2] == {"eventSpace": 1, "officeSpace": 0}, "b5, last year"
    if world["week_start"].year == this_year:
        assert counts(years)[-1] == {"eventSpace": 3, "officeSpace": 1}


def test_availability_statistics(clients, world):
    data = get(clients, "host", "availability-statistics/week")
    assert data[0] == {
        "label": "Sun",
        "year": data[0]["year"],
        "startDate": world["week_start"].date().isoformat(),
        "totalSpaces": 2,
        "occupied": 1,
        "available": 1,
        "occupiedPercentage": "50.00",
        "availablePercentage": "50.00",
    }
    assert data[1]["occupied"] == 1 and data[2]["occupied"] == 0
    admin = get(clients, "admin", "availability-statistics/week")
    assert (admin[0]["totalSpaces"], admin[0]["occupied"], admin[0]["occupiedPercentage"]) == (3, 1, "33.33")
    assert admin[0]["availablePercentage"] == "66.67"
    other = get(clients, "other_host", "availability-statistics/week")
    assert [entry["occupied"] for entry in other] == [0] * 7, "b4 is only pending"


def test_listing_statistics(clients, world):
    today = intervals.today()
    index = (today.weekday() + 1) % 7
    data = counts(get(clients, "admin", "listing-statistics/week"))
    assert data[index] == {"eventSpace": 2, "officeSpace": 1}
    assert sum(sum(entry.values()) for entry in data) == 3
    assert counts(get(clients, "host", "listing-statistics/week"))[index] == {"eventSpace": 1, "officeSpace": 1}
    assert counts(get(clients, "other_host", "listing-statistics/year"))[-1] == {"eventSpace": 1, "officeSpace": 0}


def test_revenue_statistics(clients, world):
    week = get(clients, "admin", "revenue-statistics?interval=week")
    assert [(entry["revenue"], entry["commission"]) for entry in week[:3]] == [
        ("120.00", "10.00"),
        ("40.00", "5.00"),
        ("0.00", "0.00"),
    ]
    offices = get(clients, "admin", "revenue-statistics?interval=week&propertyType=officeSpace")
    assert [entry["revenue"] for entry in offices[:2]] == ["0.00", "40.00"]
    years = get(clients, "other_host", "revenue-statistics?interval=year")
    assert (years[-2]["revenue"], years[-2]["commission"]) == ("200.00", "20.00")
    assert get(clients, "sub_host", "revenue-statistics?interval=week") == get(
        clients, "host", "revenue-statistics?interval=week"
    )
    months = get(clients, "admin", "revenue-statistics")
    assert len(months) == 12, "month (January to December) by default"


@pytest.mark.parametrize("query", ["propertyType=castle", "interval=day", "propertyType=%00", "interval=" + "y" * 500])
def test_revenue_statistics_bad_query(clients, world, query):
    response = clients["admin"].get(f"{BASE}revenue-statistics?{query}")
    assert response.status_code == 400
    assert response.json()["message"] in (
        "propertyType must be all, eventSpace or officeSpace.",
        "Interval must be week, month or year.",
        "propertyType must not contain a NUL character.",
    )


# --- Users and tops ------------------------------------------------------------------------------


def test_total_users(clients, world):
    data = get(clients, "moderator", "total-users")
    assert data["totalUsers"] == 7
    assert {row["role"]: (row["count"], row["percentage"]) for row in data["roles"]} == {
        "host": (2, "28.57"),
        "subHost": (1, "14.29"),
        "renter": (2, "28.57"),
        "moderator": (1, "14.29"),
        "admin": (1, "14.29"),
    }


def test_popular_hosts(clients, users, world):
    data = get(clients, "admin", "popular-hosts")
    assert [(row["host"]["_id"], row["totalBookings"], row["percentage"]) for row in data] == [
        (str(users["host"].pk), 2, "66.67"),
        (str(users["other_host"].pk), 1, "33.33"),
    ]


def test_popular_spaces(clients, world):
    listings = world["listings"]
    admin = get(clients, "admin", "popular-spaces")
    assert {row["listing"]["_id"]: row["totalBookings"] for row in admin} == {
        str(listings["e1"].pk): 1,
        str(listings["o1"].pk): 1,
        str(listings["e2"].pk): 1,
    }
    host = get(clients, "sub_host", "popular-spaces")
    assert {row["listing"]["_id"] for row in host} == {str(listings["e1"].pk), str(listings["o1"].pk)}


def test_high_demand_locations(clients, world):
    data = get(clients, "admin", "high-demand-locations")["highDemandLocations"]
    assert [(row["city"], row["country"], row["count"], row["percentage"], row["colour"]) for row in data] == [
        ("Mumbai", "India", 1, "33.33", "Black"),
        ("New York", "United States", 1, "33.33", "Yellow"),
        ("Toronto", "Canada", 1, "33.33", "Blue"),
    ]
    host = get(clients, "host", "high-demand-locations")["highDemandLocations"]
    assert [(row["city"], row["percentage"]) for row in host] == [("New York", "50.00"), ("Toronto", "50.00")]


def test_high_demand_locations_colour_only_the_top_four(clients, users, world):
    for city in ("Austin", "Boston"):
        listing = ListingFactory(host=users["host"], city=city, country="United States")
        make_booking(listing=listing, renter=users["renter"], created=world["week_start"], status="completed")
    data = get(clients, "admin", "high-demand-locations")["highDemandLocations"]
    assert [row["colour"] for row in data] == ["Black", "Yellow", "Blue", "Green", None]


def test_high_demand_amenities(clients, world):
    def rows(actor, kind):
        data = get(clients, actor, f"high-demand-amenities/{kind}")["highDemandAmenities"]
        return [(row["name"], row["count"], row["percentage"]) for row in data]

    assert rows("admin", "all") == [("Wi-Fi", 2, "66.67"), ("Parking", 1, "33.33"), ("Projector", 1, "33.33")]
    assert rows("moderator", "eventSpace") == [
        ("Parking", 1, "50.00"),
        ("Projector", 1, "50.00"),
        ("Wi-Fi", 1, "50.00"),
    ]
    assert rows("admin", "officeSpace") == [("Wi-Fi", 1, "100.00")]
    assert rows("host", "all") == [("Wi-Fi", 2, "100.00"), ("Parking", 1, "50.00")]
    assert rows("other_host", "all") == [("Projector", 1, "100.00")]


def test_high_demand_amenities_bad_type(clients, world):
    response = clients["admin"].get(f"{BASE}high-demand-amenities/castles")
    assert response.status_code == 400
    assert response.json()["message"] == "Property type must be all, eventSpace or officeSpace."


def test_geo_chart(clients, world):
    data = get(clients, "admin", "geo-chart")
    assert data["geoChart"] == {"Canada": 1, "India": 1, "United States": 1}
    assert data["total"] == 3
    assert [(bar["country"], bar["percentage"]) for bar in data["progressBars"]] == [
        ("Canada", "33.33"),
        ("India", "33.33"),
        ("United States", "33.33"),
    ]
    host = get(clients, "host", "geo-chart")
    assert host["geoChart"] == {"Canada": 1, "United States": 1}
    assert get(clients, "other_host", "geo-chart")["progressBars"] == [
        {"country": "India", "count": 1, "percentage": "100.00"}
    ]


# --- Lists ---------------------------------------------------------------------------------------


def ids(data, key):
    return [row["_id"] for row in data[key]]


def test_recent_bookings(clients, world):
    b = {key: str(booking.pk) for key, booking in world["bookings"].items()}
    renter = get(clients, "renter", "recent-bookings")
    assert ids(renter, "bookings") == [b["b2"], b["b1"], b["b5"]]
    assert renter["hasMore"] is False and len(renter["bookings"]) == 3
    row = renter["bookings"][0]
    assert row["listing"]["propertyType"] == "officeSpace" and row["status"] == "approved"
    assert row["checkInDate"] == world["bookings"]["b2"].check_in_date.strftime("%d-%m-%Y")
    host = ids(get(clients, "sub_host", "recent-bookings"), "bookings")
    assert set(host[:2]) == {b["b2"], b["b3"]} and host[2:] == [b["b1"]], "b2 and b3 were made at the same time"
    admin = get(clients, "admin", "recent-bookings")
    assert len(admin["bookings"]) == 5 and ids(admin, "bookings")[0] == b["b4"]


def test_recent_bookings_pages(clients, world):
    data = get(clients, "admin", "recent-bookings?page=2&limit=2")
    assert (data["page"], data["limit"], data["hasMore"], len(data["bookings"])) == (2, 2, True, 2)
    last = get(clients, "admin", "recent-bookings?page=3&limit=2")
    assert (last["hasMore"], len(last["bookings"])) == (False, 1)
    assert len(get(clients, "admin", "recent-bookings?limit=50")["bookings"]) == 5, "limit is capped at 10"
    for bad in ("page=abc", "page=0", "limit=-1", "page=1e3", "page=" + "9" * 40):
        response = clients["admin"].get(f"{BASE}recent-bookings?{bad}")
        assert response.status_code == 400, bad
        assert "must be a whole number, 1 or more." in response.json()["message"]


def test_recent_requests_reservations_cancelled(clients, world):
    b = {key: str(booking.pk) for key, booking in world["bookings"].items()}
    assert ids(get(clients, "host", "recent-requests"), "requests") == []
    assert ids(get(clients, "other_host", "recent-requests"), "requests") == [b["b4"]]
    assert ids(get(clients, "moderator", "recent-requests"), "requests") == [b["b4"]]
    assert ids(get(clients, "host", "new-reservations"), "reservations") == [b["b2"]]
    assert ids(get(clients, "other_host", "new-reservations"), "reservations") == []
    assert ids(get(clients, "other_renter", "cancelled-bookings"), "bookings") == [b["b3"]]
    assert ids(get(clients, "renter", "cancelled-bookings"), "bookings") == []
    assert ids(get(clients, "sub_host", "cancelled-bookings"), "bookings") == [b["b3"]]


def test_recent_listings(clients, world):
    listings = world["listings"]
    host = get(clients, "host", "recent-listings")
    assert set(ids(host, "listings")) == {str(listings["e1"].pk), str(listings["o1"].pk)}
    assert host["listings"][0]["image"].startswith("uploads/")
    assert len(get(clients, "admin", "recent-listings")["listings"]) == 3
    listings["e2"].is_deleted = True
    listings["e2"].save()
    assert len(get(clients, "moderator", "recent-listings")["listings"]) == 2, "deleted listings are left out"


def test_payment_invoices(clients, world):
    assert get(clients, "renter", "payment-invoices")["totalCount"] == 1
    assert get(clients, "other_renter", "payment-invoices")["totalCount"] == 0
    assert get(clients, "sub_host", "payment-invoices")["invoices"][0]["amount"] == "100.00"
    assert get(clients, "other_host", "payment-invoices")["totalCount"] == 0
    assert get(clients, "admin", "payment-invoices")["totalCount"] == 1


def test_payout_requests(clients, world):
    everything = get(clients, "admin", "payout-requests/all")
    assert (everything["totalCount"], everything["totalAmount"]) == (2, "150.00")
    waiting = get(clients, "admin", "payout-requests/onhold")
    assert (waiting["totalCount"], waiting["totalAmount"], waiting["payouts"][0]["statusLabel"]) == (
        1,
        "100.00",
        "Pending",
    )
    assert get(clients, "admin", "payout-requests/failed")["totalCount"] == 0
    for status in ("all", "failed"):
        check("PayoutRequests", clients["admin"].get(f"{BASE}payout-requests/{status}").json())
    response = clients["admin"].get(f"{BASE}payout-requests/paid")
    assert response.status_code == 400
    assert response.json()["message"] == "Status must be all, onhold, released or failed."


def test_empty_platform_answers_zeros(clients, users):
    data = get(clients, "admin", "get-dashboard-numbers/year")
    assert data["totalBooking"] == 0 and data["totalRevenue"] == "0.00"
    assert get(clients, "admin", "geo-chart") == {"geoChart": {}, "progressBars": [], "total": 0}
    assert get(clients, "admin", "high-demand-locations") == {"highDemandLocations": []}
    assert len(get(clients, "host", "availability-statistics/year")) == 10


def test_pending_counter_still_answers(clients, world):
    assert clients["admin"].get(f"{BASE}pending-counter").status_code == 200


@pytest.mark.parametrize(
    "path", ["recent-bookings", "popular-spaces", "recent-listings", "popular-hosts", "high-demand-amenities/all"]
)
def test_queries_do_not_grow_with_rows(clients, users, world, path, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):  # the platform answer includes storing its snapshot
        get(clients, "admin", path)
