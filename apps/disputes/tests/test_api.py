"""Dispute API: every endpoint's role matrix, bad inputs, decisions and the refund they drive."""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.core.testing import check_role_matrix
from apps.disputes import services
from apps.disputes.models import Dispute, DisputeEvidence
from apps.payments.models import Payment, Refund

from .conftest import pdf_file, png_file

pytestmark = pytest.mark.django_db

CREATE = "/api/dispute/create"
LIST = "/api/dispute/get-all"
REQUESTS = "/api/dispute/dispute-requests"
PAYMENTS = "/api/dispute/dispute-payments"


def single(dispute) -> str:
    return f"/api/dispute/get-single/{dispute.pk}"


def update(dispute) -> str:
    return f"/api/dispute/update-status/{dispute.pk}"


@pytest.fixture
def dispute(users, paid_booking, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return services.dispute_raise(
            user=users["renter"], booking_id=paid_booking.pk, reason="The projector was broken.", files=[pdf_file()]
        )


def ids(response) -> list[str]:
    return [item["_id"] for item in response.json()["data"]["disputes"]]


# --- create ----------------------------------------------------------------------------------------


def test_create_role_matrix(clients, paid_booking):
    data = {"bookingId": str(paid_booking.pk), "reason": "The heating did not work."}
    statuses = check_role_matrix(
        clients, "post", CREATE, allowed={"renter", "host"}, data=data, hidden_status=(403, 404)
    )
    # The renter raised it first; the host then finds it open. Outsiders do not learn the booking exists.
    assert statuses["renter"] == 201 and statuses["host"] == 409
    assert statuses["other_renter"] == statuses["other_host"] == 404
    assert statuses["sub_host"] == statuses["moderator"] == statuses["admin"] == 403
    assert Dispute.objects.count() == 1


def test_create_multipart_with_evidence(clients, paid_booking):
    response = clients["renter"].post(
        CREATE,
        {
            "bookingId": str(paid_booking.pk),
            "reason": "Le projecteur était cassé 📽️",
            "files": [png_file("broken.png"), pdf_file("receipt.pdf")],
        },
        format="multipart",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["message"] == "Dispute raised successfully."
    data = body["data"]
    assert data["status"] == "pending" and data["reason"] == "Le projecteur était cassé 📽️"
    assert data["bookingId"]["status"] == "disputed" and data["bookingId"]["_id"] == str(paid_booking.pk)
    assert data["renterId"]["_id"] == str(paid_booking.renter_id)
    assert data["hostId"]["_id"] == str(paid_booking.host_id)
    assert data["raisedBy"]["role"] == "renter"
    assert data["paymentId"]["_id"] == str(Payment.objects.get(booking=paid_booking).pk)
    assert data["rejectReason"] == "" and data["refundAmount"] is None and data["refundedAmount"] is None
    assert sorted(e["name"] for e in data["evidence"]) == ["broken.jpg", "receipt.pdf"]
    assert data["can"] == {"decide": False}


def test_evidence_is_served_only_to_the_parties_and_staff(clients, dispute):
    evidence = DisputeEvidence.objects.get(dispute=dispute)
    url = f"/api/dispute/evidence/{evidence.pk}"
    statuses = check_role_matrix(
        clients,
        "get",
        url,
        allowed={"renter", "host", "moderator", "admin"},
        hidden_status=(403, 404),  # 403: the subHost (least privilege, docs/security.md)
    )
    assert statuses["renter"] == 200
    response = clients["admin"].get(url)
    assert response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content).startswith(b"%PDF-")
    assert "attachment" in response["Content-Disposition"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert clients["admin"].get("/api/dispute/evidence/not-a-uuid").status_code == 404
    # The file is not under the public uploads.
    assert "uploads" not in evidence.file.path


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"bookingId": "not-a-uuid", "reason": "x"},
        {"bookingId": "' OR 1=1 --", "reason": "x"},
        {"reason": "no booking"},
        {"bookingId": "00000000-0000-0000-0000-000000000000"},
        {"bookingId": "00000000-0000-0000-0000-000000000000", "reason": "   "},
        {"bookingId": "00000000-0000-0000-0000-000000000000", "reason": "x" * 2001},
        {"bookingId": 12345, "reason": ["a", "b"]},
        {"bookingId": "00000000-0000-0000-0000-000000000000", "reason": "x", "files": "not-a-file"},
    ],
)
def test_create_bad_inputs(clients, paid_booking, body):
    response = clients["renter"].post(CREATE, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["message"] and response.json()["errors"]
    assert not Dispute.objects.exists()


def test_create_unknown_booking_is_404_and_bad_bodies_are_400(clients, paid_booking):
    response = clients["renter"].post(
        CREATE, {"bookingId": "00000000-0000-0000-0000-000000000000", "reason": "Where?"}, format="json"
    )
    assert response.status_code == 404
    response = clients["renter"].generic("POST", CREATE, "{not json", content_type="application/json")
    assert response.status_code == 400
    response = clients["renter"].post(CREATE, ["a", "list"], format="json")
    assert response.status_code == 400
    assert not Dispute.objects.exists()


def test_create_refuses_bad_evidence(clients, paid_booking):
    for files, message in [
        ([SimpleUploadedFile("x.exe", b"MZ\x90\x00binary", content_type="application/octet-stream")], "image"),
        ([png_file(f"p{i}.png") for i in range(6)], "at most 5"),
    ]:
        response = clients["renter"].post(
            CREATE, {"bookingId": str(paid_booking.pk), "reason": "See", "files": files}, format="multipart"
        )
        assert response.status_code == 400, response.content
        assert message in response.json()["message"]
    paid_booking.refresh_from_db()
    assert paid_booking.status == "completed" and not Dispute.objects.exists()


def test_create_on_a_pending_booking_is_409(clients, users, listing):
    from apps.bookings.factories import booking_make

    booking = booking_make(renter=users["renter"], listing=listing)
    response = clients["renter"].post(CREATE, {"bookingId": str(booking.pk), "reason": "Slow"}, format="json")
    assert response.status_code == 409
    assert "only approved, ongoing or completed" in response.json()["message"]


# --- lists -----------------------------------------------------------------------------------------


def test_get_all_role_matrix_and_each_role_sees_its_own(clients, dispute):
    statuses = check_role_matrix(clients, "get", LIST, allowed=set(clients) - {"anonymous", "sub_host"})
    assert all(status == 200 for actor, status in statuses.items() if actor not in ("anonymous", "sub_host"))
    seen = {actor: ids(clients[actor].get(LIST)) for actor in clients if actor not in ("anonymous", "sub_host")}
    for actor in ("renter", "host", "moderator", "admin"):
        assert seen[actor] == [str(dispute.pk)], actor
    assert seen["other_renter"] == [] and seen["other_host"] == []
    data = clients["admin"].get(LIST).json()["data"]
    assert data["totalCount"] == 1 and data["page"] == 1 and data["limit"] == 10


def test_dispute_requests_role_matrix(clients, users, dispute):
    statuses = check_role_matrix(clients, "get", REQUESTS, allowed={"host", "other_host", "moderator", "admin"})
    assert statuses["renter"] == statuses["other_renter"] == 403
    assert ids(clients["moderator"].get(REQUESTS)) == [str(dispute.pk)]
    assert clients["sub_host"].get(REQUESTS).status_code == 403  # least privilege (docs/security.md)
    assert ids(clients["other_host"].get(REQUESTS)) == []
    assert clients["admin"].get(REQUESTS).json()["data"]["disputes"][0]["can"]["decide"] is True
    assert clients["host"].get(REQUESTS).json()["data"]["disputes"][0]["can"]["decide"] is False
    services.dispute_reject(dispute_id=dispute.pk, actor=users["admin"], reason="No")
    assert ids(clients["admin"].get(REQUESTS)) == []


def test_dispute_payments_lists_decided_disputes(clients, users, dispute, paid_booking):
    check_role_matrix(clients, "get", PAYMENTS, allowed=set(clients) - {"anonymous", "sub_host"})
    assert ids(clients["renter"].get(PAYMENTS)) == []  # still pending
    services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount="12.50")
    for actor in ("renter", "host", "moderator", "admin"):
        items = clients[actor].get(PAYMENTS).json()["data"]["disputes"]
        assert [i["_id"] for i in items] == [str(dispute.pk)], actor
        assert items[0]["refundAmount"] == "12.50" and items[0]["refundedAmount"] == "12.50"
    assert ids(clients["other_renter"].get(PAYMENTS)) == []
    assert ids(clients["admin"].get(PAYMENTS + "?filters[status]=rejected")) == []
    assert ids(clients["admin"].get(PAYMENTS + "?filters[status]=approved")) == [str(dispute.pk)]
    assert clients["admin"].get(PAYMENTS + "?filters[status]=pending").status_code == 400


