"""Double-blind reviews: each side sees the other's review only when both have written, or when
the review period ends; the listing page shows published, revealed reviews, newest first."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from apps.bookings import services
from apps.bookings.factories import weekday
from apps.bookings.models import Booking, BookingStatus, RenterReview, Review
from apps.bookings.reviews import selectors as review_selectors
from apps.bookings.reviews import services as reviews
from apps.core.schema_check import check

from .conftest import make_booking


def completed(users, listing, **extra):
    booking = make_booking(users["renter"], listing, **extra)
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.COMPLETED)
    return Booking.objects.get(pk=booking.pk)


def add(client, booking, **body):
    data = {"listingId": str(booking.listing_id), "bookingId": str(booking.pk), **body}
    return client.post("/api/reviews/add", data, format="json")


def public(api, listing, page=1):
    return api.get(f"/api/reviews/listing/{listing.pk}?page={page}")


def test_reviews_appear_only_after_both_sides_reviewed(clients, users, event_listing, api):
    booking = completed(users, event_listing)
    renter = add(clients["renter"], booking, review="Bright room, quiet street.", rating=5, remarks="Wifi was slow")
    assert renter.status_code == 201, renter.content
    assert renter.json()["data"]["revealed"] is False
    assert public(api, event_listing).json()["data"]["reviews"] == []
    # The host knows a review was written but cannot read it yet.
    body = clients["host"].get(f"/api/reviews/booking/{booking.pk}").json()
    check("BookingReviews", body)
    seen_by_host = body["data"]
    assert seen_by_host["renterReview"] == {"written": True, "revealed": False}
    assert seen_by_host["canReview"] is True
    assert clients["renter"].get(f"/api/reviews/booking/{booking.pk}").json()["data"]["canReview"] is False

    host = add(clients["sub_host"], booking, review="Left the room tidy.", rating=4)
    assert host.status_code == 201, host.content
    assert host.json()["data"]["revealed"] is True
    listed = public(api, event_listing).json()["data"]
    assert [r["review"] for r in listed["reviews"]] == ["Bright room, quiet street."]
    assert listed["reviews"][0]["rating"] == 5
    assert "remarks" not in listed["reviews"][0]
    assert (listed["rating"], listed["ratingCount"]) == ("5.00", 1)
    body = clients["renter"].get(f"/api/reviews/booking/{booking.pk}").json()
    check("BookingReviews", body)
    seen_by_renter = body["data"]
    assert seen_by_renter["hostReview"]["review"] == "Left the room tidy."
    assert seen_by_renter["hostReview"]["remarks"] == ""
    assert add(clients["host"], booking, rating=3).status_code == 409
    assert RenterReview.objects.get().rating == 4


def test_a_lone_review_is_revealed_when_the_review_period_ends(users, event_listing):
    booking = completed(users, event_listing)
    reviews.review_add(user=users["renter"], listing_id=event_listing.pk, booking_id=booking.pk, rating=3)
    assert reviews.reviews_reveal_due() == 0
    later = booking.check_out + reviews.REVIEW_PERIOD + dt.timedelta(minutes=1)
    assert reviews.reviews_reveal_due(now=later) == 1
    assert reviews.reviews_reveal_due(now=later) == 0
    event_listing.refresh_from_db()
    assert (event_listing.rating_average, event_listing.rating_count) == (Decimal("3.00"), 1)
    assert list(review_selectors.listing_reviews_public(listing_id=event_listing.pk)) == [Review.objects.get()]


def test_no_review_after_the_period_and_outsiders_cannot_review(clients, users, event_listing):
    booking = completed(users, event_listing)
    for actor in ("other_renter", "other_host", "moderator", "admin"):
        response = add(clients[actor], booking, rating=1)
        assert response.status_code in (403, 404), (actor, response.status_code)
    Booking.objects.filter(pk=booking.pk).update(
        check_out=timezone.now() - reviews.REVIEW_PERIOD - dt.timedelta(hours=1),
        check_in=timezone.now() - reviews.REVIEW_PERIOD - dt.timedelta(hours=5),
    )
    late = add(clients["renter"], booking, rating=5)
    assert late.status_code == 409
    assert late.json()["message"] == "The review period for this booking has ended."
    assert not Review.objects.exists() and not RenterReview.objects.exists()


def test_public_reviews_page_newest_first_and_host_reply(clients, users, event_listing, api):
    for index in range(12):
        day = timezone.now().date() + dt.timedelta(days=20 + index)
        if day.weekday() == 6:
            day += dt.timedelta(days=100)
        booking = completed(users, event_listing, day=day)
        reviews.review_add(
            user=users["renter"], listing_id=event_listing.pk, booking_id=booking.pk, review=f"Visit {index}", rating=4
        )
        reviews.review_add(user=users["host"], listing_id=event_listing.pk, booking_id=booking.pk, rating=5)
    first = public(api, event_listing).json()["data"]
    assert first["totalCount"] == 12 and len(first["reviews"]) == 10
    assert first["reviews"][0]["review"] == "Visit 11"
    assert len(public(api, event_listing, page=2).json()["data"]["reviews"]) == 2

    newest = Review.objects.order_by("-revealed_at").first()
    url = f"/api/reviews/reply/{newest.pk}"
    assert clients["other_host"].put(url, {"reply": "Hi"}, format="json").status_code == 404
    assert clients["renter"].put(url, {"reply": "Hi"}, format="json").status_code == 403
    assert clients["host"].put(url, {"reply": "  "}, format="json").status_code == 400
    newest.refresh_from_db()
    assert newest.reply == ""
    answer = clients["sub_host"].put(url, {"reply": "Thank you, come again!"}, format="json")
    assert answer.status_code == 200, answer.content
    assert public(api, event_listing).json()["data"]["reviews"][0]["reply"] == "Thank you, come again!"
    assert clients["host"].put(url, {"reply": "Again"}, format="json").status_code == 409


def test_public_reviews_of_unknown_or_unapproved_listings(api, users):
    assert api.get("/api/reviews/listing/not-a-uuid").status_code == 404
    assert api.get("/api/reviews/listing/00000000-0000-0000-0000-000000000000").status_code == 404


def test_the_host_side_may_reply_once_the_review_is_revealed_and_sees_what_hosts_said_of_the_renter(
    clients, users, event_listing
):
    earlier = completed(users, event_listing, day=weekday(40))
    reviews.review_add(user=users["renter"], listing_id=event_listing.pk, booking_id=earlier.pk, rating=5)
    reviews.review_add(
        user=users["host"], listing_id=event_listing.pk, booking_id=earlier.pk, review="Punctual.", rating=4
    )
    booking = completed(users, event_listing, day=weekday(47))
    url = f"/api/reviews/booking/{booking.pk}"
    add(clients["renter"], booking, review="Lovely light.", rating=5)

    # Not revealed yet: the host can neither read nor answer it.
    assert clients["host"].get(url).json()["data"]["renterReview"] == {"written": True, "revealed": False}
    add(clients["host"], booking, review="Friendly and tidy.", rating=5)
    for actor in ("host", "sub_host"):
        body = clients[actor].get(url).json()
        check("BookingReviews", body)
        seen = body["data"]
        assert seen["renterReview"]["can"] == {"reply": True}
        assert seen["renterReview"]["reply"] == ""
        said = seen["renterReviews"]
        assert (said["rating"], said["ratingCount"], said["total"]) == ("4.50", 2, 2)
        assert [r["review"] for r in said["reviews"]] == ["Friendly and tidy.", "Punctual."]
        assert said["reviews"][0]["listingTitle"] == event_listing.title
    # Staff read them; the renter and outsiders do not (the renter reads hostReview on each booking).
    assert clients["admin"].get(url).json()["data"]["renterReviews"]["total"] == 2
    renter_view = clients["renter"].get(url).json()["data"]
    assert renter_view["renterReviews"] is None and renter_view["renterReview"]["can"] == {"reply": False}
    assert clients["admin"].get(url).json()["data"]["renterReview"]["can"] == {"reply": False}

    review = Review.objects.get(booking=booking)
    replied = clients["sub_host"].put(f"/api/reviews/reply/{review.pk}", {"reply": "Thanks, Riley!"}, format="json")
    assert replied.status_code == 200, replied.content
    body = clients["host"].get(url).json()
    check("BookingReviews", body)
    seen = body["data"]["renterReview"]
    assert seen["reply"] == "Thanks, Riley!" and seen["repliedAt"] and seen["can"] == {"reply": False}
    assert clients["renter"].get(url).json()["data"]["renterReview"]["reply"] == "Thanks, Riley!"
