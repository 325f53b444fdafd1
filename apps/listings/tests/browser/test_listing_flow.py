"""A host's space from registration to a renter's favourites, in a real browser.

A new host registers through /become-host and creates an office space in the stepped form (three
photos, two offerings, opening hours), leaving and coming back on the way (the draft is kept); a
moderator approves it from Listing Requests; it appears in search, on the map and on its public
page with its photos; a renter saves it and finds it under Favourites. Then the host edits its
price: the live listing keeps the old price until the moderator approves the edit. Each screen is
checked with axe.
"""

import io
import json
import re
from decimal import Decimal

import pytest
from django.core import mail
from PIL import Image
from playwright.sync_api import expect

from apps.accounts.models import User
from apps.accounts.seed import seed as seed_accounts
from apps.core.tests.browser.fixtures import axe_violations
from apps.dashboard.tests.browser.test_shell import DEMO, sign_in
from apps.listings.factories import AmenityFactory
from apps.listings.models import Favourite, Listing, ListingRequest

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "Secret12!x"


@pytest.fixture
def site(settings, live_server, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    # Tiles from the test server itself (they answer 404; the map still draws its markers).
    settings.MAP_TILE_URL = f"{live_server.url}/tiles/{{z}}/{{x}}/{{y}}.png"
    seed_accounts(io.StringIO())
    AmenityFactory(name="Wi-Fi")
    return live_server


def photo(tmp_path, name: str, colour: tuple[int, int, int]) -> str:
    path = tmp_path / name
    Image.new("RGB", (1200, 800), colour).save(path, format="JPEG")
    return str(path)


def register_host(page, email: str) -> None:
    page.goto("/become-host?auth=register&role=host")
    dialog = page.locator("dialog.auth-modal")
    expect(dialog.get_by_label("Role")).to_have_value("host")
    dialog.get_by_label("Email").fill(email)
    dialog.get_by_role("textbox", name="Password", exact=True).fill(PASSWORD)
    dialog.get_by_label("Confirm Password").fill(PASSWORD)
    dialog.get_by_label("I agree to the").check()
    dialog.get_by_role("button", name="Register").click()
    expect(dialog.get_by_role("heading", name="Enter OTP")).to_be_visible()
    message = [m for m in mail.outbox if email in m.to][-1]
    code = re.search(r"\b(\d{5})\b", message.subject + message.body).group(1)
    page.get_by_label("Digit 1 of 5").click()
    page.keyboard.type(code)
    dialog.get_by_role("button", name="Submit").click()
    # The code signs the new host in: no second login.
    page.wait_for_url("**/dashboard")


def draft_saved(response, step: int, **fields: str) -> bool:
    """The form's draft as the server took it, at this step and with these values."""
    if not response.url.endswith("/api/listing/draft") or response.request.method != "PUT" or not response.ok:
        return False
    body = json.loads(response.request.post_data or "{}")
    return body.get("step") == step and all(str(body["data"].get(k)) == v for k, v in fields.items())


def next_step(page, title: str) -> None:
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("heading", name=re.compile(rf"Step \d of 9: {re.escape(title)}"))).to_be_visible()


def sign_in_as(page, email: str, password: str | None = None) -> None:
    page.context.clear_cookies()
    if password is None:
        sign_in(page, email)
        return
    page.goto("/")
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(
        "/api/user/login", data={"email": email, "password": password}, headers={"X-CSRFToken": csrf}
    )
    assert response.ok, response.text()


