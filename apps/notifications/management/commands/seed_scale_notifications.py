"""``manage.py seed_scale_notifications``: a large set of notifications (2,000,000 by default) for measuring.

Set-based bulk inserts (INSERT ... SELECT over generate_series) in batches with a progress line, on the
users already in the database (run the listings' ``seed_scale`` and ``seed_scale_bookings`` first for
a realistic number of users). One row in ten goes to the twenty busiest accounts (the hosts with the
most listings), so the list and the unread count are measured for heavy users too; the rest is spread
over everyone. A quarter are unread, one in fifty deleted. Run it again to add more, further back in time.
"""

import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from apps.notifications.kinds import KINDS
from apps.notifications.models import Notification

HEAVY_USERS = 20

INSERT = """
WITH u AS (
    SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM accounts_user WHERE NOT is_deleted
), h AS (
    SELECT u.id, row_number() OVER (ORDER BY count(l.id) DESC, u.id) - 1 AS n
    FROM accounts_user u JOIN listings_listing l ON l.host_id = u.id
    WHERE NOT u.is_deleted GROUP BY u.id ORDER BY count(l.id) DESC, u.id LIMIT %(heavy)s
), k AS (
    SELECT key, type, row_number() OVER (ORDER BY key) - 1 AS n
    FROM unnest(%(keys)s::text[], %(types)s::text[]) AS t(key, type)
), g AS (
    SELECT s, (s %% 10 = 0 AND (SELECT count(*) FROM h) > 0) AS heavy, floor(random() * %(users)s) AS who,
           random() AS unread, random() AS gone
    FROM generate_series(%(start)s, %(stop)s - 1) AS s
)
INSERT INTO notifications_notification (id, user_id, kind, type, content, link, read, seen, is_deleted, created_at, read_at)
SELECT gen_random_uuid(),
       coalesce(h.id, u.id),
       k.key, k.type,
       'Scale notification ' || g.s || ': something happened on one of your spaces.',
       '/dashboard/bookings',
       g.unread >= 0.25, g.unread >= 0.25 OR g.unread < 0.08, g.gone < 0.02,
       %(newest)s::timestamptz - g.s * interval '37 seconds',
       CASE WHEN g.unread >= 0.25 THEN %(newest)s::timestamptz - g.s * interval '37 seconds' + interval '1 hour' END
FROM g
JOIN u ON u.n = g.who
LEFT JOIN h ON g.heavy AND h.n = (g.s / 10) %% (SELECT count(*) FROM h)
JOIN k ON k.n = g.s %% %(kinds)s
"""


class Command(BaseCommand):
    help = "Add a large number of notifications (bulk INSERT ... SELECT) for measuring the notification API."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=2_000_000, help="How many notifications to add.")
        parser.add_argument("--batch", type=int, default=100_000)

    def handle(self, *args, count: int, batch: int, **options):
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM accounts_user WHERE NOT is_deleted")
            users = cursor.fetchone()[0]
            if not users:
                raise CommandError("No users: run seed_demo or seed_scale first.")
            # New rows go further back than any the command added before, so runs never overlap.
            cursor.execute("SELECT coalesce(min(created_at), now()) FROM notifications_notification")
            newest = cursor.fetchone()[0]
        already = Notification.objects.count()
        keys = list(KINDS)
        started = time.monotonic()
        done = 0
        while done < count:
            size = min(batch, count - done)
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(
                    INSERT,
                    {
                        "heavy": HEAVY_USERS,
                        "keys": keys,
                        "types": [KINDS[key].type for key in keys],
                        "kinds": len(keys),
                        "start": done + 1,
                        "stop": done + 1 + size,
                        "users": users,
                        "newest": newest,
                    },
                )
            done += size
            elapsed = time.monotonic() - started
            self.stdout.write(f"\r  notifications {done:,}/{count:,} ({elapsed:.0f}s)", ending="")
            self.stdout.flush()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE notifications_notification")
        self.stdout.write(
            self.style.SUCCESS(
                f"\nAdded {count:,} notifications ({already + count:,} in all) for {users:,} users "
                f"in {time.monotonic() - started:.0f}s."
            )
        )
