"""The public storefront as a visitor sees it in Chromium: the search page's layout at desktop and phone
widths, the listing page's description, reviews and prices, double-blind reviews kept hidden until both
sides wrote, and the ways to book or ask the host from a phone."""

import io
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from apps.accounts.models import User
from apps.accounts.seed import seed as seed_accounts
from apps.bookings import services
from apps.bookings.factories import booking_make, weekday
from apps.bookings.models import Booking, BookingStatus
from apps.bookings.reviews import services as reviews
from apps.core.tests.browser.fixtures import axe_violations
from apps.dashboard.tests.browser.test_shell import DEMO, sign_in
from apps.listings.factories import AmenityFactory, FacilityFactory, ListingFactory
from apps.messaging.models import Conversation

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people(settings, live_server):
    settings.MAP_TILE_URL = f"{live_server.url}/tiles/{{z}}/{{x}}/{{y}}.png"
    seed_accounts(io.StringIO())
    return {role: User.objects.get(email=email) for role, email in DEMO.items()}


@pytest.fixture
def shelf(people):
    """Eight spaces in New York with the long lists a real catalogue has (14 amenities, 8 facilities)."""
    amenities = [AmenityFactory(name=f"Amenity {index:02d}") for index in range(14)]
    facilities = [FacilityFactory(name=f"Facility {index:02d}") for index in range(8)]
    listings = []
    for index in range(8):
        listings.append(
            ListingFactory(
                host=people["host"],
                title=f"Loft {index}",
                latitude=Decimal("40.70") + Decimal(index) / 100,
                longitude=Decimal("-74.00"),
                amenities=amenities[:4],
                facilities=facilities[:2],
                office=index % 2 == 0,
            )
        )
    return listings


LAYOUT = """() => {
  const box = (el) => el.getBoundingClientRect();
  const content = box(document.querySelector('.search-layout'));
  const results = box(document.querySelector('.results'));
  const map = box(document.querySelector('.search-map'));
  const filters = box(document.querySelector('#search-filters'));
  const cards = [...document.querySelectorAll('article.card')].map(box);
  const firstRow = cards.filter((card) => Math.abs(card.top - cards[0].top) < 2).length;
  return {content: content.width, results: results.width, resultsLeft: results.left, resultsTop: results.top,
          mapLeft: map.left, mapTop: map.top, filtersHeight: filters.height, firstRow,
          firstCardTop: cards[0].top};
}"""


@pytest.mark.parametrize(("width", "per_row"), [(1280, 2), (1440, 3)])
def test_search_results_are_the_main_column_beside_the_map_under_a_compact_filter_bar(page, shelf, width, per_row):
    page.set_viewport_size({"width": width, "height": 900})
    for path in ("/property-listing", "/coworking-spaces/new-york"):
        page.goto(path)
        expect(page.locator("article.card").first).to_be_visible()
        expect(page.get_by_test_id("search-map")).to_be_visible()
        layout = page.evaluate(LAYOUT)
        assert layout["results"] >= layout["content"] / 2, (path, layout)
        assert layout["firstRow"] >= per_row, (path, layout)
        assert layout["mapLeft"] > layout["resultsLeft"] + layout["results"] - 1, (path, layout)  # beside
        assert layout["filtersHeight"] < 160, (path, layout)
        assert layout["firstCardTop"] < 900, (path, layout)  # a space is on the first screen
        # The long lists wait behind "More filters".
        amenity = page.get_by_label("Amenity 07")
        expect(amenity).to_be_hidden()
        page.locator("summary", has_text="More filters").click()
        expect(amenity).to_be_visible()
        amenity.check()
        page.get_by_role("button", name="Apply filters").click()
        expect(page.locator("summary", has_text="More filters (1)")).to_be_visible()
        expect(page.get_by_role("link", name="Clear filters")).to_be_visible()
    assert axe_violations(page, include=["main"]) == []


