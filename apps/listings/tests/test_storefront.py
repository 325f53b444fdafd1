"""What a visitor reads about a listing on the cards and on its page: one "from" price, the description
as sanitized HTML (plain text on cards and in meta descriptions), "New" for a space nobody rated."""

import re
from decimal import Decimal

import pytest
from django.test import Client

from apps.listings.factories import ListingFactory
from apps.listings.models import OfferingKind, SpaceOffering
from apps.listings.policies import from_price

pytestmark = pytest.mark.django_db


def test_from_price_is_the_shortest_period_at_its_lowest_price():
    prices = [("daily", Decimal("67")), ("hourly", Decimal("30")), ("hourly", Decimal("28")), ("weekly", None)]
    assert from_price(prices) == {"amount": "28.00", "period": "hourly", "label": "Hour"}
    assert from_price([("monthly", Decimal("852")), ("daily", Decimal("67.5"))]) == {
        "amount": "67.50",
        "period": "daily",
        "label": "Day",
    }
    assert from_price([("weekly", None)]) is None
    assert from_price([]) is None


def card_price(html: str, slug: str) -> str:
    card = html.split(f'href="/listing-details/{slug}"', 1)[1].split("</article>", 1)[0]
    return re.search(r'class="card-price">(.*?)</p>', card, re.S).group(1)


def page_price(html: str) -> str:
    return re.search(r'class="from-price">(.*?)</p>', html, re.S).group(1)


def test_the_card_and_the_page_show_the_same_from_price(users):
    office = ListingFactory(host=users["host"], office=True, title="Desk Loft", offerings=[])
    SpaceOffering.objects.create(listing=office, kind=OfferingKind.DEDICATED_DESK, daily=Decimal("67"))
    SpaceOffering.objects.create(listing=office, kind=OfferingKind.MEETING_SPACE, hourly=Decimal("28"))
    venue = ListingFactory(host=users["host"], title="Hall", hourly=None, daily=Decimal("300"), weekly=Decimal("90"))
    search = Client().get("/property-listing").content.decode()
    for listing, expected in ((office, "$28.00</strong> / Hour"), (venue, "$300.00</strong> / Day")):
        page = Client().get(f"/listing-details/{listing.slug}").content.decode()
        assert expected in card_price(search, listing.slug)
        assert expected in page_price(page)
        assert expected in page.split('data-testid="book-bar"', 1)[1]


def test_a_plain_description_is_paragraphs_and_rich_text_is_sanitized(users):
    plain = ListingFactory(host=users["host"], description="A bright room & a garden.\n\nQuiet street.")
    page = Client().get(f"/listing-details/{plain.slug}").content.decode()
    about = page.split('class="description"', 1)[1].split("</div>", 1)[0]
    assert "<p>A bright room &amp; a garden.</p>" in about and "<p>Quiet street.</p>" in about
    assert "&lt;p&gt;" not in page

    rich = ListingFactory(
        host=users["host"],
        description='<p>A <strong>sunny</strong> loft</p><script>alert(1)</script><img src=x onerror="alert(2)">',
    )
    page = Client().get(f"/listing-details/{rich.slug}").content.decode()
    about = page.split('class="description"', 1)[1].split("</section>", 1)[0]
    assert "<p>A <strong>sunny</strong> loft</p>" in about
    assert "<script>alert(1)" not in page and "onerror" not in page
    meta = re.search(r'<meta name="description" content="([^"]*)"', page).group(1)
    assert meta == "A sunny loft"


def test_a_space_nobody_rated_says_new(users):
    listing = ListingFactory(host=users["host"], title="Fresh Space")
    search = Client().get("/property-listing").content.decode()
    card = search.split(f'href="/listing-details/{listing.slug}"', 1)[1].split("</article>", 1)[0]
    assert "New" in card and "0.0 out of" not in card and "☆" not in card and "(0)" not in card
    page = Client().get(f"/listing-details/{listing.slug}").content.decode()
    assert '<span class="badge badge-new">New</span>' in page and "0.0 out of 5" not in page


def test_message_host_for_renters_and_a_login_prompt_for_visitors(users):
    listing = ListingFactory(host=users["host"])
    visitor = Client().get(f"/listing-details/{listing.slug}").content.decode()
    assert f'href="/listing-details/{listing.slug}?auth=login">Message host' in visitor
    renter = Client()
    renter.force_login(users["renter"])
    page = renter.get(f"/listing-details/{listing.slug}").content.decode()
    assert f'href="/message?listingId={listing.pk}">Message host' in page
    host = Client()
    host.force_login(users["host"])
    assert "Message host" not in host.get(f"/listing-details/{listing.slug}").content.decode()
