"""Builders for the statistics tests' data set."""

import datetime as dt
from decimal import Decimal

from django.db.backends.postgresql.psycopg_any import DateTimeTZRange

from apps.bookings.models import Booking, BookingStatus
from apps.payments.models import Payment, PaymentStatus
from apps.statistics import intervals


def make_booking(*, listing, renter, created, status, price="100.00", commission="0.00", starts=None):
    starts = starts or created + dt.timedelta(hours=1)
    ends = starts + dt.timedelta(hours=2)
    local_start, local_end = starts.astimezone(intervals.LOCAL_TZ), ends.astimezone(intervals.LOCAL_TZ)
    return Booking.objects.create(
        listing=listing,
        renter=renter,
        host=listing.host,
        period=DateTimeTZRange(starts, ends, "[)"),
        check_in=starts,
        check_out=ends,
        check_in_date=local_start.date(),
        check_out_date=local_end.date(),
        start_time=local_start.time(),
        end_time=local_end.time(),
        price=Decimal(price),
        total_amount=Decimal(price),
        commission=Decimal(commission),
        status=status,
        reject_reason="No." if status == BookingStatus.REJECTED else "",
        created_at=created,
        expires_at=created + dt.timedelta(days=1),
    )


def make_payment(booking, *, captured, extended="0", refunded="0", at):
    return Payment.objects.create(
        booking=booking,
        listing=booking.listing,
        renter=booking.renter,
        host=booking.host,
        gateway="local",
        status=PaymentStatus.COMPLETED,
        total_amount=booking.price,
        captured_amount=Decimal(captured),
        extended_amount=Decimal(extended),
        refunded_amount=Decimal(refunded),
        captured_at=at,
        created_at=at,
    )
