"""The invoice (or credit note) as an A4 portrait PDF, drawn with reportlab.

The breakdown is the booking's own (the bookings pricing engine wrote it into
``payment_details``): price lines, services, discount, convenience fee, tax, extensions, total.
The commission fee appears only for the host side or the admin, and only once the booking is
completed (spec section 6). E-mails are cut at 50 characters; money is $ with two decimals.
"""

from decimal import Decimal
from io import BytesIO
from zoneinfo import ZoneInfo

from django.conf import settings
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, portrait
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from apps.accounts.models import Role
from apps.bookings.selectors import booking_charged_check_out
from apps.bookings.times import format_moment, zone_of

from .models import Invoice, InvoiceKind, PaymentStatus

EMAIL_MAX = 50


def dollars(value) -> str:
    amount = Decimal(str(value or 0)).quantize(Decimal("0.01"))
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


def cut(text: str, limit: int = EMAIL_MAX) -> str:
    text = text or ""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _date(moment) -> str:
    return moment.astimezone(ZoneInfo(settings.DISPLAY_TIME_ZONE)).strftime("%d-%m-%Y") if moment else ""


def shows_commission(invoice: Invoice, viewer) -> bool:
    booking = invoice.payment.booking
    if viewer is None:
        return False
    side = viewer.role == Role.ADMIN or (
        viewer.role in (Role.HOST, Role.SUB_HOST) and viewer.acting_host_id == invoice.payment.host_id
    )
    return side and booking.status == "completed"


def breakdown(invoice: Invoice, viewer) -> list[tuple[str, str]]:
    """The rows of the price table, in order (label, amount)."""
    payment = invoice.payment
    booking = payment.booking
    details = booking.payment_details or {}
    rows: list[tuple[str, str]] = []
    for line in details.get("prices") or []:
        label = (
            f"{line.get('duration')} x {line.get('label') or line.get('priceDuration')} at {dollars(line.get('rate'))}"
        )
        rows.append((label, dollars(line.get("total"))))
    for service in booking.services_and_add_ons or []:
        rows.append((f"Service: {service.get('title', '')}", dollars(service.get("price"))))
    rows.append(("Subtotal", dollars(booking.subtotal)))
    rows.append((f"Discount ({booking.discount_percent}%)", dollars(-Decimal(str(booking.discount)))))
    rows.append((f"Convenience fee ({booking.processing_fee_percent}%)", dollars(booking.convenience_fee)))
    rows.append((f"Tax ({booking.tax_percent}%)", dollars(booking.tax)))
    rows.append(("Booking price", dollars(booking.price)))
    # Only what was charged counts; an extension not paid yet is listed as pending, outside the total.
    tz = zone_of(booking.listing)
    # Read from the prefetched extensions where a list prefetched them (``selectors.invoices_visible_to``).
    extensions = sorted((e for e in booking.extensions.all() if e.status != "rejected"), key=lambda e: e.created_at)
    for extension in extensions:
        until = f"Extension to {format_moment(extension.period.upper, tz)}"
        if extension.paid:
            rows.append((until, dollars(extension.additional_amount)))
        elif extension.status == "approved":
            rows.append((f"{until} (pending: awaiting payment)", f"{dollars(extension.additional_amount)} pending"))
        else:
            rows.append((f"{until} (pending: awaiting the host)", f"{dollars(extension.additional_amount)} pending"))
    rows.append(("Total", dollars(booking.total_amount)))
    if payment.refunded_amount:
        rows.append(("Refunded", dollars(-payment.refunded_amount)))
    if shows_commission(invoice, viewer):
        rows.append((f"Commission fee ({booking.commission_percent}%)", dollars(booking.commission)))
    return rows


