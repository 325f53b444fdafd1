"""Booking payments: held at request, captured on approval, released, refunded; invoices; payouts."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make, weekday
from apps.core.testing import check_role_matrix
from apps.payments import payouts, services
from apps.payments.models import Earning, Invoice, Payment, Payout, Refund

from .conftest import WEBHOOK_SECRET, pay_locally
from .fake_stripe import signed_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def listing(users):
    return PricedEventListingFactory(host=users["host"])


@pytest.fixture
def booking(users, listing):
    return booking_make(renter=users["renter"], listing=listing)


def checkout(client, booking, **extra):
    return client.post("/api/payment/checkout", {"bookingId": str(booking.pk), **extra}, format="json")


def approve(users, booking, capture):
    with capture(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")


def complete(booking, capture):
    with capture(execute=True):
        bookings.bookings_complete_due(now=booking.check_out + dt.timedelta(minutes=1))


# --- The local checkout, end to end --------------------------------------------------------------


def test_paid_request_is_held_then_captured_on_approval_with_an_invoice(
    api, clients, users, booking, local_gateway, django_capture_on_commit_callbacks
):
    payment = pay_locally(api, clients["renter"], booking)
    assert payment.status == "authorized"
    assert payment.total_amount == booking.total_amount > 0
    listed = clients["renter"].get("/api/payment/get-all").json()["data"]
    assert listed["totalCount"] == 1 and listed["payments"][0]["displayStatus"] == "unpaid"
    assert not Invoice.objects.exists()

    approve(users, booking, django_capture_on_commit_callbacks)
    payment.refresh_from_db()
    assert payment.status == "completed" and payment.captured_amount == booking.total_amount
    invoice = Invoice.objects.get()
    assert invoice.number == f"INV-{timezone.now().year}-000001" and invoice.amount == booking.total_amount

    single = clients["renter"].get(f"/api/payment/get-single/{booking.pk}").json()["data"]["payment"]
    assert single["status"] == "completed" and single["displayStatus"] == "paid"
    assert single["totalAmount"] == f"{booking.total_amount:.2f}"


def test_rejection_releases_the_hold(api, clients, users, booking, local_gateway, django_capture_on_commit_callbacks):
    payment = pay_locally(api, clients["renter"], booking)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="rejected", reason="Busy")
    payment.refresh_from_db()
    assert payment.status == "released" and payment.captured_amount == 0
    assert not Invoice.objects.exists()


def test_expiry_releases_the_hold(api, clients, users, booking, local_gateway, django_capture_on_commit_callbacks):
    payment = pay_locally(api, clients["renter"], booking)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.bookings_expire_due(now=booking.expires_at + dt.timedelta(minutes=1))
    payment.refresh_from_db()
    assert payment.status == "released"


def test_cancellation_refunds_the_policy_amount_with_a_credit_note(
    api, clients, users, booking, local_gateway, django_capture_on_commit_callbacks
):
    payment = pay_locally(api, clients["renter"], booking)
    approve(users, booking, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        cancelled = bookings.booking_cancel_by_renter(booking_id=booking.pk, renter=users["renter"], reason="Plans")
    payment.refresh_from_db()
    assert cancelled.refund_amount > 0
    assert payment.refunded_amount == cancelled.refund_amount
    assert payment.status == ("refunded" if cancelled.refund_amount == payment.captured_amount else "completed")
    note = Invoice.objects.get(kind="creditNote")
    assert note.number.startswith("CN-") and note.amount == cancelled.refund_amount
    assert Refund.objects.get().source == "cancellation"


def test_refund_never_exceeds_what_was_paid(
    api, clients, users, booking, local_gateway, django_capture_on_commit_callbacks
):
    payment = pay_locally(api, clients["renter"], booking)
    approve(users, booking, django_capture_on_commit_callbacks)
    services.payment_refund(payment=payment, amount=Decimal("10.00"), source="dispute")
    services.payment_refund(payment=payment, amount=Decimal("999999"), source="dispute")
    assert services.payment_refund(payment=payment, amount=Decimal("1"), source="dispute") is None
    payment.refresh_from_db()
    assert payment.refunded_amount == payment.captured_amount and payment.status == "refunded"
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.filter(pk=payment.pk).update(refunded_amount=payment.captured_amount + 1)


def test_invoice_numbers_are_consecutive_per_year(
    users, listing, local_gateway, api, clients, django_capture_on_commit_callbacks
):
    booking = booking_make(renter=users["renter"], listing=listing)
    payment = pay_locally(api, clients["renter"], booking)
    approve(users, booking, django_capture_on_commit_callbacks)
    for _ in range(3):  # each refund is sent by the worker once the decision commits
        with django_capture_on_commit_callbacks(execute=True):
            services.payment_refund(payment=payment, amount=Decimal("1.00"), source="dispute")
    year = timezone.now().year
    assert list(Invoice.objects.filter(kind="creditNote").order_by("sequence").values_list("number", flat=True)) == [
        f"CN-{year}-000001",
        f"CN-{year}-000002",
        f"CN-{year}-000003",
    ]
    refund = Refund.objects.create(payment=payment, amount=Decimal("1"), source="dispute", gateway_refund_id="re_x")
    next_year = timezone.now().replace(year=year + 1)
    note = services.invoice_issue(payment=payment, amount=Decimal("1"), refund=refund, issued_at=next_year)
    assert note.number == f"CN-{year + 1}-000001"
    with pytest.raises(IntegrityError), transaction.atomic():
        services.invoice_issue(payment=payment, amount=Decimal("1"))  # a capture has one invoice


# --- Bad inputs and scoping ----------------------------------------------------------------------


def test_checkout_role_matrix_and_foreign_bookings(clients, users, booking, local_gateway):
    check_role_matrix(
        clients,
        "post",
        "/api/payment/checkout",
        allowed=["renter", "other_renter"],
        data={"bookingId": str(booking.pk)},
        hidden_status=(403,),
    )
    assert checkout(clients["other_renter"], booking).status_code == 404
    assert clients["renter"].post("/api/payment/checkout", {"bookingId": "x' OR 1=1"}, format="json").status_code == 404
    assert clients["renter"].post("/api/payment/checkout", {"bookingId": "é" * 100}, format="json").status_code == 400
    assert clients["renter"].post("/api/payment/checkout", {}, format="json").status_code == 400
    bad = checkout(clients["renter"], booking, redirectUrl="https://evil.example/")
    assert bad.status_code == 400


def test_the_amount_is_the_bookings_not_the_clients(api, clients, booking, local_gateway):
    response = checkout(clients["renter"], booking, totalAmount="0.01")
    assert response.status_code == 200
    assert Payment.objects.get().total_amount == booking.total_amount


def test_paying_twice_is_refused(api, clients, booking, local_gateway):
    pay_locally(api, clients["renter"], booking)
    assert checkout(clients["renter"], booking).status_code == 409


def test_payment_lists_are_scoped_by_role(api, clients, users, booking, listing, local_gateway):
    pay_locally(api, clients["renter"], booking)
    check_role_matrix(
        clients,
        "get",
        "/api/payment/get-all",
        allowed=["renter", "other_renter", "host", "other_host", "admin"],
    )
    counts = {
        actor: clients[actor].get("/api/payment/get-all").json()["data"]["totalCount"]
        for actor in ("renter", "other_renter", "host", "other_host", "admin")
    }
    assert counts == {"renter": 1, "other_renter": 0, "host": 1, "other_host": 0, "admin": 1}
    statuses = check_role_matrix(
        clients,
        "get",
        f"/api/payment/get-single/{booking.pk}",
        allowed=["renter", "host", "admin"],
        hidden_status=(403, 404),
    )
    assert statuses["other_renter"] == 404 and statuses["other_host"] == 404
    assert clients["renter"].get("/api/payment/get-all?filters[period]=weekly").json()["data"]["totalCount"] == 1
    assert clients["renter"].get("/api/payment/get-all?filters[period]=yearly").status_code == 400
    assert clients["renter"].get("/api/payment/get-all?page=abc").status_code == 400


# --- Invoices and the PDF ------------------------------------------------------------------------


def _pdf_text(content: bytes) -> str:
    """The text drawn on the pages (reportlab writes ASCII85 + Flate streams)."""
    import base64
    import re
    import zlib

    chunks = []
    for match in re.finditer(rb"(?<!end)stream\r?\n(.*?)endstream", content, re.DOTALL):
        body = match.group(1).strip().removesuffix(b"~>")
        try:
            chunks.append(zlib.decompress(base64.a85decode(body)).decode("latin-1"))
        except (ValueError, zlib.error):
            continue
    return "".join(chunks)


def test_invoice_pdf_is_served_to_a_client_that_accepts_only_pdf(
    api, clients, users, booking, local_gateway, django_capture_on_commit_callbacks
):
    pay_locally(api, clients["renter"], booking)
    approve(users, booking, django_capture_on_commit_callbacks)
    url = f"/api/invoice/pdf/{Invoice.objects.get().id}"
    for accept in ("application/pdf", "application/*", "application/pdf, application/json;q=0.5"):
        response = clients["renter"].get(url, HTTP_ACCEPT=accept)
        assert response.status_code == 200, accept
        assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    # An error still answers in the JSON envelope; a type the operation does not send is still a 406.
    missing = clients["renter"].get(
        "/api/invoice/pdf/00000000-0000-0000-0000-000000000000", HTTP_ACCEPT="application/pdf"
    )
    assert missing.status_code == 404 and missing.json()["message"]
    assert clients["renter"].get(url, HTTP_ACCEPT="image/png").status_code == 406


def test_invoice_pdf_shows_the_breakdown_and_commission_only_to_the_host_side_when_completed(
    api, clients, users, booking, local_gateway, django_capture_on_commit_callbacks
):
    users["renter"].email = "a" * 60 + "@example.com"
    users["renter"].save()
    pay_locally(api, clients["renter"], booking)
    approve(users, booking, django_capture_on_commit_callbacks)
    invoice = Invoice.objects.get()
    url = f"/api/invoice/pdf/{invoice.id}"
    statuses = check_role_matrix(clients, "get", url, allowed=["renter", "host", "admin"], hidden_status=(403, 404))
    assert statuses["other_host"] == 404
    response = clients["renter"].get(url)
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    text = _pdf_text(response.content)
    assert invoice.number in text
    assert f"${booking.total_amount:,.2f}" in text
    assert "Convenience fee" in text and "Discount" in text and "Tax" in text
    assert "a" * 47 + "..." in text and "a" * 51 not in text
    assert "Commission" not in text
    assert "Commission" not in _pdf_text(clients["host"].get(url).content)  # not completed yet

    complete(booking, django_capture_on_commit_callbacks)
    assert "Commission" in _pdf_text(clients["host"].get(url).content)
    assert "Commission" in _pdf_text(clients["admin"].get(url).content)
    assert "Commission" not in _pdf_text(clients["renter"].get(url).content)

    invoices = clients["renter"].get("/api/invoice/get-all?filters[period]=daily").json()["data"]
    assert invoices["totalCount"] == 1 and invoices["invoices"][0]["status"] == "paid"
    check_role_matrix(
        clients,
        "get",
        "/api/invoice/get-all",
        allowed=["renter", "other_renter", "host", "other_host", "admin"],
    )
    assert clients["other_renter"].get("/api/invoice/get-all").json()["data"]["totalCount"] == 0


# --- Stripe --------------------------------------------------------------------------------------


def _webhook(api, event_type, obj, **kwargs):
    payload, header = signed_event(event_type, obj, secret=WEBHOOK_SECRET, **kwargs)
    return api.generic(
        "POST", "/api/payment/webhook", payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )


def test_stripe_holds_captures_and_refunds_through_the_sdk(
    api, clients, users, booking, fake_stripe, django_capture_on_commit_callbacks
):
    response = checkout(clients["renter"], booking)
    assert response.status_code == 200
    [sent] = fake_stripe.calls("POST", "/v1/checkout/sessions")
    assert sent["mode"] == "payment" and sent["payment_intent_data[capture_method]"] == "manual"
    assert sent["line_items[0][price_data][unit_amount]"] == str(int(booking.total_amount * 100))

    payment = Payment.objects.get()
    session = fake_stripe.complete_session(payment.session_id)
    for _ in range(2):  # the same event twice
        assert _webhook(api, "checkout.session.completed", session, event_id="evt_cs").status_code == 200
    payment.refresh_from_db()
    assert payment.status == "authorized" and payment.payment_id == session["payment_intent"]

    approve(users, booking, django_capture_on_commit_callbacks)
    payment.refresh_from_db()
    assert payment.status == "completed"
    assert fake_stripe.calls("POST", f"/v1/payment_intents/{payment.payment_id}/capture")
    # Stripe then reports the capture: nothing changes twice.
    intent = fake_stripe.objects[payment.payment_id]
    assert _webhook(api, "payment_intent.succeeded", intent).json()["message"] == "already completed"
    assert Invoice.objects.filter(kind="invoice").count() == 1

    with django_capture_on_commit_callbacks(execute=True):  # the worker sends it after the commit
        refund = services.payment_refund(payment=payment, amount=Decimal("12.34"), source="dispute")
    refund.refresh_from_db()
    [sent_refund] = fake_stripe.calls("POST", "/v1/refunds")
    assert sent_refund["amount"] == "1234"
    # charge.refunded for our own refund plus one made at the provider, delivered twice and late.
    charge = {
        "id": "ch_1",
        "object": "charge",
        "payment_intent": payment.payment_id,
        "amount_refunded": 1234 + 500,
        "refunds": {
            "data": [
                {"id": refund.gateway_refund_id, "amount": 1234, "status": "succeeded"},
                {"id": "re_dashboard", "amount": 500, "status": "succeeded"},
            ]
        },
    }
    for _ in range(2):
        _webhook(api, "charge.refunded", charge, event_id="evt_ch")
    _webhook(api, "charge.refunded", charge, event_id="evt_ch_again")
    payment.refresh_from_db()
    assert payment.refunded_amount == Decimal("17.34")
    assert Refund.objects.count() == 2 and Invoice.objects.filter(kind="creditNote").count() == 2


def test_stripe_release_on_rejection_and_failure_event(
    api, clients, users, listing, fake_stripe, django_capture_on_commit_callbacks
):
    booking = booking_make(renter=users["renter"], listing=listing)
    checkout(clients["renter"], booking)
    payment = Payment.objects.get()
    session = fake_stripe.complete_session(payment.session_id)
    _webhook(api, "checkout.session.completed", session)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="rejected", reason="No")
    payment.refresh_from_db()
    assert payment.status == "released"
    assert fake_stripe.objects[payment.payment_id]["status"] == "canceled"
    # A late "succeeded" for a released intent changes nothing.
    assert _webhook(api, "payment_intent.succeeded", fake_stripe.objects[payment.payment_id]).status_code == 200
    payment.refresh_from_db()
    assert payment.status == "released"


# --- Payouts -------------------------------------------------------------------------------------


def _completed_payment(api, clients, users, listing, capture, days=10):
    booking = booking_make(renter=users["renter"], listing=listing, day=weekday(days))
    payment = pay_locally(api, clients["renter"], booking)
    approve(users, booking, capture)
    complete(booking, capture)
    payment.refresh_from_db()
    return payment


def test_host_earnings_payout_release_and_fail(
    api, clients, users, listing, local_gateway, django_capture_on_commit_callbacks
):
    cap = django_capture_on_commit_callbacks
    first = _completed_payment(api, clients, users, listing, cap, days=10)
    earning = Earning.objects.get(payment=first)
    booking = first.booking
    assert earning.amount == first.captured_amount - booking.commission > 0

    check_role_matrix(clients, "get", "/api/payout/balance", allowed=["host", "other_host"])
    balance = clients["host"].get("/api/payout/balance").json()["data"]
    assert balance["available"] == f"{earning.amount:.2f}"
    # The balance says whether the user may ask to be paid: the same rule the request enforces.
    assert balance["can"] == {"request": True}
    assert clients["other_host"].get("/api/payout/balance").json()["data"]["can"] == {"request": False}

    assert clients["sub_host"].post("/api/payout/request").status_code == 403
    assert clients["other_host"].post("/api/payout/request").status_code == 400  # nothing available
    response = clients["host"].post("/api/payout/request")
    assert response.status_code == 201
    assert response.json()["data"]["statusLabel"] == "Pending"
    assert clients["host"].get("/api/payout/balance").json()["data"]["can"] == {"request": False}  # one waits
    assert clients["host"].post("/api/payout/request").status_code == 409
    payout = Payout.objects.get()

    check_role_matrix(clients, "get", "/api/payout/get-all", allowed=["host", "other_host", "admin"])
    assert clients["admin"].get("/api/payout/get-all").json()["data"]["totalCount"] == 1
    assert clients["other_host"].get("/api/payout/get-all").json()["data"]["totalCount"] == 0

    url = f"/api/payout/update-status/{payout.id}"
    check_role_matrix(clients, "patch", url, allowed=["admin"], data={"status": "onhold"})
    assert clients["admin"].patch(url, {"status": "paid"}, format="json").status_code == 400
    released = clients["admin"].patch(url, {"status": "released"}, format="json")
    assert released.status_code == 200 and released.json()["data"]["statusLabel"] == "Approved"
    assert released.json()["data"]["method"] == "manual"
    assert clients["admin"].patch(url, {"status": "failed"}, format="json").status_code == 409
    assert payouts.host_balance(host_id=users["host"].pk)["available"] == 0

    # A second booking: requested, then failed, and its earning is available again (paid once only).
    second = _completed_payment(api, clients, users, listing, cap, days=12)
    payout2 = payouts.payout_request(user=users["host"])
    assert payout2.amount == Earning.objects.get(payment=second).amount
    rejected = clients["admin"].patch(f"/api/payout/update-status/{payout2.id}", {"status": "failed"}, format="json")
    assert rejected.json()["data"]["statusLabel"] == "Rejected"
    payout3 = payouts.payout_request(user=users["host"])
    assert payout3.amount == payout2.amount
    assert Earning.objects.filter(payout=payout).count() == 1


def test_earning_invariants_are_database_constraints(
    api, clients, users, listing, local_gateway, django_capture_on_commit_callbacks
):
    payment = _completed_payment(api, clients, users, listing, django_capture_on_commit_callbacks)
    with pytest.raises(IntegrityError), transaction.atomic():
        Earning.objects.create(host=users["host"], payment=payment, gross_amount=1, commission=0, amount=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Earning.objects.filter(payment=payment).update(amount=-1, gross_amount=-1, commission=0, refunded_amount=0)
    Payout.objects.create(host=users["host"], amount=Decimal("1"))
    with pytest.raises(IntegrityError), transaction.atomic():
        Payout.objects.create(host=users["host"], amount=Decimal("1"))  # one open request per host
    with pytest.raises(IntegrityError), transaction.atomic():
        Payout.objects.create(host=users["other_host"], amount=Decimal("0"))


def test_stripe_connect_transfer_on_release(
    api, clients, users, listing, fake_stripe, django_capture_on_commit_callbacks
):
    from apps.payments.models import Earning, HostPayoutAccount

    booking = booking_make(renter=users["renter"], listing=listing)
    checkout(clients["renter"], booking)
    payment = Payment.objects.get()
    _webhook(api, "checkout.session.completed", fake_stripe.complete_session(payment.session_id))
    approve(users, booking, django_capture_on_commit_callbacks)
    complete(booking, django_capture_on_commit_callbacks)
    HostPayoutAccount.objects.create(host=users["host"], stripe_account_id="acct_123")
    payout = payouts.payout_request(user=users["host"])
    with django_capture_on_commit_callbacks(execute=True):  # the worker sends the transfer after the commit
        payouts.payout_update_status(payout_id=payout.pk, by=users["admin"], status="released")
    [sent] = fake_stripe.calls("POST", "/v1/transfers")
    assert sent["destination"] == "acct_123"
    assert sent["amount"] == str(int(Earning.objects.get().amount * 100))
    payout.refresh_from_db()
    assert payout.method == "stripe" and payout.transfer_id.startswith("tr_")


def test_the_balance_says_who_may_ask_to_be_paid(clients):
    # Nothing earned yet: the host may not ask (nothing available); its subHost does not see the balance.
    data = clients["host"].get("/api/payout/balance").json()["data"]
    assert data["available"] == "0.00" and data["can"] == {"request": False}
    assert clients["sub_host"].get("/api/payout/balance").status_code == 403
    refused = clients["host"].post("/api/payout/request")
    assert refused.status_code == 400 and refused.json()["message"] == "You have no available balance to pay out."


def test_the_invoice_list_carries_the_pdfs_lines_and_dates_and_the_commission_only_for_the_host_side(
    api, clients, users, booking, local_gateway, django_capture_on_commit_callbacks
):
    pay_locally(api, clients["renter"], booking)
    approve(users, booking, django_capture_on_commit_callbacks)
    complete(booking, django_capture_on_commit_callbacks)

    def invoice(actor, path="/api/invoice/get-all"):
        return clients[actor].get(path).json()["data"]["invoices"][0]

    seen = invoice("renter")
    labels = [line["label"] for line in seen["lines"]]
    assert labels[-1] == "Total" and seen["lines"][-1]["amount"] == f"${booking.total_amount:,.2f}"
    assert any(label.startswith("Tax (") for label in labels) and any("Convenience fee" in x for x in labels)
    assert seen["checkIn"].startswith(booking.check_in_date.strftime("%d-%m-%Y"))
    assert seen["checkOut"]
    assert not any("Commission" in label for label in labels)
    assert any("Commission" in line["label"] for line in invoice("host")["lines"])
    assert invoice("host", "/api/dashboard/payment-invoices")["lines"] == invoice("host")["lines"]
