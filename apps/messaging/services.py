"""Chat writes: starting a conversation, sending, reading, delivery and typing."""

import datetime as dt
import logging
import uuid

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.accounts.models import Role, User
from apps.bookings.models import Booking
from apps.bookings.policies import message_refusal
from apps.core.effects import effect_enqueue, effect_run
from apps.core.exceptions import Forbidden, InvalidInput, NotFound
from apps.notifications import realtime
from apps.notifications.services import notify

from .models import Attachment, Conversation, Message, Side
from .uploads import clean_attachment

logger = logging.getLogger(__name__)

TEXT_MAX = 5000
MAX_ATTACHMENTS = 5
LIVE_RETRY_AFTER = dt.timedelta(seconds=10)
"""When the outbox's sweep takes over a chat event the request could not send (see ``_live``)."""


def _live(groups: list[str], event: str, data: dict) -> None:
    """Send a chat event to the open pages in ``groups`` as soon as the transaction commits.

    The request sends it itself once committed (a worker's round trip cost more than the send:
    docs/decisions/messaging/chat-events-leave-from-the-request-the-outbox-retries-them.md); the event is still an outbox effect, due ``LIVE_RETRY_AFTER``
    later, so when the channel layer is down or the process dies before sending, the sweep
    retries it. A rolled-back change sends nothing.
    """
    payload = {"groups": list(dict.fromkeys(groups)), "event": event, "data": data}
    effect = effect_enqueue("notifications.groups", payload, key=f"live:{uuid.uuid4().hex}", delay=LIVE_RETRY_AFTER)
    effect_id = str(effect.pk)
    transaction.on_commit(lambda: effect_run(effect_id), robust=True)


def conversation_groups(conversation: Conversation, *, side: str | None = None) -> list[str]:
    """Socket groups of one side (or both): the renter's own, and the host's team (host and subHosts)."""
    groups = []
    if side in (None, Side.RENTER):
        groups.append(realtime.user_group(conversation.renter_id))
    if side in (None, Side.HOST):
        groups.append(realtime.team_group(conversation.host_id))
    return groups


def _other(side: str) -> str:
    return Side.HOST if side == Side.RENTER else Side.RENTER


def _counterpart_host(user_id) -> User:
    other = User.objects.filter(pk=user_id, is_deleted=False).select_related("host").first()
    if other is None:
        raise NotFound("User not found.")
    if other.role == Role.SUB_HOST:
        other = other.host
    if other.role != Role.HOST or other.is_deleted:
        raise InvalidInput("A renter can message a host only.", errors={"userId": ["Choose a host."]})
    return other


@transaction.atomic
def conversation_start(*, user, user_id=None, listing=None, booking_id=None) -> tuple[Conversation, bool]:
    """Open (or find) the conversation between the caller and the other side.

    A renter names a host (``user_id``: the host or one of its subHosts), a listing, or a booking;
    a host or subHost names a renter or a booking. Returns the conversation and whether it is new.
    """
    if user.role not in (Role.RENTER, Role.HOST, Role.SUB_HOST):
        raise Forbidden("Only renters and hosts exchange messages.")
    renter = host = None
    if booking_id is not None:
        booking = Booking.objects.select_related("renter", "host").filter(pk=booking_id).first()
        if booking is None:
            raise NotFound("Booking not found.")
        refusal = message_refusal(user, booking)
        if refusal is not None:
            raise refusal
        renter, host = booking.renter, booking.host
    elif user.role == Role.RENTER:
        if listing is not None:
            host = listing.host
        elif user_id is not None:
            host = _counterpart_host(user_id)
        else:
            raise InvalidInput("Send userId or listingId.", errors={"userId": ["Send userId or listingId."]})
        renter = user
    else:
        if user_id is None:
            raise InvalidInput("Send the renter's userId.", errors={"userId": ["Send the renter's userId."]})
        renter = User.objects.filter(pk=user_id, is_deleted=False).first()
        if renter is None:
            raise NotFound("User not found.")
        if renter.role != Role.RENTER:
            raise InvalidInput("A host can message a renter only.", errors={"userId": ["Choose a renter."]})
        host = User.objects.get(pk=user.acting_host_id)
        if listing is not None and listing.host_id != host.pk:
            listing = None
    if host.is_deleted or renter.is_deleted:
        raise NotFound("User not found.")
    conversation, created = Conversation.objects.get_or_create(renter=renter, host=host)
    changed = []
    if listing is not None and conversation.listing_id != listing.pk:
        conversation.listing = listing
        changed.append("listing")
    if booking_id is not None and conversation.booking_id != booking_id:
        conversation.booking_id = booking_id
        changed.append("booking_id")
    if changed:
        conversation.save(update_fields=changed)
    return conversation, created