def render_invoice_pdf(invoice: Invoice, viewer) -> bytes:
    payment = invoice.payment
    booking = payment.booking
    listing = payment.listing
    buffer = BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=portrait(A4),
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=16 * mm,
        title=f"{'Credit note' if invoice.kind == InvoiceKind.CREDIT_NOTE else 'Invoice'} {invoice.number}",
        author="Spacemarket",
    )
    styles = getSampleStyleSheet()
    small = ParagraphStyle(
        "small", parent=styles["Normal"], fontSize=9, leading=12, textColor=colors.HexColor("#444444")
    )
    right = ParagraphStyle("right", parent=styles["Normal"], alignment=TA_RIGHT)
    brand = ParagraphStyle("brand", parent=styles["Normal"], fontSize=18, leading=22)
    heading = ParagraphStyle("heading", parent=right, fontSize=16, leading=20)
    title = "Credit note" if invoice.kind == InvoiceKind.CREDIT_NOTE else "Invoice"
    paid = "Paid" if payment.status == PaymentStatus.COMPLETED else "Unpaid"
    if payment.status == PaymentStatus.REFUNDED:
        paid = "Refunded"

    story = [
        Table(
            [
                [
                    Paragraph("<b>Spacemarket</b>", brand),
                    Paragraph(f"<b>{title}</b>", heading),
                ],
                [Paragraph("Work spaces and event venues", small), Paragraph(f"No. <b>{invoice.number}</b>", right)],
                ["", Paragraph(f"Date: {_date(invoice.issued_at)}", right)],
                ["", Paragraph(f"Status: <b>{paid}</b>", right)],
            ],
            colWidths=[95 * mm, 79 * mm],
            style=TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]),
        ),
        Spacer(1, 8 * mm),
    ]

    def party(label: str, user) -> Paragraph:
        name = user.display_name or "—"
        email = f"<font size=8>{_esc(cut(user.email))}</font>"  # 50 characters fit on one line at 8 pt
        return Paragraph(f"<b>{label}</b><br/>{_esc(name)}<br/>{email}", styles["Normal"])

    story.append(
        Table(
            [[party("Billed to (renter)", payment.renter), party("Host", payment.host)]],
            colWidths=[87 * mm, 87 * mm],
            style=TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]),
        )
    )
    story.append(Spacer(1, 6 * mm))
    tz = zone_of(listing)
    offering = (booking.space_offering or {}).get("title")
    kind = "Event space" if listing.property_type == "eventSpace" else "Work space"
    booking_rows = [
        ["Space", Paragraph(_esc(listing.title), styles["Normal"])],
        ["Type", kind + (f" · {offering}" if offering else "")],
        ["Address", Paragraph(_esc(listing.address or f"{listing.city}, {listing.country}"), styles["Normal"])],
        # Times where the space is, with the zone named; check-out as charged (paid extensions only).
        ["Check-in", format_moment(booking.check_in, tz)],
        ["Check-out", format_moment(booking_charged_check_out(booking), tz)],
        ["Time zone", tz.key],
        ["Guests", str(booking.guests)],
        ["Booking", str(booking.pk)],
        ["Payment", payment.payment_id or "—"],
    ]
    story.append(
        Table(
            booking_rows,
            colWidths=[30 * mm, 144 * mm],
            style=TableStyle(
                [
                    ("FONTNAME", (0, 0), (0, -1), "Helvetica-Bold"),
                    ("TEXTCOLOR", (0, 0), (0, -1), colors.HexColor("#555555")),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ]
            ),
        )
    )
    story.append(Spacer(1, 6 * mm))

    rows = [["Description", "Amount"], *breakdown(invoice, viewer)]
    total_index = next(i for i, row in enumerate(rows) if row[0] == "Total")
    style = [
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#1f2937")),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#dddddd")),
        ("FONTNAME", (0, total_index), (-1, total_index), "Helvetica-Bold"),
        ("LINEABOVE", (0, total_index), (-1, total_index), 1, colors.HexColor("#1f2937")),
        ("TOPPADDING", (0, 0), (-1, -1), 4),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ]
    story.append(Table(rows, colWidths=[130 * mm, 44 * mm], style=TableStyle(style)))
    story.append(Spacer(1, 6 * mm))
    if invoice.kind == InvoiceKind.CREDIT_NOTE:
        summary = f"Amount refunded by this credit note: <b>{dollars(invoice.amount)}</b>"
    elif invoice.extension_charge_id:
        summary = f"Amount charged by this invoice (extension): <b>{dollars(invoice.amount)}</b>"
    else:
        summary = f"Amount charged by this invoice: <b>{dollars(invoice.amount)}</b>"
    story.append(Paragraph(summary, styles["Normal"]))
    story.append(Spacer(1, 10 * mm))
    story.append(Paragraph(f"Spacemarket · {settings.SITE_URL} · Amounts in US dollars.", small))
    doc.build(story)
    return buffer.getvalue()


def _esc(text: str) -> str:
    return (text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
