"""The booking responses pages read match their OpenAPI components exactly (no undeclared key,
null only where declared), so the front end's generated types are true."""

import pytest

from apps.bookings import services
from apps.bookings.models import BookingStatus
from apps.bookings.services.lifecycle import booking_transition
from apps.core.schema_check import check

from .conftest import make_booking, payload

pytestmark = pytest.mark.django_db


def test_booking_detail_list_and_status_responses_match_the_schema(clients, users, event_listing, add_on):
    booking = make_booking(users["renter"], event_listing, add_on_ids=[add_on.pk])
    for actor in ("renter", "host", "sub_host", "admin"):
        response = clients[actor].get(f"/api/booking/booking/{booking.pk}")
        assert response.status_code == 200
        check("BookingDetailResponse", response.json())
        check("BookingListResponse", clients[actor].get("/api/booking/get-all").json())
    check("BookingRequestsResponse", clients["host"].get("/api/booking/booking-requests").json())
    approved = clients["host"].patch(f"/api/booking/update-status/{booking.pk}", {"status": "approved"}, format="json")
    assert approved.status_code == 200, approved.content
    check("BookingStatusResponse", approved.json())
    extension = clients["renter"].post(f"/api/booking/extend/{booking.pk}", {"additionalHours": 1}, format="json")
    assert extension.status_code == 201, extension.content
    check("ExtendBookingResponse", extension.json())
    for actor in ("renter", "host"):
        # A pending extension: the renter sees the short form, the host side everything.
        check("BookingDetailResponse", clients[actor].get(f"/api/booking/booking/{booking.pk}").json())
    cancelled = clients["renter"].patch(f"/api/booking/cancel/{booking.pk}", {"reason": "Plans"}, format="json")
    assert cancelled.status_code == 200, cancelled.content
    check("BookingCancelResponse", cancelled.json())
    assert cancelled.json()["data"]["status"] == BookingStatus.CANCELLED


def test_office_booking_with_an_offering_matches_the_schema(clients, users, office_listing):
    offering = office_listing.space_offerings.get(kind="meetingSpace")
    booking = make_booking(users["renter"], office_listing, offering_id=offering.pk)
    data = clients["renter"].get(f"/api/booking/booking/{booking.pk}").json()
    assert data["data"]["spaceOffering"]["kind"] == "meetingSpace"
    check("BookingDetailResponse", data)


def test_quote_availability_calendar_and_review_match_the_schema(api, clients, users, event_listing):
    for step in ("event-booking-details", "review-and-pay"):
        response = api.post(f"/api/booking/quote/{step}", payload(event_listing), format="json")
        assert response.status_code == 200, response.content
        check("BookingQuoteResponse", response.json())
    availability = clients["renter"].get(f"/api/listing/get-availability/{event_listing.pk}")
    check("ListingAvailabilityResponse", availability.json())
    booking = make_booking(users["renter"], event_listing)
    check("BookingCalendarResponse", clients["host"].get("/api/booking/calendar").json())
    month = booking.check_in_date.strftime("%Y-%m")
    for actor in ("renter", "host", "admin"):
        calendar = clients[actor].get(f"/api/booking/calendar?month={month}").json()
        check("BookingCalendarResponse", calendar)
        assert [row["_id"] for row in calendar["data"]["bookings"]] == [str(booking.pk)]
    check("IcalUrlResponse", clients["host"].get(f"/api/listing/calendar-url/{event_listing.pk}").json())
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status=BookingStatus.APPROVED)
    booking_transition(booking.pk, BookingStatus.COMPLETED)
    review = clients["renter"].post(
        "/api/reviews/add",
        {"listingId": str(event_listing.pk), "bookingId": str(booking.pk), "review": "Lovely", "rating": 5},
        format="json",
    )
    assert review.status_code == 201, review.content
    check("ReviewAddResponse", review.json())


def test_the_check_refuses_undeclared_keys_and_unexpected_nulls(clients, users, event_listing):
    import jsonschema

    booking = make_booking(users["renter"], event_listing)
    body = clients["renter"].get(f"/api/booking/booking/{booking.pk}").json()
    with pytest.raises(jsonschema.ValidationError):
        check("BookingDetailResponse", {**body, "data": {**body["data"], "undeclared": 1}})
    with pytest.raises(jsonschema.ValidationError):
        check("BookingDetailResponse", {**body, "data": {**body["data"], "paymentDetails": None}})
    with pytest.raises(jsonschema.ValidationError):
        check("BookingDetailResponse", {**body, "data": {**body["data"], "can": {"approve": True}}})
