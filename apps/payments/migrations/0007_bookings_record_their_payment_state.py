"""Each booking records where its payment stands (``Booking.payment_state``): filled in from the
payments that exist, with the same correspondence as ``policies.BOOKING_PAYMENT``."""

from django.db import migrations

FORWARD = """
UPDATE bookings_booking AS b
SET payment_state = CASE p.status
    WHEN 'pending' THEN 'due'
    WHEN 'failed' THEN 'due'
    WHEN 'authorized' THEN 'held'
    WHEN 'completed' THEN 'paid'
    WHEN 'actionRequired' THEN 'confirm'
    ELSE 'closed'
END
FROM payments_payment AS p
WHERE p.booking_id = b.id
"""


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0007_booking_payment_state"),
        ("payments", "0006_premium_membership_moves_to_its_app"),
    ]

    operations = [migrations.RunSQL(FORWARD, migrations.RunSQL.noop, elidable=False)]
