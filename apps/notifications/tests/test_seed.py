import io

import pytest

from apps.accounts import seed as accounts_seed
from apps.accounts.models import User
from apps.messaging import seed as messaging_seed
from apps.messaging.models import Conversation, Message
from apps.notifications import seed as notifications_seed
from apps.notifications.models import Notification

pytestmark = pytest.mark.django_db


def test_demo_accounts_get_unread_and_read_notifications_and_a_conversation_idempotently(clients):
    out = io.StringIO()
    accounts_seed.seed(out)
    for _ in range(2):
        notifications_seed.seed(out)
        messaging_seed.seed(out)
    demo = User.objects.filter(email__endswith="@example.com")
    assert demo.count() >= 7
    for user in demo:
        mine = Notification.objects.filter(user=user)
        if user.role == "renter" or user.is_host_side or user.role in ("admin", "moderator"):
            assert mine.filter(read=False).exists(), user.email
            assert mine.filter(read=True).exists(), user.email
    assert Conversation.objects.count() == 1
    conversation = Conversation.objects.get()
    assert conversation.renter.email == "renter@example.com" and conversation.host.email == "host@example.com"
    assert Message.objects.count() == 5
    assert Message.objects.filter(read_at__isnull=True, sender_side="host").count() == 1
