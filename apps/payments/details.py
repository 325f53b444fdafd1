"""One payment's story for ``/payment-details``: authorisation, capture, extension charges, refunds
with their credit notes, the invoices, the host's earning and commission, and the payout it went into."""

from django.db.models import Prefetch

from apps.core.exceptions import NotFound
from apps.core.filters import is_uuid

from .models import ExtensionCharge, Invoice, Payment, Refund
from .selectors import payments_visible_to


def _money(value) -> str | None:
    return None if value is None else f"{value:.2f}"


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def payment_details_get_for(*, user, payment_id: str = "", booking_id: str = "") -> Payment:
    """The payment the caller may see, by its own id or its booking's id; anything else is 404."""
    qs = payments_visible_to(user).prefetch_related(
        Prefetch("refunds", queryset=Refund.objects.select_related("credit_note").order_by("created_at")),
        Prefetch("extension_charges", queryset=ExtensionCharge.objects.order_by("created_at")),
        Prefetch("invoices", queryset=Invoice.objects.order_by("issued_at", "sequence")),
    )
    payment = None
    if payment_id and is_uuid(payment_id):
        payment = qs.filter(pk=payment_id).first()
    elif booking_id and is_uuid(booking_id):
        payment = qs.filter(booking_id=booking_id).first()
    if payment is None:
        raise NotFound("Payment not found.")
    return payment


def payment_details_payload(payment: Payment) -> dict:
    booking = payment.booking
    try:
        earning = payment.earning
    except Payment.earning.RelatedObjectDoesNotExist:
        earning = None
    payout = earning.payout if earning is not None else None
    steps: list[dict] = [{"kind": "created", "at": _iso(payment.created_at), "amount": _money(payment.total_amount)}]
    if payment.authorized_at:
        steps.append({"kind": "authorized", "at": _iso(payment.authorized_at), "amount": _money(payment.total_amount)})
    if payment.captured_at:
        steps.append({"kind": "captured", "at": _iso(payment.captured_at), "amount": _money(payment.captured_amount)})
    for charge in payment.extension_charges.all():
        if charge.status == ExtensionCharge.Status.COMPLETED:
            steps.append({"kind": "extension", "at": _iso(charge.completed_at), "amount": _money(charge.amount)})
    refunds = []
    for refund in payment.refunds.all():
        note = getattr(refund, "credit_note", None)
        item = {
            "_id": str(refund.pk),
            "amount": _money(refund.amount),
            "source": refund.source,
            "sourceLabel": refund.get_source_display(),
            "reason": refund.reason,
            "createdAt": _iso(refund.created_at),
            "creditNote": {"_id": str(note.pk), "number": note.number} if note is not None else None,
        }
        refunds.append(item)
        steps.append({"kind": "refund", "at": item["createdAt"], "amount": item["amount"], "source": refund.source})
    if payment.status == "released":
        steps.append({"kind": "released", "at": _iso(payment.updated_at), "amount": _money(payment.total_amount)})
    if payout is not None:
        steps.append(
            {"kind": f"payout-{payout.status}", "at": _iso(payout.decided_at or payout.requested_at), "amount": None}
        )
    steps.sort(key=lambda step: step["at"] or "")
    return {
        "_id": str(payment.pk),
        "status": payment.status,
        "gateway": payment.gateway,
        "paymentId": payment.payment_id,
        "totalAmount": _money(payment.total_amount),
        "capturedAmount": _money(payment.captured_amount),
        "extendedAmount": _money(payment.extended_amount),
        "refundedAmount": _money(payment.refunded_amount),
        "paidAmount": _money(payment.paid_amount),
        "createdAt": _iso(payment.created_at),
        "authorizedAt": _iso(payment.authorized_at),
        "capturedAt": _iso(payment.captured_at),
        "booking": {
            "_id": str(booking.pk),
            "status": booking.status,
            "commission": _money(booking.commission),
            "commissionPercent": str(booking.commission_percent),
        },
        "listing": {"_id": str(payment.listing.pk), "title": payment.listing.title, "slug": payment.listing.slug},
        "renter": {
            "_id": str(payment.renter.pk),
            "fullName": payment.renter.full_name,
            "displayName": payment.renter.display_name,
            "email": payment.renter.email,
        },
        "host": {
            "_id": str(payment.host.pk),
            "fullName": payment.host.full_name,
            "displayName": payment.host.display_name,
            "email": payment.host.email,
        },
        "steps": steps,
        "refunds": refunds,
        "invoices": [
            {
                "_id": str(invoice.pk),
                "number": invoice.number,
                "kind": invoice.kind,
                "amount": _money(invoice.amount),
                "issuedAt": _iso(invoice.issued_at),
                "pdf": f"/api/invoice/pdf/{invoice.pk}",
            }
            for invoice in payment.invoices.all()
        ],
        "earning": (
            {
                "grossAmount": _money(earning.gross_amount),
                "commission": _money(earning.commission),
                "refundedAmount": _money(earning.refunded_amount),
                "amount": _money(earning.amount),
                "availableAt": _iso(earning.available_at),
            }
            if earning is not None
            else None
        ),
        "payout": (
            {
                "_id": str(payout.pk),
                "status": payout.status,
                "amount": _money(payout.amount),
                "requestedAt": _iso(payout.requested_at),
                "decidedAt": _iso(payout.decided_at),
            }
            if payout is not None
            else None
        ),
    }
