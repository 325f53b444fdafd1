"""The one rule "a review is public" (published and revealed) in every reader, and every figure the
listing page shows about reviews computed from the reviews it summarises."""

import datetime as dt
import re

from django.test import Client
from django.utils import timezone

from apps.bookings import services
from apps.bookings.models import Booking, BookingStatus, Review
from apps.bookings.reviews import selectors as review_selectors
from apps.bookings.reviews import services as reviews
from apps.bookings.reviews.services import review_publish_set
from apps.listings.models import Listing

from .conftest import make_booking, weekday


def completed(users, listing, renter_key="renter", day=None):
    booking = make_booking(users[renter_key], listing, day=day or weekday())
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.COMPLETED)
    return Booking.objects.get(pk=booking.pk)


def renter_reviews(users, booking, text, rating, renter_key="renter"):
    return reviews.review_add(
        user=users[renter_key], listing_id=booking.listing_id, booking_id=booking.pk, review=text, rating=rating
    )


def host_reviews(users, booking):
    return reviews.review_add(
        user=users["host"], listing_id=booking.listing_id, booking_id=booking.pk, review="Tidy guest.", rating=5
    )


def reviews_section(html: str) -> str:
    return html.split('id="reviews-title"', 1)[1].split("</section>", 1)[0]


def test_public_is_published_and_revealed(users, event_listing):
    now = timezone.now()
    rows = {}
    for index, (published, revealed) in enumerate([(True, True), (True, False), (False, True), (False, False)]):
        booking = make_booking(users["renter"], event_listing, day=weekday(5 + index))
        rows[(published, revealed)] = Review.objects.create(
            listing=event_listing,
            booking=booking,
            renter=users["renter"],
            rating=4,
            is_published=published,
            revealed_at=now if revealed else None,
        )
    assert list(Review.objects.public()) == [rows[(True, True)]]
    assert [row.is_public for row in rows.values()] == [True, False, False, False]
    assert list(review_selectors.listing_reviews_public(listing_id=event_listing.pk)) == [rows[(True, True)]]


def test_a_renters_review_waiting_for_the_host_is_nowhere_public(users, event_listing, api):
    booking = completed(users, event_listing)
    renter_reviews(users, booking, "Secret until the host writes.", 2)
    page = Client().get(f"/listing-details/{event_listing.slug}").content.decode()
    assert "Secret until the host writes." not in page
    assert "No reviews yet." in reviews_section(page)
    assert '<span class="badge badge-new">New</span>' in page
    answer = api.get(f"/api/reviews/listing/{event_listing.pk}").json()["data"]
    assert (answer["reviews"], answer["rating"], answer["ratingCount"]) == ([], "0.00", 0)
    listing = Listing.objects.get(pk=event_listing.pk)
    assert (listing.rating_average, listing.rating_count) == (0, 0)
    assert review_selectors.listing_rating_stats(event_listing.pk) == {"average": 0, "count": 0, "reviews": 0}


def test_the_kept_listing_page_shows_the_review_once_the_host_reveals_it(users, event_listing):
    booking = completed(users, event_listing)
    renter_reviews(users, booking, "Bright and calm.", 4)
    visitor = Client()
    assert "Bright and calm." not in visitor.get(f"/listing-details/{event_listing.slug}").content.decode()
    host_reviews(users, booking)  # both sides reviewed: revealed, and the kept page retired
    page = visitor.get(f"/listing-details/{event_listing.slug}").content.decode()
    assert "Bright and calm." in reviews_section(page)
    assert "4.0 out of 5 from 1 rating" in page


def test_every_figure_on_the_listing_page_comes_from_the_public_reviews(users, event_listing):
    for index, (renter_key, rating) in enumerate([("renter", 5), ("other_renter", 4), ("renter", None)]):
        booking = completed(users, event_listing, renter_key=renter_key, day=weekday(5 + index))
        renter_reviews(users, booking, f"Stay {index}", rating, renter_key=renter_key)
        host_reviews(users, booking)
    hidden = completed(users, event_listing, renter_key="other_renter", day=weekday(9))
    renter_reviews(users, hidden, "Not revealed yet", 1, renter_key="other_renter")

    assert review_selectors.listing_rating_stats(event_listing.pk) == {"average": 4.5, "count": 2, "reviews": 3}
    listing = Listing.objects.get(pk=event_listing.pk)
    assert (float(listing.rating_average), listing.rating_count) == (4.5, 2)
    page = Client().get(f"/listing-details/{event_listing.slug}").content.decode()
    section = reviews_section(page)
    # One reviews section, its heading counting the reviews it lists, its rating from the rated ones.
    assert page.count('id="reviews-title"') == 1 and 'data-island="ListingReviews"' not in page
    assert "Reviews (3)" in section and section.count('data-testid="review"') == 3
    assert "4.5 out of 5 from 2 ratings" in section
    assert "Not revealed yet" not in page
    header = page.split('class="listing-meta"', 1)[1].split("</p>", 1)[0]
    assert re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", header)).count("4.5 out of 5 · 3 reviews") == 1
    # A moderator hides one: the page and the stored rating follow at once.
    review_publish_set(actor=users["admin"], review_id=Review.objects.get(review="Stay 0").pk, published=False)
    page = Client().get(f"/listing-details/{event_listing.slug}").content.decode()
    assert "Reviews (2)" in page and "4.0 out of 5 from 1 rating" in page
    assert Listing.objects.get(pk=event_listing.pk).rating_count == 1


def test_past_ten_reviews_the_page_lists_the_newest_and_the_island_pages_the_rest(users, event_listing):
    now = timezone.now()
    for index in range(11):
        booking = make_booking(users["renter"], event_listing, day=weekday(5 + index * 2))
        Review.objects.create(
            listing=event_listing,
            booking=booking,
            renter=users["renter"],
            review=f"Stay number {index}",
            rating=5,
            revealed_at=now - dt.timedelta(days=index),
        )
    reviews.listing_rating_refresh(event_listing.pk)
    page = Client().get(f"/listing-details/{event_listing.slug}").content.decode()
    section = reviews_section(page)
    assert "Reviews (11)" in section and section.count('data-testid="review"') == 10
    assert "Stay number 0" in section and "Stay number 10" not in section
    props = re.search(r'<script id="listing-reviews-props" type="application/json">(.*?)</script>', page).group(1)
    assert props == f'{{"listingId": "{event_listing.pk}", "startPage": 2}}'
