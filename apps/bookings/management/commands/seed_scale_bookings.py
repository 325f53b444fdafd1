"""``manage.py seed_scale_bookings``: a large set of bookings (1,000,000 by default) for measuring.

Set-based bulk inserts (INSERT ... SELECT over generate_series) in batches, on the approved event
spaces already in the database (run the listings' ``seed_scale`` first). Each listing gets
two-hour bookings every three hours going back in time from a year ago (clear of the demo bookings), so held time never overlaps; most are
completed, the rest cancelled, rejected or expired. Run it again to add more further back.
"""

import sys
import time
import uuid

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from apps.accounts.models import Role, User
from apps.listings.models import Listing, ListingStatus, PropertyType

SCALE_RENTERS = 2000

INSERT_BOOKINGS = """
WITH l AS (
    SELECT id, host_id, time_zone, coalesce(hourly, 50) AS hourly, row_number() OVER (ORDER BY id) - 1 AS n
    FROM listings_listing
    WHERE status = 'approved' AND property_type = 'eventSpace' AND NOT is_deleted
), r AS (
    SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM accounts_user WHERE email LIKE 'scale-renter-%%'
), g AS (
    SELECT s AS g,
           date_trunc('hour', now()) - interval '1 year' - ((s / %(listings)s) * interval '3 hours') AS check_in,
           CASE WHEN s %% 20 = 0 THEN 'cancelled' WHEN s %% 20 = 1 THEN 'rejected'
                WHEN s %% 20 = 2 THEN 'expired' ELSE 'completed' END AS status
    FROM generate_series(%(start)s, %(stop)s - 1) AS s
), inserted AS (
INSERT INTO bookings_booking (
    id, listing_id, offering_id, renter_id, host_id, period, check_in, check_out, check_in_date, check_out_date,
    start_time, end_time, guests, seats, unit, space_offering, services_and_add_ons, payment_details,
    payment_preference, payment_state, subtotal, discount, convenience_fee, tax, price, total_amount, commission, refund_amount,
    status, reject_reason, cancellation_reason, cancelled_by_id, created_at, updated_at, expires_at, decided_at
)
SELECT gen_random_uuid(), l.id, NULL, r.id, l.host_id,
       tstzrange(g.check_in, g.check_in + interval '2 hours', '[)'), g.check_in, g.check_in + interval '2 hours',
       (g.check_in AT TIME ZONE l.time_zone)::date,
       ((g.check_in + interval '2 hours') AT TIME ZONE l.time_zone)::date,
       (g.check_in AT TIME ZONE l.time_zone)::time,
       ((g.check_in + interval '2 hours') AT TIME ZONE l.time_zone)::time,
       1 + g.g %% 10, 1, 0, '{}'::jsonb, '[]'::jsonb,
       jsonb_build_object('scale', true, 'prices', jsonb_build_array(jsonb_build_object(
           'priceDuration', 'hourly', 'label', 'Hour', 'duration', 2, 'rate', l.hourly::text,
           'total', (l.hourly * 2)::text))),
       'payNow', CASE g.status WHEN 'completed' THEN 'paid' WHEN 'cancelled' THEN 'closed' ELSE 'none' END,
       l.hourly * 2, 0, 0, 0, l.hourly * 2, l.hourly * 2, round(l.hourly * 0.2, 2),
       CASE WHEN g.status = 'cancelled' THEN l.hourly * 2 END,
       g.status, CASE WHEN g.status = 'rejected' THEN 'Not available that day.' ELSE '' END,
       CASE WHEN g.status = 'cancelled' THEN 'Plans changed.' ELSE '' END, NULL,
       g.check_in - interval '3 days', g.check_in - interval '2 days', g.check_in - interval '1 day',
       g.check_in - interval '2 days'
FROM g
JOIN l ON l.n = g.g %% %(listings)s
JOIN r ON r.n = g.g %% %(renters)s
RETURNING id, listing_id, period, status
)
INSERT INTO bookings_occupancy (booking_id, extension_id, listing_id, space_key, unit, seats, exclusive, active, hold)
SELECT id, NULL, listing_id, listing_id, 0, 1, true, true, period FROM inserted WHERE status = 'completed'
"""


class Command(BaseCommand):
    help = "Add a large number of bookings (default 1,000,000) for performance measurements."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=1_000_000)
        parser.add_argument("--batch", type=int, default=100_000)

    def handle(self, *args, count: int, batch: int, **options):
        listings = Listing.objects.filter(
            status=ListingStatus.APPROVED, property_type=PropertyType.EVENT_SPACE, is_deleted=False
        ).count()
        if listings == 0:
            raise CommandError("No approved event spaces: run seed_demo or seed_scale first.")
        self._ensure_renters()
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM bookings_booking WHERE payment_details ? 'scale'")
            offset = cursor.fetchone()[0]
        started = time.monotonic()
        done = 0
        while done < count:
            size = min(batch, count - done)
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(
                    INSERT_BOOKINGS,
                    {
                        "start": offset + done,
                        "stop": offset + done + size,
                        "listings": listings,
                        "renters": SCALE_RENTERS,
                    },
                )
            done += size
            sys.stdout.write(f"\r  bookings {done:,}/{count:,} ({time.monotonic() - started:.0f}s)")
            sys.stdout.flush()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("ANALYZE bookings_booking")
            cursor.execute("ANALYZE bookings_occupancy")
        self.stdout.write(f"\n  {count:,} bookings on {listings:,} event spaces in {time.monotonic() - started:.0f}s")

    def _ensure_renters(self) -> None:
        have = User.objects.filter(email__startswith="scale-renter-").count()
        if have >= SCALE_RENTERS:
            return
        password = make_password(None)
        User.objects.bulk_create(
            [
                User(
                    id=uuid.uuid4(),
                    email=f"scale-renter-{n}@example.com",
                    role=Role.RENTER,
                    password=password,
                    first_name="Scale",
                    last_name=f"Renter {n}",
                    account_verified=True,
                )
                for n in range(have, SCALE_RENTERS)
            ],
            batch_size=1000,
        )