def test_search_on_a_phone_keeps_results_first_with_filters_and_map_buttons(page, shelf):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/property-listing")
    expect(page.locator("article.card").first).to_be_in_viewport()
    expect(page.get_by_role("button", name="Filters", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Show map")).to_be_visible()
    expect(page.get_by_label("Amenity 07")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("button", name="Filters", exact=True).click()
    page.locator("summary", has_text="More filters").click()
    expect(page.get_by_label("Amenity 07")).to_be_visible()


def completed(renter, listing, host, day):
    booking = booking_make(renter=renter, listing=listing, day=day)
    services.booking_update_status(booking_id=booking.pk, actor=host, status="approved")
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.COMPLETED)
    return booking


def test_listing_page_reads_right_one_reviews_section_its_figures_from_the_reviews(page, people):
    listing = ListingFactory(
        host=people["host"],
        title="SoHo Loft",
        description="A bright workplace in SoHo.\n\nFast Wi-Fi & quiet booths.",
        hourly=Decimal("28.00"),
        daily=Decimal("67.00"),
    )
    for index, (text, rating) in enumerate([("Lovely light.", 5), ("Good chairs.", 4)]):
        booking = completed(people["renter"], listing, people["host"], weekday(5 + index))
        reviews.review_add(
            user=people["renter"], listing_id=listing.pk, booking_id=booking.pk, review=text, rating=rating
        )
        reviews.review_add(user=people["host"], listing_id=listing.pk, booking_id=booking.pk, rating=5)

    page.goto("/property-listing")
    card = page.locator("article.card", has_text="SoHo Loft")
    expect(card).to_contain_text("From $28.00 / Hour")
    expect(card).to_contain_text("4.5")
    card.get_by_role("link").click()
    expect(page.get_by_role("heading", name="SoHo Loft", level=1)).to_be_visible()
    about = page.locator(".description")
    expect(about).to_contain_text("A bright workplace in SoHo.")
    expect(about).not_to_contain_text("<p>")
    expect(about.locator("p")).to_have_count(2)
    expect(page.locator(".booking-box .from-price")).to_have_text("From $28.00 / Hour")
    expect(page.get_by_role("heading", name="Reviews", exact=False)).to_have_count(1)
    expect(page.get_by_role("heading", name="Reviews (2)")).to_be_visible()
    expect(page.get_by_test_id("review")).to_have_count(2)
    expect(page.locator(".listing-meta")).to_contain_text("4.5 out of 5 · 2 reviews")
    expect(page.locator("#reviews")).to_contain_text("4.5 out of 5 from 2 ratings")
    assert "</" not in page.locator("main").inner_text()
    assert axe_violations(page, include=["main"]) == []


def test_a_review_stays_hidden_from_visitors_until_the_host_has_reviewed_too(page, people):
    listing = ListingFactory(host=people["host"], title="Quiet Hall")
    booking = completed(people["renter"], listing, people["host"], weekday(5))
    reviews.review_add(
        user=people["renter"], listing_id=listing.pk, booking_id=booking.pk, review="Calm and bright.", rating=4
    )
    page.goto(f"/listing-details/{listing.slug}")
    expect(page.get_by_text("No reviews yet.")).to_be_visible()
    expect(page.get_by_text("Calm and bright.")).to_have_count(0)
    expect(page.locator(".listing-meta")).to_contain_text("New")
    answer = page.request.get(f"/api/reviews/listing/{listing.pk}").json()["data"]
    assert answer["reviews"] == [] and answer["ratingCount"] == 0

    reviews.review_add(user=people["host"], listing_id=listing.pk, booking_id=booking.pk, review="Tidy.", rating=5)
    page.reload()
    review = page.get_by_test_id("review")
    expect(review).to_have_count(1)
    expect(review).to_contain_text("Calm and bright.")
    expect(page.get_by_role("heading", name="Reviews (1)")).to_be_visible()
    expect(page.locator(".listing-meta")).to_contain_text("4.0 out of 5 · 1 review")


def test_on_a_phone_the_request_bar_brings_the_booking_widget_and_a_renter_can_message_the_host(page, people):
    listing = ListingFactory(host=people["host"], title="Corner Venue", hourly=Decimal("40.00"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/listing-details/{listing.slug}")
    bar = page.get_by_test_id("book-bar")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("From $40.00 / Hour")
    expect(page.locator(".listing-meta").get_by_text("New", exact=True)).to_be_visible()
    widget = page.get_by_role("heading", name="Book this space")
    expect(widget).not_to_be_in_viewport()
    bar.get_by_role("link", name="Request").click()
    expect(widget).to_be_in_viewport()
    # The bar steps aside while the widget is on the screen: it never covers the widget's own button.
    expect(bar).not_to_be_in_viewport()
    start = page.get_by_label("Start time")
    expect(start).to_be_visible()
    # The select is wide enough for its placeholder ("Choose a dat" was cut).
    assert start.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    sign_in(page, DEMO["renter"])
    page.goto(f"/listing-details/{listing.slug}")
    page.get_by_role("link", name="Message host").click()
    page.wait_for_url("**/message?*conversationId=*")
    # A conversation about the listing, without any booking.
    conversation = Conversation.objects.get(renter=people["renter"], host=people["host"])
    assert conversation.listing_id == listing.pk and conversation.booking_id is None
