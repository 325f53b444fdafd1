"""Demo notifications: a few unread and read ones for every demo account, fitting its role."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from apps.core.roles import Role

from .kinds import KINDS
from .models import Notification

# role -> [(kind, content, link, read)]
DEMO = {
    Role.RENTER: [
        ("bookingApproved", "Your booking at Harbourfront Loft was approved.", "/booking", False),
        ("paymentCaptured", "We charged $245.80 for your booking at Harbourfront Loft.", "/invoices", False),
        ("extensionApproved", "Your request to extend by 2 hours was approved.", "/booking", False),
        ("bookingRejected", "Your booking request at Queen West Studio was declined.", "/booking", True),
        ("paymentRefunded", "$120.00 was refunded to your card.", "/invoices", True),
    ],
    Role.HOST: [
        (
            "bookingRequested",
            "Riley Renter requested Harbourfront Loft for Friday, 9:00 AM to 5:00 PM.",
            "/booking-requests",
            False,
        ),
        ("extensionRequested", "Riley Renter asked to extend a booking by 2 hours.", "/booking-requests", False),
        ("listingApproved", "Your listing Harbourfront Loft was approved and is now public.", "/listing", False),
        ("payoutReleased", "A payout of $980.00 was released to your account.", "/payout", True),
        ("subscriptionPaid", "Your premium membership is active for one year.", "/dashboard", True),
    ],
    Role.SUB_HOST: [
        (
            "bookingRequested",
            "Rosa Reyes requested Harbourfront Loft for Monday, 10:00 AM to 2:00 PM.",
            "/booking-requests",
            False,
        ),
        ("bookingCancelled", "A booking for Harbourfront Loft was cancelled by the renter.", "/booking", False),
        ("listingRejected", "Queen West Studio needs clearer photos before it can be approved.", "/listing", True),
    ],
    Role.ADMIN: [
        ("listingSubmitted", "Hugo Harper submitted a new listing for review.", "/listing-requests", False),
        ("verificationRequested", "Hannah Host uploaded documents for verification.", "/verificationRequest", False),
        ("disputeRaised", "A renter raised a dispute on a booking at Harbourfront Loft.", "/dispute-requests", False),
        ("listingSubmitted", "Hannah Host edited Harbourfront Loft; it waits for review.", "/listing-requests", True),
    ],
    Role.MODERATOR: [
        ("listingSubmitted", "Hugo Harper submitted a new listing for review.", "/listing-requests", False),
        ("verificationRequested", "Hugo Harper uploaded documents for verification.", "/verificationRequest", False),
        ("disputeRaised", "A host raised a dispute on a booking at Queen West Studio.", "/dispute-requests", True),
    ],
}


def seed(stdout) -> None:
    now = timezone.now()
    created = 0
    for user in get_user_model().objects.filter(email__endswith="@example.com", is_deleted=False):
        demo = DEMO.get(user.role, [])
        if Notification.objects.filter(user=user, content__in=[row[1] for row in demo]).exists():
            continue  # seeded before (other apps' own notifications do not count)
        rows = []
        for age, (kind, content, link, read) in enumerate(demo):
            when = now - timedelta(hours=3 + age * 19)
            rows.append(
                Notification(
                    user=user,
                    kind=kind,
                    type=KINDS[kind].type,
                    content=content,
                    link=link,
                    read=read,
                    seen=read,
                    read_at=when + timedelta(hours=1) if read else None,
                    created_at=when,
                )
            )
        Notification.objects.bulk_create(rows)
        created += len(rows)
    stdout.write(f"  {created} notifications")