@transaction.atomic
def message_send(*, user, conversation: Conversation, text: str = "", files=()) -> Message:
    side = conversation.side_of(user)
    if side is None:
        raise NotFound("Conversation not found.")
    text = (text or "").strip()
    files = list(files)
    if len(text) > TEXT_MAX:
        raise InvalidInput(f"A message may be at most {TEXT_MAX} characters.", errors={"text": ["Too long."]})
    if "\x00" in text:
        raise InvalidInput("The message contains characters that are not allowed.", errors={"text": ["Not valid."]})
    if len(files) > MAX_ATTACHMENTS:
        message = f"Attach at most {MAX_ATTACHMENTS} files to one message."
        raise InvalidInput(message, errors={"attachments": [message]})
    if not text and not files:
        raise InvalidInput("Write a message or attach a file.", errors={"text": ["Write a message or attach a file."]})
    cleaned = [clean_attachment(upload) for upload in files]

    now = timezone.now()
    message = Message.objects.create(
        conversation=conversation, sender=user, sender_side=side, text=text, created_at=now
    )
    for content, name, content_type in cleaned:
        attachment = Attachment(message=message, name=name, content_type=content_type, size=content.size)
        attachment.file.save(content.name, content, save=False)
        attachment.save()
    preview = text[:200] if text else "Sent an attachment"
    Conversation.objects.filter(pk=conversation.pk).update(last_message_at=now, last_message_text=preview)
    conversation.last_message_at, conversation.last_message_text = now, preview

    from .serializers import message_payload

    payload = message_payload(message, attachments=list(message.attachments.all()))
    groups = conversation_groups(conversation)
    _live(groups, "message", {"conversationId": str(conversation.pk), "message": payload})
    sender_name = user.display_name
    for recipient in _recipients(conversation, _other(side)):
        notify(
            user=recipient,
            kind="messageReceived",
            content=f"{sender_name}: {preview}",
            link=f"/message?conversationId={conversation.pk}",
        )
    return message


def _recipients(conversation: Conversation, side: str) -> list[User]:
    if side == Side.RENTER:
        return list(User.objects.filter(pk=conversation.renter_id, is_deleted=False))
    return list(
        User.objects.filter(Q(pk=conversation.host_id) | Q(host_id=conversation.host_id, role=Role.SUB_HOST))
        .filter(is_deleted=False)
        .only("id", "email", "first_name", "notification_settings", "is_deleted")
    )


@transaction.atomic
def conversation_mark_read(*, user, conversation: Conversation) -> int:
    """Mark the other side's messages read (and delivered); tell the other side's open pages."""
    side = conversation.side_of(user)
    if side is None:
        raise NotFound("Conversation not found.")
    now = timezone.now()
    incoming = conversation.messages.filter(read_at__isnull=True, sender_side=_other(side))
    conversation.messages.filter(delivered_at__isnull=True, sender_side=_other(side)).update(delivered_at=now)
    updated = incoming.update(read_at=now)
    if updated:
        data = {"conversationId": str(conversation.pk), "readAt": now.isoformat().replace("+00:00", "Z"), "by": side}
        groups = conversation_groups(conversation)
        _live(groups, "read", data)
    return updated


@transaction.atomic
def message_mark_delivered(*, user, message: Message) -> bool:
    """The recipient's page received ``message``; the sender's pages learn it was delivered."""
    side = message.conversation.side_of(user)
    if side is None:
        raise NotFound("Message not found.")
    if side == message.sender_side:
        return False
    now = timezone.now()
    if not Message.objects.filter(pk=message.pk, delivered_at__isnull=True).update(delivered_at=now):
        return False
    data = {
        "conversationId": str(message.conversation_id),
        "messageId": str(message.pk),
        "deliveredAt": now.isoformat().replace("+00:00", "Z"),
    }
    groups = conversation_groups(message.conversation, side=message.sender_side)
    _live(groups, "delivered", data)
    return True


def typing_signal(*, user, conversation: Conversation, is_typing: bool) -> None:
    """Show the other side that the caller is typing (nothing is stored)."""
    side = conversation.side_of(user)
    if side is None:
        raise NotFound("Conversation not found.")
    data = {
        "conversationId": str(conversation.pk),
        "userId": str(user.pk),
        "name": user.display_name,
        "isTyping": bool(is_typing),
    }
    realtime.send_to_groups(conversation_groups(conversation, side=_other(side)), "typing", data)
