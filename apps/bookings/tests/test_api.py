import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.bookings import services
from apps.bookings.models import Booking, BookingStatus, ExtendBooking, Occupancy, Review
from apps.core.exceptions import Conflict
from apps.core.statemachine import history
from apps.core.testing import check_role_matrix
from apps.listings.factories import ListingFactory
from apps.listings.models import OfferingKind

from .conftest import make_booking, payload, weekday

pytestmark = pytest.mark.django_db

CREATE = "/api/booking/create"
LIST = "/api/booking/get-all"
REQUESTS = "/api/booking/booking-requests"


def detail(booking_id):
    return f"/api/booking/booking/{booking_id}"


def status_url(booking_id):
    return f"/api/booking/update-status/{booking_id}"


# --- Quotes -------------------------------------------------------------------------------------------


def test_quote_for_every_step_uses_the_same_pricing(clients, event_listing, add_on):
    body = payload(event_listing, servicesAndAddOns=[str(add_on.pk)])
    first = clients["anonymous"].post("/api/booking/quote/event-booking-details", body, format="json")
    assert first.status_code == 200, first.content
    details = first.json()["data"]["paymentDetails"]
    assert details["prices"] == [
        {"priceDuration": "hourly", "label": "Hour", "duration": 4, "rate": "50.00", "total": "200.00"}
    ]
    assert details["servicesTotal"] == "0.00"  # add-ons come in the next step
    second = clients["renter"].post("/api/booking/quote/services-and-add-ons", body, format="json").json()["data"]
    assert second["paymentDetails"]["servicesTotal"] == "20.00"
    # 220 - 10 % = 198; fee 3 % = 5.94; host tax 13 % = 25.74
    assert second["price"] == "229.68"
    last = clients["renter"].post("/api/booking/quote/review-and-pay", body, format="json").json()["data"]
    assert last["price"] == "229.68"
    assert last["available"] is True
    assert last["startTime"] == "10:00 AM"


def test_quote_refuses_the_wrong_step_and_unknown_steps(clients, event_listing, office_listing):
    assert clients["renter"].post("/api/booking/quote/nope", payload(event_listing), format="json").status_code == 404
    wrong = clients["renter"].post("/api/booking/quote/request-booking-details", payload(event_listing), format="json")
    assert wrong.status_code == 400
    assert "event space" in wrong.json()["message"]


def test_quote_role_matrix(clients, event_listing):
    check_role_matrix(
        clients,
        "post",
        "/api/booking/quote/event-booking-details",
        allowed=["anonymous", "renter", "other_renter", "host", "other_host", "sub_host", "moderator", "admin"],
        data=payload(event_listing),
    )


# --- Creating a request --------------------------------------------------------------------------------


def test_renter_requests_a_booking_and_the_time_is_held(clients, users, event_listing, add_on):
    response = clients["renter"].post(CREATE, payload(event_listing, servicesAndAddOns=[str(add_on.pk)]), format="json")
    assert response.status_code == 201, response.content
    data = response.json()["data"]
    assert data["status"] == "pending"
    assert data["price"] == "229.68"
    assert data["servicesAndAddOns"][0]["title"] == "Catering"
    assert data["checkInDate"] == weekday().strftime("%d-%m-%Y")
    assert data["startTime"] == "10:00 AM"
    assert data["hostedBy"]["email"] == users["host"].email
    booking = Booking.objects.get(pk=data["_id"])
    assert booking.check_in.utcoffset() == dt.timedelta(0)
    assert booking.host == users["host"]
    assert Occupancy.objects.filter(booking=booking, active=True).count() == 1
    assert [change.to_status for change in history(booking)] == ["pending"]
    assert data["statusHistory"][0]["toStatus"] == "pending" if "statusHistory" in data else True
    again = clients["other_renter"].post(CREATE, payload(event_listing), format="json")
    assert again.status_code == 409
    assert "no longer available" in again.json()["message"]


