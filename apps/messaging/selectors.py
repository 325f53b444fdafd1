"""Reads of conversations: a user sees only the conversations they take part in.

Admin and moderator read (never write) the renter-host conversation of a disputed booking, so they
can weigh what the two sides told each other when deciding the dispute.
"""

import uuid

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from apps.accounts.models import STAFF_ROLES, Role
from apps.core.exceptions import InvalidInput, NotFound
from apps.disputes.models import Dispute

from .models import Attachment, Conversation, Message, Side


def _uuid(value, what: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise NotFound(f"{what} not found.") from None


def side_for_role(user) -> str | None:
    if user.role == Role.RENTER:
        return Side.RENTER
    if user.acting_host_id is not None:
        return Side.HOST
    return None


def conversation_queryset_for(user) -> QuerySet[Conversation]:
    """The caller's conversations (renter: their own; host and subHost: the host's); staff none."""
    side = side_for_role(user)
    base = Conversation.objects.select_related("renter", "host", "listing")
    if side == Side.RENTER:
        return base.filter(renter=user)
    if side == Side.HOST:
        return base.filter(host_id=user.acting_host_id)
    return base.none()


def _with_unread(queryset: QuerySet[Conversation], side: str | None) -> QuerySet[Conversation]:
    """``unread_count``: the other side's unread messages, counted per conversation on the partial
    index of unread messages (a join grouped over every message took 80 ms for a conversation of 10,000)."""
    unread = Message.objects.filter(conversation=OuterRef("pk"), read_at__isnull=True)
    if side is not None:
        unread = unread.exclude(sender_side=side)
    counted = unread.order_by().values("conversation").annotate(n=Count("*")).values("n")
    return queryset.annotate(unread_count=Coalesce(Subquery(counted, output_field=IntegerField()), 0))


def conversation_list_for(*, user, search: str = "") -> QuerySet[Conversation]:
    """The caller's conversations, latest first; ``search`` matches the other party's name or e-mail,
    the listing's title or the last message."""
    side = side_for_role(user)
    queryset = conversation_queryset_for(user)
    search = (search or "").strip()[:100]
    if search:
        other = "host" if side == Side.RENTER else "renter"
        words = Q()
        for field in ("first_name", "last_name", "user_name", "email"):
            words |= Q(**{f"{other}__{field}__icontains": search})
        queryset = queryset.filter(words | Q(listing__title__icontains=search) | Q(last_message_text__icontains=search))
    return _with_unread(queryset, side).order_by("-last_message_at", "-id")


def conversation_get_for(*, user, id) -> Conversation:
    """One conversation the caller takes part in; anything else is 404."""
    key = _uuid(id, "Conversation")
    conversation = _with_unread(conversation_queryset_for(user), side_for_role(user)).filter(pk=key).first()
    if conversation is None:
        raise NotFound("Conversation not found.")
    return conversation


MESSAGE_FIELDS = ("id", "conversation_id", "sender_id", "sender_side", "text", "created_at", "delivered_at", "read_at")


def conversation_ref_for(*, user, id) -> Conversation:
    """One conversation the caller takes part in, its ids only (no people, listing or count: what
    reading its messages needs); anything else is 404."""
    key = _uuid(id, "Conversation")
    side = side_for_role(user)
    if side == Side.RENTER:
        found = Conversation.objects.filter(renter=user)
    elif side == Side.HOST:
        found = Conversation.objects.filter(host_id=user.acting_host_id)
    else:
        found = Conversation.objects.none()
    conversation = found.filter(pk=key).only("id", "renter_id", "host_id").first()
    if conversation is None:
        raise NotFound("Conversation not found.")
    return conversation


def message_list_for(*, conversation: Conversation, before=None) -> QuerySet:
    """The conversation's messages newest first, as plain rows (``MESSAGE_FIELDS``).

    ``before``: a message of the conversation; only the messages older than it (the keyset of
    "load earlier": a deep page reads 50 index entries, where an OFFSET walks past every newer one).
    """
    messages = Message.objects.filter(conversation=conversation)
    if before is not None:
        anchor = _message_anchor(conversation, before)
        at = anchor["created_at"]
        messages = messages.filter(Q(created_at__lt=at) | Q(created_at=at, id__lt=anchor["id"]), created_at__lte=at)
    return messages.order_by("-created_at", "-id").values(*MESSAGE_FIELDS)


def _message_anchor(conversation: Conversation, before) -> dict:
    refusal = InvalidInput("before must be a message of this conversation.", errors={"before": ["Not a message here."]})
    try:
        key = uuid.UUID(str(before))
    except ValueError:
        raise refusal from None
    anchor = Message.objects.filter(conversation=conversation, pk=key).values("id", "created_at").first()
    if anchor is None:
        raise refusal
    return anchor


def attachments_of(message_ids) -> dict:
    """The attachments of these messages in one query, as plain rows by message id."""
    found: dict = {}
    rows = Attachment.objects.filter(message_id__in=list(message_ids)).order_by("name")
    for row in rows.values("id", "message_id", "name", "content_type", "size"):
        found.setdefault(row["message_id"], []).append(row)
    return found


def message_get_for(*, user, id) -> Message:
    key = _uuid(id, "Message")
    message = Message.objects.select_related("conversation").filter(pk=key).first()
    if message is None or message.conversation.side_of(user) is None:
        raise NotFound("Message not found.")
    return message


def attachment_get_for(*, user, id) -> Attachment:
    """An attachment of one of the caller's conversations, or (staff) one sent in a dispute's window."""
    key = _uuid(id, "Attachment")
    attachment = Attachment.objects.select_related("message__conversation").filter(pk=key).first()
    if attachment is None:
        raise NotFound("Attachment not found.")
    conversation = attachment.message.conversation
    if conversation.side_of(user) is None and not (
        user.role in STAFF_ROLES and _in_a_dispute_window(conversation, attachment.message.created_at)
    ):
        raise NotFound("Attachment not found.")
    return attachment


def _in_a_dispute_window(conversation: Conversation, sent_at) -> bool:
    """Staff read only what bears on a dispute (least privilege, docs/security.md "Round two"): an
    attachment sent from the disputed booking's request until the dispute was decided (or now, while
    it is pending); the pair's files from before or after stay private."""
    return (
        Dispute.objects.filter(
            renter_id=conversation.renter_id, host_id=conversation.host_id, booking__created_at__lte=sent_at
        )
        .filter(Q(decided_at__isnull=True) | Q(decided_at__gte=sent_at))
        .exists()
    )


def conversation_of_dispute_for(*, user, dispute_id) -> Conversation | None:
    """Admin and moderator: the conversation between the disputed booking's renter and host.

    None when the two never wrote to each other. Anyone else, or an unknown dispute, is 404.
    """
    if user.role not in STAFF_ROLES:
        raise NotFound("Dispute not found.")
    key = _uuid(dispute_id, "Dispute")
    dispute = Dispute.objects.filter(pk=key).values("renter_id", "host_id").first()
    if dispute is None:
        raise NotFound("Dispute not found.")
    return (
        Conversation.objects.select_related("renter", "host", "listing")
        .filter(renter_id=dispute["renter_id"], host_id=dispute["host_id"])
        .first()
    )


def message_notifications_for(*, user) -> list[dict]:
    """One entry per conversation with unread incoming messages, newest first (the Message count)."""
    side = side_for_role(user)
    if side is None:
        return []
    unread = (
        Message.objects.filter(conversation__in=conversation_queryset_for(user), read_at__isnull=True)
        .exclude(sender_side=side)
        .select_related("sender", "conversation")
        .order_by("conversation_id", "-created_at")
        .distinct("conversation_id")
    )
    counts = dict(
        Message.objects.filter(conversation__in=conversation_queryset_for(user), read_at__isnull=True)
        .exclude(sender_side=side)
        .values_list("conversation_id")
        .annotate(n=Count("id"))
        .values_list("conversation_id", "n")
    )
    latest = sorted(unread, key=lambda m: m.created_at, reverse=True)
    return [{"message": m, "count": counts.get(m.conversation_id, 0)} for m in latest]
