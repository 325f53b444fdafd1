"""Demo chat: a conversation between the demo renter and the demo host (its subHost answers too)."""

from datetime import timedelta

from django.utils import timezone

from apps.accounts.models import User
from apps.listings.models import Listing

from .models import Conversation, Message, Side

THREAD = [
    # (who, text, minutes ago)
    ("renter", "Hi! Is the loft available this Friday from 9 to 5 for a team workshop of 12?", 60 * 26),
    ("host", "Hello Riley, yes it is. The projector and the whiteboard are included.", 60 * 25),
    ("renter", "Great. Is there parking nearby?", 60 * 24),
    ("subhost", "There is a public garage next door, about $15 for the day.", 60 * 5),
    ("host", "I have approved your booking. See you on Friday!", 30),
]


def seed(stdout) -> None:
    people = {
        u.email: u
        for u in User.objects.filter(email__in=["renter@example.com", "host@example.com", "subhost@example.com"])
    }
    renter, host = people.get("renter@example.com"), people.get("host@example.com")
    if renter is None or host is None:
        stdout.write("  no demo renter or host; skipped conversations")
        return
    conversation, _ = Conversation.objects.get_or_create(renter=renter, host=host)
    if conversation.listing_id is None:
        conversation.listing = Listing.objects.filter(host=host, is_deleted=False).order_by("created_at").first()
    if not conversation.messages.exists():
        now = timezone.now()
        senders = {"renter": renter, "host": host, "subhost": people.get("subhost@example.com") or host}
        for who, text, minutes in THREAD:
            at = now - timedelta(minutes=minutes)
            side = Side.RENTER if who == "renter" else Side.HOST
            # Everything is read except the host's last message, which the renter has not opened yet.
            read = minutes > 60
            Message.objects.create(
                conversation=conversation,
                sender=senders[who],
                sender_side=side,
                text=text,
                created_at=at,
                delivered_at=at,
                read_at=at + timedelta(minutes=2) if read else None,
            )
        conversation.last_message_at = now - timedelta(minutes=THREAD[-1][2])
        conversation.last_message_text = THREAD[-1][1][:200]
    conversation.save()
    stdout.write(f"  {Message.objects.filter(conversation=conversation).count()} messages in the demo conversation")