def test_create_role_matrix(clients, event_listing):
    statuses = check_role_matrix(
        clients,
        "post",
        CREATE,
        allowed=["renter", "other_renter"],
        data=payload(event_listing, start="06:00 AM", end="09:00 AM"),
    )
    assert statuses["renter"] == 201


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"checkInDate": "01-01-2020", "checkOutDate": "01-01-2020"}, "checkInDate", "past"),
        ({"startTime": "10:15 AM"}, "startTime", "30-minute"),
        ({"startTime": "25:00"}, "startTime", "09:30 AM"),
        ({"endTime": "11:00 AM"}, "endTime", "minimum booking is 2 hours"),
        ({"endTime": "09:00 AM"}, "endTime", "after the start"),
        ({"guests": 21}, "guests", "at most 20 guests"),
        ({"guests": "many"}, "guests", "valid integer"),
        ({"checkInDate": "2025-13-45"}, "checkInDate", "dd-MM-yyyy"),
        ({"listingId": "not-a-uuid"}, "listingId", "UUID"),
        ({"servicesAndAddOns": ["00000000-0000-0000-0000-000000000000"]}, "servicesAndAddOns", "not offered"),
        ({"spaceOffering": "00000000-0000-0000-0000-000000000000"}, "spaceOffering", "booked whole"),
    ],
)
def test_create_validation_messages(clients, event_listing, change, field, message):
    response = clients["renter"].post(CREATE, {**payload(event_listing), **change}, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert field in body["errors"]
    assert message.lower() in " ".join(body["errors"][field]).lower()
    assert not Booking.objects.exists()


def test_closed_days_blocked_dates_and_opening_hours(clients, event_listing):
    day = weekday(12)
    sunday = day + dt.timedelta(days=(6 - day.weekday()))
    closed = clients["renter"].post(CREATE, payload(event_listing, day=sunday), format="json")
    assert closed.status_code == 400
    assert "closed" in closed.json()["message"]
    event_listing.blocked_dates = [day]
    event_listing.opening_hours = {"monday": {"open": "09:00", "close": "17:00"}}
    event_listing.save()
    blocked = clients["renter"].post(CREATE, payload(event_listing, day=day), format="json")
    assert blocked.status_code == 400
    assert "not available" in blocked.json()["message"]
    monday = day + dt.timedelta(days=7 - day.weekday())
    late = clients["renter"].post(
        CREATE, payload(event_listing, day=monday, start="04:00 PM", end="07:00 PM"), format="json"
    )
    assert late.status_code == 400
    assert "opening hours" in late.json()["message"]


@pytest.mark.parametrize("state", ["pending", "inactive", "deleted"])
def test_only_approved_active_listings_can_be_booked(clients, users, state):
    listing = ListingFactory(host=users["host"])
    if state == "pending":
        listing.status = "pending"
    elif state == "inactive":
        listing.is_active = False
    else:
        listing.is_deleted = True
    listing.save()
    response = clients["renter"].post(CREATE, payload(listing), format="json")
    assert response.status_code in (404, 409)
    assert response.json()["message"]


def test_office_offerings_minimum_and_seats(clients, office_listing):
    desk = office_listing.space_offerings.get(kind=OfferingKind.HOT_DESK)
    desk.minimum_period = 2
    desk.seats = 2
    desk.save()
    day = weekday()
    short = clients["renter"].post(
        CREATE, payload(office_listing, day=day, spaceOffering=str(desk.pk), seats=1), format="json"
    )
    assert short.status_code == 400
    assert "minimum booking is 2 days" in short.json()["message"]
    body = payload(office_listing, day=day, spaceOffering=str(desk.pk), seats=2)
    body["checkOutDate"] = (day + dt.timedelta(days=1)).strftime("%d-%m-%Y")
    ok = clients["renter"].post(CREATE, body, format="json")
    assert ok.status_code == 201, ok.content
    assert ok.json()["data"]["paymentDetails"]["prices"][0]["priceDuration"] == "daily"
    full = clients["other_renter"].post(CREATE, {**body, "seats": 1}, format="json")
    assert full.status_code == 409
    assert "seats" in full.json()["message"]
    missing = clients["renter"].post(CREATE, payload(office_listing), format="json")
    assert missing.status_code == 400
    assert "spaceOffering" in missing.json()["errors"]


def test_buffer_keeps_time_free_between_bookings(users, event_listing):
    event_listing.buffer_minutes = 60
    event_listing.save()
    make_booking(users["renter"], event_listing, start=dt.time(10), end=dt.time(12))
    with pytest.raises(Conflict):
        make_booking(users["other_renter"], event_listing, start=dt.time(12, 30), end=dt.time(15))
    assert make_booking(users["other_renter"], event_listing, start=dt.time(13), end=dt.time(15)).status == "pending"


# --- Reading -----------------------------------------------------------------------------------------


def test_detail_visibility(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    statuses = check_role_matrix(
        clients,
        "get",
        detail(booking.pk),
        allowed=["renter", "host", "sub_host", "moderator", "admin"],
        hidden_status=(404,),
    )
    assert statuses["other_host"] == 404 and statuses["other_renter"] == 404
    data = clients["host"].get(detail(booking.pk)).json()["data"]
    assert data["bookedBy"]["email"] == users["renter"].email
    assert data["sidePanel"] == "bookedBy"
    assert data["can"]["approve"] is True and data["can"]["reject"] is True
    renter_view = clients["renter"].get(detail(booking.pk)).json()["data"]
    assert renter_view["sidePanel"] == "hostedBy"
    assert renter_view["can"]["approve"] is False and renter_view["can"]["reject"] is False
    assert clients["admin"].get(detail("not-a-uuid")).status_code == 404


def test_lists_by_role_with_tabs_period_and_search(clients, users, event_listing):
    mine = make_booking(users["renter"], event_listing)
    theirs = make_booking(users["other_renter"], event_listing, day=weekday(20))
    services.booking_update_status(booking_id=theirs.pk, actor=users["host"], status="approved")
    other = ListingFactory(host=users["other_host"], title="Elsewhere hall")
    make_booking(users["renter"], other)

    def ids(actor, query=""):
        response = clients[actor].get(LIST + query)
        assert response.status_code == 200, response.content
        return {b["_id"] for b in response.json()["data"]["bookings"]}

    assert mine.pk.hex not in ids("other_renter")
    assert str(mine.pk) in ids("renter")
    assert len(ids("renter")) == 2
    assert ids("host") == {str(mine.pk), str(theirs.pk)}
    assert ids("sub_host") == ids("host")
    assert len(ids("admin")) == 3
    assert ids("host", "?filters[status]=approved") == {str(theirs.pk)}
    assert ids("host", "?filters[period]=daily") == {str(mine.pk), str(theirs.pk)}
    assert len(ids("renter", "?filters[search]=Elsewhere")) == 1
    assert clients["host"].get(LIST + "?filters[status]=bogus").status_code == 400
    assert clients["host"].get(LIST + "?filters[period]=hourly").status_code == 400
    assert clients["host"].get(LIST + "?page=abc").status_code == 400
    requests = clients["host"].get(REQUESTS).json()["data"]
    assert [b["_id"] for b in requests["bookings"]] == [str(mine.pk)]
    assert requests["limit"] == 10


def test_list_role_matrices(clients, event_listing):
    check_role_matrix(
        clients, "get", LIST, allowed=["renter", "other_renter", "host", "other_host", "sub_host", "moderator", "admin"]
    )
    check_role_matrix(clients, "get", REQUESTS, allowed=["host", "other_host", "sub_host"])


def test_list_page_size_is_ten(clients, users, event_listing):
    base = weekday(30)
    for i in range(11):
        make_booking(
            users["renter"], event_listing, day=base + dt.timedelta(days=i * 7), start=dt.time(10), end=dt.time(12)
        )
    body = clients["renter"].get(LIST).json()["data"]
    assert len(body["bookings"]) == 10
    assert body["totalCount"] == 11
    assert len(clients["renter"].get(LIST + "?page=2").json()["data"]["bookings"]) == 1


# --- Approving and rejecting -------------------------------------------------------------------------


def test_host_approves_and_subhost_rejects_with_reason(clients, users, event_listing):
    first = make_booking(users["renter"], event_listing)
    response = clients["host"].patch(status_url(first.pk), {"status": "approved"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["message"] == "Booking approved successfully."
    assert response.json()["data"]["status"] == "approved"
    again = clients["host"].patch(status_url(first.pk), {"status": "rejected", "reason": "x"}, format="json")
    assert again.status_code == 409

    second = make_booking(users["other_renter"], event_listing, day=weekday(20))
    no_reason = clients["sub_host"].patch(status_url(second.pk), {"status": "rejected", "reason": "  "}, format="json")
    assert no_reason.status_code == 400
    assert no_reason.json()["errors"]["reason"] == ["Please give a reason for rejecting."]
    rejected = clients["sub_host"].patch(
        status_url(second.pk), {"status": "rejected", "reason": "Closed for repairs"}, format="json"
    )
    assert rejected.status_code == 200
    second.refresh_from_db()
    assert second.status == "rejected" and second.reject_reason == "Closed for repairs"
    assert not Occupancy.objects.filter(booking=second, active=True).exists()  # the time is free again
    event = history(second)[-1]
    assert (event.from_status, event.to_status, event.actor, event.reason) == (
        "pending",
        "rejected",
        users["sub_host"],
        "Closed for repairs",
    )
    assert clients["host"].patch(status_url(second.pk), {"status": "cancelled"}, format="json").status_code == 400


def test_update_status_role_matrix(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    statuses = check_role_matrix(
        clients,
        "patch",
        status_url(booking.pk),
        allowed=["host", "sub_host"],
        data={"status": "approved"},
        hidden_status=(403, 404),
    )
    assert statuses["other_host"] == 404


def test_approving_after_check_in_passed_is_allowed_and_said(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    past = timezone.now() - dt.timedelta(hours=1)
    Booking.objects.filter(pk=booking.pk).update(check_in=past, expires_at=past + dt.timedelta(days=1))
    response = clients["host"].patch(status_url(booking.pk), {"status": "approved"}, format="json")
    assert response.status_code == 200
    assert "booking date has already passed" in response.json()["message"]
    assert response.json()["data"]["checkInPassed"] is True


# --- Cancelling ----------------------------------------------------------------------------------------


def test_renter_cancels_by_policy_and_host_cancels_with_reason(clients, users, event_listing):
    event_listing.cancellation_policy = "strict"
    event_listing.save()
    booking = make_booking(users["renter"], event_listing)  # 10 days ahead
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    booking.refresh_from_db()
    preview = clients["renter"].get(detail(booking.pk)).json()["data"]["refundIfCancelledNow"]
    assert Decimal(preview) == (booking.total_amount * Decimal("0.5")).quantize(Decimal("0.01"))
    response = clients["renter"].patch(f"/api/booking/cancel/{booking.pk}", {"reason": "Plans changed"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["data"]["refundAmount"] == preview
    assert response.json()["data"]["status"] == "cancelled"

    other = make_booking(users["other_renter"], event_listing, day=weekday(20))
    services.booking_update_status(booking_id=other.pk, actor=users["host"], status="approved")
    assert clients["host"].patch(f"/api/booking/cancel/{other.pk}", {}, format="json").status_code == 400
    done = clients["host"].patch(f"/api/booking/cancel/{other.pk}", {"reason": "Flood"}, format="json")
    assert done.status_code == 200
    other.refresh_from_db()
    assert other.refund_amount == other.total_amount
    assert other.cancellation_reason == "Flood"


@pytest.mark.parametrize(
    ("policy", "hours_before", "share"),
    [
        ("flexible", 48, "1"),
        ("flexible", 5, "0.5"),
        ("moderate", 24 * 6, "1"),
        ("moderate", 48, "0.5"),
        ("moderate", 5, "0"),
        ("strict", 24 * 8, "0.5"),
        ("strict", 48, "0"),
    ],
)
def test_refund_rules(users, event_listing, policy, hours_before, share):
    event_listing.cancellation_policy = policy
    event_listing.save()
    booking = make_booking(users["renter"], event_listing)
    booking.status = "approved"
    now = booking.check_in - dt.timedelta(hours=hours_before)
    assert services.refund_amount_for(booking, now=now) == (booking.total_amount * Decimal(share)).quantize(
        Decimal("0.01")
    )


def test_cancel_role_matrix(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    check_role_matrix(
        clients,
        "patch",
        f"/api/booking/cancel/{booking.pk}",
        allowed=["renter"],
        data={"reason": "x"},
        hidden_status=(403, 404, 409),
    )


# --- Time-driven changes -------------------------------------------------------------------------------


def test_requests_expire_and_bookings_start_and_complete(users, event_listing):
    pending = make_booking(users["renter"], event_listing)
    assert pending.expires_at <= pending.created_at + dt.timedelta(hours=72)
    approved = make_booking(users["other_renter"], event_listing, day=weekday(20))
    services.booking_update_status(booking_id=approved.pk, actor=users["host"], status="approved")
    later = timezone.now() + dt.timedelta(days=4)
    assert services.bookings_expire_due(now=later) == 1
    assert services.bookings_expire_due(now=later) == 0  # idempotent
    pending.refresh_from_db()
    assert pending.status == "expired"
    assert not Occupancy.objects.filter(booking=pending, active=True).exists()
    approved.refresh_from_db()
    during = approved.check_in + dt.timedelta(minutes=30)
    assert services.bookings_start_due(now=during) == 1
    assert services.bookings_start_due(now=during) == 0
    after = approved.check_out + dt.timedelta(minutes=1)
    assert services.bookings_complete_due(now=after) == 1
    assert services.bookings_complete_due(now=after) == 0
    approved.refresh_from_db()
    assert approved.status == "completed"
    assert [change.to_status for change in history(approved)] == ["pending", "approved", "ongoing", "completed"]


def test_tasks_run(users, event_listing):
    from apps.bookings import tasks

    make_booking(users["renter"], event_listing)
    assert tasks.expire_requests.delay().get() == 0
    assert tasks.start_bookings.delay().get() == 0
    assert tasks.complete_bookings.delay().get() == 0


def test_status_check_constraint(users, event_listing):
    from django.db import IntegrityError, transaction

    booking = make_booking(users["renter"], event_listing)
    with pytest.raises(IntegrityError), transaction.atomic():
        Booking.objects.filter(pk=booking.pk).update(status="teleported")


# --- Extensions -----------------------------------------------------------------------------------------


def extend_url(booking_id):
    return f"/api/booking/extend/{booking_id}"


def extend_status_url(booking_id):
    return f"/api/booking/update-extend-status/{booking_id}"


def test_extension_flow_and_totals(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing, start=dt.time(10), end=dt.time(12))
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    booking.refresh_from_db()
    price = booking.total_amount
    response = clients["renter"].post(extend_url(booking.pk), {"additionalHours": 2}, format="json")
    assert response.status_code == 201, response.content
    extension = response.json()["data"]
    assert extension["originalAmount"] == "100.00"  # 2 hours at 50, no discount
    assert extension["additionalAmount"] == "116.00"  # + 3 % fee + 13 % tax
    assert extension["endTime"] == "02:00 PM"
    # Renter, admin and moderator see only the total payable while it is pending.
    for actor in ("renter", "admin", "moderator"):
        seen = clients[actor].get(detail(booking.pk)).json()["data"]["extendBooking"]
        nothing = {"approve": False, "reject": False, "pay": False}
        assert seen == [{"_id": extension["_id"], "status": "pending", "totalPayable": "116.00", "can": nothing}]
    assert clients["host"].get(detail(booking.pk)).json()["data"]["extendBooking"][0]["additionalHours"] == 2
    twice = clients["renter"].post(extend_url(booking.pk), {"additionalHours": 1}, format="json")
    assert twice.status_code == 409

    approve = clients["sub_host"].put(
        extend_status_url(booking.pk), {"status": "approved", "requestId": extension["_id"]}, format="json"
    )
    assert approve.status_code == 200, approve.content
    booking.refresh_from_db()
    assert booking.end_time == dt.time(14)
    assert booking.total_amount == price  # approved but not paid: not counted yet
    services.extension_mark_paid(extension_id=extension["_id"])
    services.extension_mark_paid(extension_id=extension["_id"])  # idempotent
    booking.refresh_from_db()
    assert booking.total_amount == price + Decimal("116.00")
    assert booking.payment_details["extensionsTotal"] == "116.00"


def test_extension_is_checked_against_other_bookings(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing, start=dt.time(10), end=dt.time(12))
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    make_booking(users["other_renter"], event_listing, start=dt.time(13), end=dt.time(15))
    blocked = clients["renter"].post(extend_url(booking.pk), {"additionalHours": 2}, format="json")
    assert blocked.status_code == 409
    assert "no longer available" in blocked.json()["message"]
    assert not ExtendBooking.objects.exists()
    ok = clients["renter"].post(extend_url(booking.pk), {"additionalHours": 1}, format="json")
    assert ok.status_code == 201


def test_extension_rejection_with_empty_reason_frees_the_time(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing, start=dt.time(10), end=dt.time(12))
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    extension = services.extension_request(booking_id=booking.pk, renter=users["renter"], hours=2)
    response = clients["host"].put(
        extend_status_url(booking.pk),
        {"status": "rejected", "requestId": str(extension.pk), "reason": ""},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["message"] == "Extension request rejected successfully."
    assert not Occupancy.objects.filter(extension=extension, active=True).exists()
    assert make_booking(users["other_renter"], event_listing, start=dt.time(12), end=dt.time(14)).status == "pending"


def test_extension_bad_inputs_and_roles(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    assert clients["renter"].post(extend_url(booking.pk), {"additionalHours": 2}, format="json").status_code == 409
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    for bad in ({}, {"additionalHours": -1}, {"additionalDays": "x"}, {"additionalHours": 10**9}):
        assert clients["renter"].post(extend_url(booking.pk), bad, format="json").status_code == 400
    check_role_matrix(
        clients,
        "post",
        extend_url(booking.pk),
        allowed=["renter"],
        data={"additionalHours": 1},
        hidden_status=(403, 404),
    )
    extension = ExtendBooking.objects.get()
    check_role_matrix(
        clients,
        "put",
        extend_status_url(booking.pk),
        allowed=["host", "sub_host"],
        data={"status": "bogus", "requestId": str(extension.pk)},
        hidden_status=(403, 404),
    )
    bad_id = clients["host"].put(
        extend_status_url(booking.pk), {"status": "approved", "requestId": "nope"}, format="json"
    )
    assert bad_id.status_code == 400


# --- Availability ----------------------------------------------------------------------------------------


def test_availability(clients, users, event_listing):
    day = weekday()
    pending = make_booking(users["renter"], event_listing, day=day)
    approved_day = weekday(20)
    approved = make_booking(users["other_renter"], event_listing, day=approved_day)
    services.booking_update_status(booking_id=approved.pk, actor=users["host"], status="approved")
    url = f"/api/listing/get-availability/{event_listing.pk}?timezone=America/New_York&days=60"
    check_role_matrix(
        clients, "get", url, allowed=["renter", "other_renter", "host", "other_host", "sub_host", "moderator", "admin"]
    )
    data = clients["renter"].get(url).json()["data"]
    assert data["pendingDates"] == [day.isoformat()]
    assert data["occupiedDates"] == [approved_day.isoformat()]
    assert day.isoformat() not in data["availableDates"]
    assert all(dt.date.fromisoformat(d).weekday() != 6 for d in data["availableDates"])  # closed on Sundays
    assert pending.pk
    assert clients["renter"].get(url.replace("America/New_York", "Mars/Base")).status_code == 400
    assert clients["renter"].get(url + "&days=9999").status_code == 400
    assert clients["renter"].get("/api/listing/get-availability/nope").status_code == 404


def test_search_exclusion(users, event_listing):
    from apps.bookings.selectors import listings_fully_booked_on
    from apps.bookings.times import zone_of

    booking = make_booking(users["renter"], event_listing)
    zone = zone_of(event_listing.time_zone)
    day = booking.check_in.astimezone(zone).date()
    assert listings_fully_booked_on(day, day) == [event_listing.pk]
    later = booking.check_out.astimezone(zone).date() + dt.timedelta(days=2)
    assert listings_fully_booked_on(later, later + dt.timedelta(days=1)) == []


# --- Reviews ----------------------------------------------------------------------------------------------


def completed_booking(users, listing):
    booking = make_booking(users["renter"], listing)
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.COMPLETED)
    return booking


def test_review_after_completion_once(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    body = {"listingId": str(event_listing.pk), "bookingId": str(booking.pk), "review": "Lovely", "rating": 4}
    early = clients["renter"].post("/api/reviews/add", body, format="json")
    assert early.status_code == 409
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.COMPLETED)
    assert clients["other_renter"].post("/api/reviews/add", body, format="json").status_code == 404
    response = clients["renter"].post("/api/reviews/add", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["message"] == "Review added successfully"
    event_listing.refresh_from_db()
    # Double-blind: the rating counts once the host has reviewed too (see test_reviews.py).
    assert (event_listing.rating_average, event_listing.rating_count) == (Decimal("0.00"), 0)
    assert clients["renter"].post("/api/reviews/add", body, format="json").status_code == 409


@pytest.mark.parametrize(
    ("rating", "status", "stored"),
    [(0, 201, None), (None, 201, None), (6, 400, None), ("five", 400, None), (5, 201, 5)],
)
def test_review_rating_rules(clients, users, event_listing, rating, status, stored):
    booking = completed_booking(users, event_listing)
    body = {"listingId": str(event_listing.pk), "bookingId": str(booking.pk), "rating": rating}
    response = clients["renter"].post("/api/reviews/add", body, format="json")
    assert response.status_code == status, response.content
    if status == 201:
        assert Review.objects.get().rating == stored


def test_review_role_matrix_and_bad_inputs(clients, users, event_listing):
    booking = completed_booking(users, event_listing)
    body = {"listingId": str(event_listing.pk), "bookingId": str(booking.pk), "rating": 5}
    check_role_matrix(
        clients,
        "post",
        "/api/reviews/add",
        allowed=["renter", "other_renter", "host", "other_host", "sub_host"],
        data=body,
    )
    for bad in (
        {},
        {"listingId": "x", "bookingId": str(booking.pk)},
        {**body, "review": "x" * 5000},
    ):
        assert clients["other_renter"].post("/api/reviews/add", bad, format="json").status_code == 400
    malformed = clients["renter"].post("/api/reviews/add", "{not json", content_type="application/json")
    assert malformed.status_code == 400


# --- Calendar and iCal ------------------------------------------------------------------------------------


def test_calendar_and_ical(clients, users, event_listing, api):
    booking = make_booking(users["renter"], event_listing)
    month = booking.check_in_date.strftime("%Y-%m")
    check_role_matrix(
        clients,
        "get",
        f"/api/booking/calendar?month={month}",
        allowed=["renter", "other_renter", "host", "other_host", "sub_host", "moderator", "admin"],
    )
    mine = clients["renter"].get(f"/api/booking/calendar?month={month}").json()["data"]["bookings"]
    assert [b["_id"] for b in mine] == [str(booking.pk)]
    assert clients["other_renter"].get(f"/api/booking/calendar?month={month}").json()["data"]["bookings"] == []
    assert clients["renter"].get("/api/booking/calendar?month=2025-13").status_code == 400
    assert clients["renter"].get("/api/booking/calendar?month=' OR 1=1 --").status_code == 400

    url_path = f"/api/listing/calendar-url/{event_listing.pk}"
    check_role_matrix(clients, "get", url_path, allowed=["host", "sub_host"], hidden_status=(403, 404))
    feed_url = clients["host"].get(url_path).json()["data"]["url"]
    feed = api.get(feed_url.split("127.0.0.1:8000", 1)[-1].split("testserver", 1)[-1])
    assert feed.status_code == 200
    assert feed["Content-Type"].startswith("text/calendar")
    assert f"UID:{booking.pk}@spacemarket" in feed.content.decode()
    assert api.get("/api/listing/calendar/forged-token.ics").status_code == 404


# --- Bad inputs on the write endpoints ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"listingId": "' OR 1=1 --", "checkInDate": "x", "startTime": "y", "endTime": "z"},
        {
            "listingId": "00000000-0000-0000-0000-000000000000",
            "checkInDate": "💥" * 30,
            "startTime": "1",
            "endTime": "2",
        },
        ["not", "an", "object"],
    ],
)
def test_create_bad_inputs(clients, body):
    response = clients["renter"].post(CREATE, body, format="json")
    assert 400 <= response.status_code < 500
    assert response.json()["message"]


def test_malformed_json_and_huge_reason(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing)
    assert clients["renter"].post(CREATE, "{oops", content_type="application/json").status_code == 400
    huge = clients["host"].patch(status_url(booking.pk), {"status": "rejected", "reason": "x" * 5000}, format="json")
    assert huge.status_code == 400
    unicode = clients["host"].patch(status_url(booking.pk), {"status": "rejected", "reason": "Fermé 🚧"}, format="json")
    assert unicode.status_code == 200
    assert Booking.objects.get(pk=booking.pk).reject_reason == "Fermé 🚧"


def test_a_new_requests_answer_carries_its_history_as_later_reads_show_it(clients, users, event_listing):
    day = weekday(24).strftime("%d-%m-%Y")
    body = {"listingId": str(event_listing.pk), "checkInDate": day, "checkOutDate": day}
    body |= {"startTime": "10:00 AM", "endTime": "02:00 PM", "guests": 2}
    created = clients["renter"].post("/api/booking/create", body, format="json")
    assert created.status_code == 201, created.content
    answered = created.json()["data"]["statusHistory"]
    read = clients["renter"].get(f"/api/booking/booking/{created.json()['data']['_id']}").json()["data"]
    assert answered == read["statusHistory"]
    assert [(entry["fromStatus"], entry["toStatus"]) for entry in answered] == [(None, "pending")]


def test_the_object_a_request_made_forgets_its_history_once_read_again(users, event_listing):
    booking = make_booking(users["renter"], event_listing, day=weekday(26))
    assert [change.to_status for change in history(booking)] == ["pending"]
    services.booking_cancel_by_renter(booking_id=booking.pk, renter=users["renter"], reason="Plans changed")
    booking.refresh_from_db()
    assert [change.to_status for change in history(booking)] == ["pending", "cancelled"]


def test_booking_requests_list_a_booking_whose_extension_waits_for_the_host(clients, users, event_listing):
    booking = make_booking(users["renter"], event_listing, start=dt.time(10), end=dt.time(12))
    services.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")

    def rows(actor):
        return clients[actor].get(REQUESTS).json()["data"]["bookings"]

    assert rows("host") == []
    extension = services.extension_request(booking_id=booking.pk, renter=users["renter"], hours=2)
    listed = rows("host")
    assert [row["_id"] for row in listed] == [str(booking.pk)]
    assert [(e["_id"], e["status"]) for e in listed[0]["extendBooking"]] == [(str(extension.pk), "pending")]
    assert [row["_id"] for row in rows("sub_host")] == [str(booking.pk)]
    assert rows("other_host") == []
    services.extension_update_status(
        booking_id=booking.pk, extension_id=extension.pk, actor=users["host"], status="rejected", reason="Busy"
    )
    assert rows("host") == []
