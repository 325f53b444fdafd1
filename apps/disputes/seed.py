"""Demo disputes on the demo bookings, one in each status, made through the services:

- pending: on the booking the bookings seed left disputed (the renter's projector complaint), with
  a photo as evidence;
- approved: a completed booking of the demo renter, part of its payment refunded;
- rejected: a completed booking on which the host raised a dispute, rejected with a reason.

Runs after the bookings and payments seeds. Idempotent: a status that already has a demo dispute is
left alone.
"""

import io
from decimal import ROUND_HALF_UP, Decimal

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw

from apps.accounts.models import User
from apps.bookings.models import Booking, BookingStatus
from apps.core.exceptions import DomainError
from apps.payments.models import Payment, PaymentStatus

from . import services
from .models import Dispute, DisputeStatus

DEMO = "@example.com"


def _photo() -> SimpleUploadedFile:
    image = Image.new("RGB", (640, 400), (40, 44, 52))
    draw = ImageDraw.Draw(image)
    draw.rectangle((180, 120, 460, 280), outline=(200, 200, 200), width=6)
    draw.text((200, 300), "NO SIGNAL", fill=(230, 80, 80))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return SimpleUploadedFile("projector.png", out.getvalue(), content_type="image/png")


def _exists(status: str) -> bool:
    return Dispute.objects.filter(status=status, renter__email__endswith=DEMO).exists()


def _paid_completed(exclude_ids) -> Booking | None:
    """A completed demo booking whose payment was captured and is not refunded, without a dispute."""
    paid = Payment.objects.filter(status=PaymentStatus.COMPLETED, refunded_amount=0).values("booking_id")
    return (
        Booking.objects.filter(
            status=BookingStatus.COMPLETED, renter__email__endswith=DEMO, pk__in=paid, disputes__isnull=True
        )
        .exclude(pk__in=exclude_ids)
        .select_related("renter", "host")
        .order_by("host__email", "check_in")
        .first()
    )


def seed(stdout) -> None:
    admin = User.objects.filter(role="admin", email__endswith=DEMO, is_deleted=False).first()
    moderator = User.objects.filter(role="moderator", email__endswith=DEMO, is_deleted=False).first() or admin
    if admin is None:
        stdout.write("  disputes skipped: no demo admin")
        return
    made = []
    try:
        if not _exists(DisputeStatus.PENDING):
            booking = (
                Booking.objects.filter(status=BookingStatus.DISPUTED, renter__email__endswith=DEMO)
                .exclude(disputes__status=DisputeStatus.PENDING)
                .select_related("renter")
                .first()
            )
            if booking is not None:
                services.dispute_raise(
                    user=booking.renter,
                    booking_id=booking.pk,
                    reason="The projector did not work, so we presented from a laptop screen for four hours.",
                    files=[_photo()],
                )
                made.append("pending")

        used: list = []
        if not _exists(DisputeStatus.APPROVED):
            booking = _paid_completed(used)
            if booking is not None:
                used.append(booking.pk)
                dispute = services.dispute_raise(
                    user=booking.renter,
                    booking_id=booking.pk,
                    reason="The air conditioning was off all afternoon and the room was too hot to use.",
                )
                paid = Payment.objects.get(booking=booking).captured_amount
                part = (paid * Decimal("0.25")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
                services.dispute_approve(dispute_id=dispute.pk, actor=admin, refund_amount=part)
                made.append("approved")

        if not _exists(DisputeStatus.REJECTED):
            booking = _paid_completed(used)
            if booking is not None:
                dispute = services.dispute_raise(
                    user=booking.host,
                    booking_id=booking.pk,
                    reason="The renter left the space 90 minutes after check-out time.",
                )
                services.dispute_reject(
                    dispute_id=dispute.pk,
                    actor=moderator,
                    reason="The building's door log shows the space was empty at check-out time.",
                )
                made.append("rejected")
    except DomainError as exc:
        stdout.write(f"  disputes: stopped early ({exc.message})")
    counts = {s: Dispute.objects.filter(status=s).count() for s in DisputeStatus.values}
    stdout.write(f"  disputes: {', '.join(made) or 'nothing'} new; " + ", ".join(f"{n} {s}" for s, n in counts.items()))