@pytest.mark.parametrize(
    "query",
    [
        "filters[status]=open",
        "filters[status]=' OR 1=1 --",
        "filters[period]=yearly",
        "filters[search]=" + "x" * 101,
        "page=0",
        "page=abc",
        "limit=-1",
    ],
)
def test_list_bad_filters(clients, dispute, query):
    # dispute-requests lists pending disputes only and ignores filters[status].
    urls = (LIST, PAYMENTS) if query.startswith("filters[status]") else (LIST, REQUESTS, PAYMENTS)
    for url in urls:
        response = clients["admin"].get(f"{url}?{query}")
        assert response.status_code == 400, (url, query, response.content)
        assert response.json()["message"]


def test_list_filters(clients, dispute):
    assert ids(clients["admin"].get(LIST + "?filters[status]=pending")) == [str(dispute.pk)]
    assert ids(clients["admin"].get(LIST + "?filters[status]=approved")) == []
    assert ids(clients["admin"].get(LIST + "?filters[status]=all&filters[period]=weekly")) == [str(dispute.pk)]
    assert ids(clients["admin"].get(LIST + "?filters[search]=projector")) == [str(dispute.pk)]
    assert ids(clients["admin"].get(LIST + "?filters[search]=ünïcødé")) == []


def test_list_query_count_does_not_grow_with_rows(clients, users, dispute, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        response = clients["admin"].get(LIST)
    assert response.status_code == 200


# --- get-single --------------------------------------------------------------------------------------


def test_get_single_only_for_the_parties_and_staff(clients, dispute):
    check_role_matrix(
        clients,
        "get",
        single(dispute),
        allowed={"renter", "host", "moderator", "admin"},
        hidden_status=(403, 404),  # 403: the subHost (least privilege, docs/security.md)
    )
    for bad in ("not-a-uuid", "00000000-0000-0000-0000-000000000000", "%27%20OR%201%3D1"):
        assert clients["admin"].get(f"/api/dispute/get-single/{bad}").status_code == 404


def test_get_single_shows_reject_reason(clients, users, dispute):
    services.dispute_reject(dispute_id=dispute.pk, actor=users["moderator"], reason="The photos show it working.")
    data = clients["renter"].get(single(dispute)).json()["data"]
    assert data["status"] == "rejected" and data["rejectReason"] == "The photos show it working."
    assert data["refundedAmount"] is None and data["decidedBy"]["role"] == "moderator"


def test_get_single_shows_the_refunded_amount(clients, users, dispute, paid_booking):
    services.dispute_approve(dispute_id=dispute.pk, actor=users["admin"], refund_amount="30")
    data = clients["host"].get(single(dispute)).json()["data"]
    assert data["status"] == "approved" and data["rejectReason"] == ""
    assert data["refundAmount"] == "30.00" and data["refundedAmount"] == "30.00"
    assert data["paymentId"]["refundedAmount"] == "30.00"


# --- update-status ---------------------------------------------------------------------------------


def test_update_status_role_matrix(clients, dispute, paid_booking):
    statuses = check_role_matrix(
        clients,
        "patch",
        update(dispute),
        allowed={"moderator", "admin"},
        data={"status": "rejected", "reason": "Nothing was wrong."},
    )
    # The moderator decided first; the decision is final, so the admin's attempt is a conflict.
    assert statuses["moderator"] == 200 and statuses["admin"] == 409
    dispute.refresh_from_db()
    assert dispute.status == "rejected" and dispute.reject_reason == "Nothing was wrong."


def test_approve_through_the_api_refunds_and_a_second_approval_changes_nothing(clients, dispute, paid_booking):
    payment = Payment.objects.get(booking=paid_booking)
    response = clients["admin"].patch(update(dispute), {"status": "approved", "refundAmount": "45.50"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["message"] == "Dispute approved and refund made."
    data = response.json()["data"]
    assert data["status"] == "approved" and data["refundAmount"] == "45.50" and data["refundedAmount"] == "45.50"
    payment.refresh_from_db()
    assert payment.refunded_amount == Decimal("45.50")

    again = clients["admin"].patch(update(dispute), {"status": "approved", "refundAmount": "10"}, format="json")
    assert again.status_code == 409
    payment.refresh_from_db()
    assert payment.refunded_amount == Decimal("45.50") and Refund.objects.count() == 1


def test_full_refund_through_the_api(clients, dispute, paid_booking):
    payment = Payment.objects.get(booking=paid_booking)
    total = f"{payment.captured_amount:.2f}"
    response = clients["moderator"].patch(update(dispute), {"status": "approved", "refundAmount": total}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["data"]["bookingId"]["status"] == "cancelled"
    payment.refresh_from_db()
    assert payment.status == "refunded" and payment.refunded_amount == payment.captured_amount


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"status": "pending"},
        {"status": "maybe"},
        {"status": "approved"},
        {"status": "approved", "refundAmount": None},
        {"status": "approved", "refundAmount": "abc"},
        {"status": "approved", "refundAmount": "-5"},
        {"status": "approved", "refundAmount": "0"},
        {"status": "approved", "refundAmount": "10.005"},
        {"status": "approved", "refundAmount": "NaN"},
        {"status": "approved", "refundAmount": "1e309"},
        # Money is a plain decimal, as the schema's pattern says: no exponent, separator, sign or space.
        {"status": "approved", "refundAmount": "1e2"},
        {"status": "approved", "refundAmount": "1E1"},
        {"status": "approved", "refundAmount": "1_0"},
        {"status": "approved", "refundAmount": "+10"},
        {"status": "approved", "refundAmount": " 10"},
        {"status": "approved", "refundAmount": "10.5e0"},
        {"status": "approved", "refundAmount": "99999999999999"},
        {"status": "approved", "refundAmount": "99999.00"},
        {"status": "approved", "refundAmount": [1]},
        {"status": "rejected"},
        {"status": "rejected", "reason": "   "},
        {"status": "rejected", "reason": "x" * 1001},
        {"status": ["approved"]},
    ],
)
def test_update_status_bad_inputs(clients, dispute, paid_booking, body):
    response = clients["admin"].patch(update(dispute), body, format="json")
    assert response.status_code == 400, (body, response.content)
    assert response.json()["message"]
    dispute.refresh_from_db()
    assert dispute.status == "pending"
    assert Payment.objects.get(booking=paid_booking).refunded_amount == 0


def test_update_status_malformed_json_and_unknown_id(clients, dispute):
    response = clients["admin"].generic("PATCH", update(dispute), "{oops", content_type="application/json")
    assert response.status_code == 400
    response = clients["admin"].patch(
        "/api/dispute/update-status/00000000-0000-0000-0000-000000000000", {"status": "rejected", "reason": "x"}
    )
    assert response.status_code == 404
    response = clients["admin"].patch("/api/dispute/update-status/abc", {"status": "rejected", "reason": "x"})
    assert response.status_code == 404


def test_pending_counter_shows_open_disputes_per_role(clients, users, dispute):
    counts = {
        actor: clients[actor].get("/api/dashboard/pending-counter").json()["data"]["pendingDisputes"]
        for actor in ("host", "sub_host", "other_host", "moderator", "admin")
    }
    assert counts == {"host": 1, "sub_host": 1, "other_host": 0, "moderator": 1, "admin": 1}
    clients["admin"].patch(update(dispute), {"status": "rejected", "reason": "No evidence"}, format="json")
    assert clients["host"].get("/api/dashboard/pending-counter").json()["data"]["pendingDisputes"] == 0


def test_detail_shows_who_moved_the_dispute_and_the_booking(clients, users, dispute, paid_booking):
    assert clients["admin"].patch(update(dispute), {"status": "rejected", "reason": "No proof."}).status_code == 200
    shown = clients["renter"].get(single(dispute)).json()["data"]["statusHistory"]
    assert [(c["fromStatus"], c["toStatus"]) for c in shown] == [(None, "pending"), ("pending", "rejected")]
    assert shown[0]["actor"]["_id"] == str(users["renter"].pk) and shown[1]["actor"]["role"] == "admin"
    assert shown[1]["reason"] == "No proof."
    booking = clients["renter"].get(f"/api/booking/booking/{paid_booking.pk}").json()["data"]
    moves = [c["toStatus"] for c in booking["statusHistory"]]
    assert moves[0] == "pending" and moves[-2:] == ["disputed", "completed"]
    assert booking["statusHistory"][-1]["reason"].startswith("Dispute rejected")
