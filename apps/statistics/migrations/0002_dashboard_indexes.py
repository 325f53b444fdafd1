"""Indexes the dashboard's lists and per-period counts need on tables of other apps.

Kept here, with the statistics that need them, as plain SQL (the bookings, listings and payments
models do not declare them, so their own migrations never see or fight them):

- bookings by creation time, platform-wide (newest bookings, cancelled bookings, the period cards)
  and per host, covering what a host's counts read (its newest bookings, per-period series and
  per-listing counts answer from the index alone);
- listings by creation time, not deleted (newest listings);
- captured payments per host and per renter by capture time, covering the amounts (money per
  period, read from the index alone).
"""

from django.db import migrations

PAID = "booking_id, listing_id, captured_amount, extended_amount, refunded_amount"
INDEXES = [
    ("statistics_booking_created", "bookings_booking (created_at DESC, id DESC)"),
    (
        "statistics_booking_host_created",
        "bookings_booking (host_id, created_at DESC, id DESC)"
        " INCLUDE (listing_id, status, check_in, check_out, commission)",
    ),
    ("statistics_listing_created", "listings_listing (created_at DESC, id DESC) WHERE NOT is_deleted"),
    (
        "statistics_payment_host_captured",
        f"payments_payment (host_id, captured_at) INCLUDE ({PAID}) WHERE captured_at IS NOT NULL",
    ),
    (
        "statistics_payment_renter_captured",
        f"payments_payment (renter_id, captured_at) INCLUDE ({PAID}) WHERE captured_at IS NOT NULL",
    ),
    ("statistics_payment_captured", "payments_payment (captured_at) WHERE captured_at IS NOT NULL"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("statistics", "0001_initial"),
        ("bookings", "0001_initial"),
        ("listings", "0001_initial"),
        ("payments", "0002_invoicecounter_payment_extensioncharge_payout_and_more"),
    ]

    operations = [
        migrations.RunSQL(
            sql=f"CREATE INDEX IF NOT EXISTS {name} ON {target}",
            reverse_sql=f"DROP INDEX IF EXISTS {name}",
        )
        for name, target in INDEXES
    ]