def test_a_new_host_lists_an_office_space_that_a_renter_saves(page, site, tmp_path):
    register_host(page, "new.host@example.com")
    host = User.objects.get(email="new.host@example.com")
    assert host.role == "host"

    # The stepped form, with the spec's rules checked before each step.
    page.goto("/add-new-listing")
    expect(page.get_by_role("heading", name="Add New Listing")).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Property type is required")).to_be_visible()
    page.get_by_label(re.compile("^Work space")).check()
    next_step(page, "Basics")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Title is required")).to_be_visible()
    page.get_by_label("Title").fill("Harbour Coworking Loft")
    page.get_by_role("textbox", name="Description").fill("Bright desks by the water, with a meeting room.")
    with page.expect_response(lambda r: draft_saved(r, step=2, numberOfSeats="24")):
        page.get_by_label("Seats in total").fill("24")

    # The draft saved at step 2 opens again at step 2, its description in the rich-text editor.
    page.reload()
    expect(page.get_by_text("We restored the draft you left.")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Step 2 of 9: Basics"))).to_be_visible()
    expect(page.get_by_role("textbox", name="Description")).to_have_text(
        "Bright desks by the water, with a meeting room."
    )
    expect(page.get_by_role("toolbar", name="Description formatting")).to_be_visible()
    expect(page.get_by_text("Oops! something went wrong")).to_have_count(0)
    next_step(page, "Location")
    page.get_by_label("Street address").fill("12 Front Street")
    page.get_by_label("City").fill("Toronto")
    page.get_by_label("Country").select_option("Canada")
    page.get_by_label("Latitude").fill("43.6426")
    page.get_by_label("Longitude").fill("-79.3871")
    expect(page.locator(".picker-map .leaflet-interactive")).to_have_count(1)  # the pin follows the fields
    assert axe_violations(page, include=[".listing-form"]) == []
    with page.expect_response(lambda r: draft_saved(r, step=4)):
        next_step(page, "Offerings and prices")

    # Leaving and coming back keeps what was typed (the draft on the server).
    page.reload()
    expect(page.get_by_text("We restored the draft you left.")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Step 4 of 9: Offerings and prices"))).to_be_visible()

    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Work spaces need at least one space offering with a price")).to_be_visible()
    page.get_by_label("Hot Desk").check()
    page.get_by_label("Meeting Space").check()
    hot_desk = page.locator("fieldset.offering").filter(has_text="Hot Desk")
    hot_desk.get_by_label("Price per day").fill("25")
    hot_desk.get_by_label("Seats").fill("20")
    meeting = page.locator("fieldset.offering").filter(has_text="Meeting Space")
    meeting.get_by_label("Price per hour").fill("30")
    meeting.get_by_label("Minimum booking (hours)").fill("2")
    next_step(page, "Services, amenities and facilities")
    page.get_by_label("Wi-Fi").check()
    next_step(page, "Photos")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Add at least one image to submit the listing for review")).to_be_visible()
    # A file of the wrong type is refused before upload.
    not_an_image = tmp_path / "notes.txt"
    not_an_image.write_text("not an image")
    page.get_by_label("Add photos").set_input_files(str(not_an_image))
    expect(page.get_by_text("notes.txt: only JPEG, PNG, WebP or GIF images are accepted.")).to_be_visible()
    page.get_by_label("Add photos").set_input_files(
        [
            photo(tmp_path, f"p{n}.jpg", colour)
            for n, colour in enumerate([(200, 80, 40), (40, 120, 200), (60, 160, 90)])
        ]
    )
    expect(page.locator(".photo-item")).to_have_count(3)
    page.get_by_label("Alt text for photo 1").fill("Open-plan desks by the window")
    next_step(page, "Opening hours and availability")
    expect(page.get_by_label("Closed on sunday")).to_be_checked()
    page.get_by_label("Opens on saturday").select_option("10:00")
    page.get_by_label("Closes on saturday").select_option("14:00")
    next_step(page, "Policies")
    expect(page.get_by_text("Set by the platform (read-only)")).to_be_visible()
    next_step(page, "Review and submit")
    expect(page.locator(".review-list")).to_contain_text("Hot Desk: $25.00 / day")
    assert axe_violations(page, include=["main"]) == []
    with page.expect_response(lambda r: r.url.endswith("/api/listing/create")) as answer:
        page.get_by_role("button", name="Submit for review").click()
    assert answer.value.status == 201, answer.value.text()
    page.wait_for_url("**/listing-detail/**")
    listing = Listing.objects.get(title="Harbour Coworking Loft")
    assert listing.status == "pending" and listing.host == host
    assert listing.images.count() == 3 and listing.space_offerings.count() == 2
    assert listing.opening_hours["sunday"] is None and listing.opening_hours["saturday"] == {
        "open": "10:00",
        "close": "14:00",
    }
    expect(page.get_by_role("heading", name="Harbour Coworking Loft")).to_be_visible()
    expect(page.locator("h1 + .badge-stack")).to_contain_text("Pending")

    # A moderator approves it from Listing Requests.
    sign_in_as(page, DEMO["moderator"])
    page.goto("/listing-requests")
    row = page.locator("tbody tr").filter(has_text="Harbour Coworking Loft")
    expect(row).to_be_visible()
    assert axe_violations(page) == []
    row.get_by_role("button", name="Approve Harbour Coworking Loft").click()
    dialog = page.get_by_role("dialog", name="Approve request")
    with page.expect_response(lambda r: "/api/listing/update-request-status/" in r.url) as answer:
        dialog.get_by_role("button", name="Approve").click()
    assert answer.value.status == 200, answer.value.text()
    listing.refresh_from_db()
    assert listing.status == "approved"

    # A visitor finds it from the navbar search.
    page.goto("/")
    page.get_by_role("button", name="Search spaces").click()
    page.get_by_role("searchbox", name="Search spaces by title").fill("harbour cowork")
    page.locator(".nav-search-island__results").get_by_role("link", name="Harbour Coworking Loft").click()
    page.wait_for_url(f"**/listing-details/{listing.slug}")

    # It is found in search, on the map and on its public page with its photos.
    page.goto("/property-listing?city=Toronto")
    card = page.locator("article.card").filter(has_text="Harbour Coworking Loft")
    expect(card).to_be_visible()
    expect(page.locator("[data-testid=search-map] .leaflet-interactive")).to_have_count(1)
    page.goto(f"/listing-details/{listing.slug}")
    expect(page.locator(".gallery img")).to_have_count(3)
    expect(page.locator(".gallery img").first).to_have_attribute("alt", "Open-plan desks by the window")
    assert "960w" in page.locator(".gallery img").first.get_attribute("srcset")
    page.get_by_test_id("listing-map").scroll_into_view_if_needed()  # the map loads as it comes near the screen
    expect(page.locator("[data-testid=listing-map] .leaflet-interactive")).to_have_count(1)

    # A renter saves it and finds it under Favourites.
    sign_in_as(page, DEMO["renter"])
    page.goto(f"/listing-details/{listing.slug}")
    page.get_by_role("button", name="Save Harbour Coworking Loft to your favourites").click()
    expect(page.get_by_role("button", name="Remove Harbour Coworking Loft from your favourites")).to_be_visible()
    assert Favourite.objects.filter(user__email=DEMO["renter"], listing=listing).exists()
    page.goto("/favourites")
    expect(page.locator(".favourite-card")).to_contain_text("Harbour Coworking Loft")
    assert axe_violations(page) == []
    # The search results' card shows it saved (the card heart's props come from the page).
    page.goto("/property-listing?city=Toronto")
    card = page.locator("article.card").filter(has_text="Harbour Coworking Loft")
    expect(card.get_by_role("button", name="Remove Harbour Coworking Loft from your favourites")).to_be_visible()

    # The host edits its price: the live listing keeps the old price until the moderator approves.
    sign_in_as(page, "new.host@example.com", PASSWORD)
    page.goto(f"/edit-listing/{listing.pk}")
    expect(page.get_by_role("heading", name=re.compile("Step 2 of 9: Basics"))).to_be_visible()
    page.get_by_role("button", name="Next").click()
    next_step(page, "Offerings and prices")
    page.locator("fieldset.offering").filter(has_text="Hot Desk").get_by_label("Price per day").fill("35")
    for title in (
        "Services, amenities and facilities",
        "Photos",
        "Opening hours and availability",
        "Policies",
        "Review and submit",
    ):
        next_step(page, title)
    with page.expect_response(lambda r: "/api/listing/update/" in r.url) as answer:
        page.get_by_role("button", name="Save changes").click()
    assert answer.value.status == 200, answer.value.text()
    page.wait_for_url("**/listing-detail/**")
    expect(page.get_by_role("heading", name="Changes waiting for review")).to_be_visible()
    expect(page.locator("table.changes")).to_contain_text("Hot Desk: $35.00 / day")
    hot = listing.space_offerings.get(kind="hotDesk")
    assert hot.daily == Decimal("25.00")
    page.goto(f"/listing-details/{listing.slug}")
    expect(page.locator("main")).to_contain_text("$25.00")

    sign_in_as(page, DEMO["moderator"])
    edit = ListingRequest.objects.get(listing=listing, kind="edit", status="pending")
    page.goto(f"/listing-detail/{listing.pk}?request={edit.pk}")
    expect(page.locator("table.changes")).to_contain_text("$25.00")
    page.get_by_role("button", name="Approve").click()
    with page.expect_response(lambda r: "/api/listing/update-request-status/" in r.url):
        page.get_by_role("dialog", name="Approve request").get_by_role("button", name="Approve").click()
    # approving applies the edit (the offerings are written anew)
    assert listing.space_offerings.get(kind="hotDesk").daily == Decimal("35.00")


def test_a_blocked_date_and_the_buffer_keep_the_widget_from_offering_those_times(page, site):
    import datetime as dt

    from apps.bookings.factories import PricedEventListingFactory, booking_make

    host = User.objects.get(email=DEMO["host"])
    day = dt.date.today() + dt.timedelta(days=9)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    blocked = day + dt.timedelta(days=1)
    while blocked.weekday() >= 5:
        blocked += dt.timedelta(days=1)
    listing = PricedEventListingFactory(host=host, title="River Hall", blocked_dates=[blocked], buffer_minutes=60)
    booking_make(
        renter=User.objects.get(email="renter2@example.com"),
        listing=listing,
        day=day,
        start=dt.time(10),
        end=dt.time(12),
    )
    sign_in(page, DEMO["renter"])
    page.goto(f"/listing-details/{listing.slug}")
    widget = page.locator(".booking-widget")
    widget.get_by_label("Guests").fill("5")
    widget.get_by_label("Check-in date").fill(blocked.isoformat())
    widget.get_by_label("Start time").select_option("10:00 AM")
    widget.get_by_label("End time").select_option("02:00 PM")
    expect(widget).to_contain_text(f"Not available on {blocked.strftime('%d-%m-%Y')}")
    widget.get_by_role("button", name="Request").click()
    assert "/listing-details/" in page.url  # the widget does not go on
    # Right after another booking, inside the host's buffer time: refused too.
    widget.get_by_label("Check-in date").fill(day.isoformat())
    widget.get_by_label("Check-out date").fill(day.isoformat())
    widget.get_by_label("Start time").select_option("12:30 PM")
    widget.get_by_label("End time").select_option("03:00 PM")
    expect(widget.get_by_text("This time is taken, or too close to another booking.")).to_be_visible()
    widget.get_by_role("button", name="Request").click()
    assert "/listing-details/" in page.url
    # An hour later is free.
    widget.get_by_label("Start time").select_option("01:00 PM")
    expect(widget.get_by_text("This time is taken, or too close to another booking.")).to_have_count(0)
