import io
import uuid

import pytest
from django.core import mail
from PIL import Image

from apps.core.testing import check_role_matrix
from apps.core.tests.pdfs import MINIMAL_PDF
from apps.listings.factories import ListingFactory
from apps.messaging.models import Conversation, Message
from apps.notifications.models import Notification

pytestmark = pytest.mark.django_db

LIST = "/api/chat/get-all"
START = "/api/chat/start"
DETAIL = "/api/chat/get-single/{}"
MESSAGES = "/api/chat/messages/{}"
SEND = "/api/chat/send/{}"
READ = "/api/chat/mark-as-read/{}"
NOTIFICATIONS = "/api/chat/get-notifications"
ATTACHMENT = "/api/chat/attachment/{}"
SIGNED_IN = ("renter", "other_renter", "host", "other_host", "sub_host", "moderator", "admin")
PARTIES = ("renter", "host", "sub_host")
BAD_IDS = ("nope", "1 OR 1=1", "'; DROP TABLE messaging_message; --", "é🙂", "x" * 3000)


@pytest.fixture
def conversation(clients, users):
    response = clients["renter"].post(START, {"userId": str(users["host"].pk)}, format="json")
    assert response.status_code == 201, response.content
    return Conversation.objects.get(pk=response.json()["data"]["_id"])


def png(name="photo.png") -> io.BytesIO:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), "red").save(buffer, format="PNG")
    buffer.seek(0)
    buffer.name = name
    return buffer


# --- Starting ------------------------------------------------------------------------------------


def test_start_role_matrix(clients, users):
    check_role_matrix(
        clients,
        "post",
        START,
        allowed=("renter", "other_renter"),
        data={"userId": str(users["host"].pk)},
        hidden_status=(400, 403),
    )


def test_renter_starts_with_a_host_or_its_sub_host_and_gets_the_same_conversation(clients, users):
    first = clients["renter"].post(START, {"userId": str(users["host"].pk)}, format="json")
    again = clients["renter"].post(START, {"userId": str(users["sub_host"].pk)}, format="json")
    assert first.status_code == 201 and again.status_code == 200
    assert first.json()["data"]["_id"] == again.json()["data"]["_id"]
    data = again.json()["data"]
    assert data["renter"]["_id"] == str(users["renter"].pk) and data["host"]["_id"] == str(users["host"].pk)
    assert Conversation.objects.count() == 1


def test_renter_starts_from_a_listing(clients, users):
    listing = ListingFactory(host=users["other_host"])
    response = clients["renter"].post(START, {"listingId": str(listing.pk)}, format="json")
    assert response.status_code == 201
    data = response.json()["data"]
    assert data["host"]["_id"] == str(users["other_host"].pk)
    assert data["listing"]["title"] == listing.title
    hidden = ListingFactory(host=users["other_host"], pending=True)
    assert clients["renter"].post(START, {"listingId": str(hidden.pk)}, format="json").status_code == 404


def test_host_side_starts_with_a_renter(clients, users):
    response = clients["sub_host"].post(START, {"userId": str(users["renter"].pk)}, format="json")
    assert response.status_code == 201
    assert response.json()["data"]["host"]["_id"] == str(users["host"].pk)
    assert clients["host"].post(START, {"userId": str(users["renter"].pk)}, format="json").status_code == 200


@pytest.mark.parametrize(
    "actor,target,status",
    [
        ("renter", "other_renter", 400),
        ("renter", "admin", 400),
        ("host", "other_host", 400),
        ("host", "moderator", 400),
        ("moderator", "renter", 403),
        ("admin", "host", 403),
    ],
)
def test_start_only_between_renter_and_host(clients, users, actor, target, status):
    assert clients[actor].post(START, {"userId": str(users[target].pk)}, format="json").status_code == status
    assert not Conversation.objects.exists()


@pytest.mark.parametrize(
    "payload",
    [{}, {"userId": "nope"}, {"userId": 5}, {"userId": str(uuid.uuid4())}, {"listingId": "x" * 5000}, ["userId"]],
)
def test_start_bad_inputs(clients, payload):
    response = clients["renter"].post(START, payload, format="json")
    assert response.status_code in (400, 404)
    assert response.json()["message"]


def test_start_with_a_deleted_host_is_404(clients, users):
    users["other_host"].is_deleted = True
    users["other_host"].save()
    assert clients["renter"].post(START, {"userId": str(users["other_host"].pk)}, format="json").status_code == 404


# --- Reading and sending -------------------------------------------------------------------------


def test_conversation_endpoints_role_matrix(clients, conversation):
    for method, url, data in (
        ("get", DETAIL.format(conversation.pk), None),
        ("get", MESSAGES.format(conversation.pk), None),
        ("patch", READ.format(conversation.pk), None),
    ):
        check_role_matrix(clients, method, url, allowed=PARTIES, data=data, hidden_status=(404,))
    statuses = check_role_matrix(
        clients, "post", SEND.format(conversation.pk), allowed=PARTIES, data={"text": "hi"}, hidden_status=(404,)
    )
    assert {statuses[a] for a in PARTIES} == {201}
    assert Message.objects.count() == 3


def test_list_and_notifications_role_matrix(clients, conversation):
    check_role_matrix(clients, "get", LIST, allowed=SIGNED_IN)
    check_role_matrix(clients, "get", NOTIFICATIONS, allowed=SIGNED_IN)


def test_a_conversation_end_to_end(clients, users, conversation):
    sent = clients["renter"].post(
        SEND.format(conversation.pk), {"text": "  Is the loft free on Friday? 🙂 "}, format="json"
    )
    assert sent.status_code == 201
    assert sent.json()["data"]["text"] == "Is the loft free on Friday? 🙂"
    # The host side sees it as unread, in the list, the Message count and the messages.
    for actor in ("host", "sub_host"):
        listed = clients[actor].get(LIST).json()["data"]["conversations"]
        assert listed[0]["unreadCount"] == 1 and listed[0]["lastMessage"] == "Is the loft free on Friday? 🙂"
        notes = clients[actor].get(NOTIFICATIONS).json()["data"]
        assert notes["totalCount"] == 1 and notes["totalUnread"] == 1
        assert notes["notifications"][0]["sender"]["_id"] == str(users["renter"].pk)
    assert clients["renter"].get(NOTIFICATIONS).json()["data"]["totalCount"] == 0
    assert clients["other_host"].get(LIST).json()["data"]["conversations"] == []
    assert clients["admin"].get(LIST).json()["data"]["conversations"] == []
    # The sub-host answers for the host, then reads.
    clients["sub_host"].post(SEND.format(conversation.pk), {"text": "Yes, from 9am."}, format="json")
    read = clients["sub_host"].patch(READ.format(conversation.pk)).json()["data"]
    assert read == {"updated": 1}
    assert clients["host"].get(NOTIFICATIONS).json()["data"]["totalCount"] == 0
    messages = clients["renter"].get(MESSAGES.format(conversation.pk)).json()["data"]["messages"]
    assert [m["text"] for m in messages] == ["Yes, from 9am.", "Is the loft free on Friday? 🙂"]
    assert messages[1]["readAt"] and messages[1]["deliveredAt"] and messages[0]["readAt"] is None
    assert messages[0]["senderSide"] == "host"
    # The renter gets a message notification (push by default, not in the bell, no e-mail).
    assert not Notification.objects.filter(user=users["renter"]).exists()
    assert mail.outbox == []


def test_messages_are_paginated_newest_first(clients, conversation):
    for i in range(25):
        clients["renter"].post(SEND.format(conversation.pk), {"text": f"message {i}"}, format="json")
    first = clients["host"].get(MESSAGES.format(conversation.pk)).json()["data"]
    assert len(first["messages"]) == 10 and first["totalCount"] == 25 and first["totalPages"] == 3
    assert first["messages"][0]["text"] == "message 24"
    big = clients["host"].get(MESSAGES.format(conversation.pk), {"limit": 1000}).json()["data"]
    assert len(big["messages"]) == 25
    assert clients["host"].get(MESSAGES.format(conversation.pk), {"page": "x"}).status_code == 400


def _thread(conversation, n):
    """``n`` messages a minute apart (the oldest first), one of them with an attachment."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.messaging.models import Attachment

    start = timezone.now() - timedelta(days=1)
    messages = Message.objects.bulk_create(
        Message(
            conversation=conversation,
            sender_id=conversation.renter_id if i % 2 else conversation.host_id,
            sender_side="renter" if i % 2 else "host",
            text=f"m{i}",
            created_at=start + timedelta(minutes=i),
        )
        for i in range(n)
    )
    Attachment.objects.create(message=messages[3], file="chat/x.png", name="plan.png", content_type="image/png", size=3)
    return messages


def test_load_earlier_pages_by_the_oldest_message_shown(clients, conversation):
    _thread(conversation, 30)
    url = MESSAGES.format(conversation.pk)
    first = clients["host"].get(url, {"limit": 10}).json()["data"]
    assert [m["text"] for m in first["messages"]] == [f"m{i}" for i in range(29, 19, -1)]
    # A new message meanwhile does not shift what "load earlier" answers.
    clients["renter"].post(SEND.format(conversation.pk), {"text": "new"}, format="json")
    older = clients["host"].get(url, {"before": first["messages"][-1]["_id"], "limit": 10}).json()["data"]
    assert [m["text"] for m in older["messages"]] == [f"m{i}" for i in range(19, 9, -1)]
    assert older["totalCount"] == 20 and older["totalPages"] == 2
    oldest = clients["host"].get(url, {"before": older["messages"][-1]["_id"], "limit": 10}).json()["data"]
    assert [m["text"] for m in oldest["messages"]] == [f"m{i}" for i in range(9, -1, -1)]
    assert oldest["totalPages"] == 1
    photo = next(m for m in oldest["messages"] if m["text"] == "m3")
    assert [a["name"] for a in photo["attachments"]] == ["plan.png"]
    assert photo["attachments"][0]["url"].startswith("/api/chat/attachment/")


def test_messages_with_equal_times_are_neither_lost_nor_repeated(clients, conversation):
    messages = _thread(conversation, 12)
    Message.objects.filter(pk__in=[m.pk for m in messages]).update(created_at=messages[0].created_at)
    url = MESSAGES.format(conversation.pk)
    seen, before = [], None
    while True:
        data = clients["renter"].get(url, {"limit": 5, **({"before": before} if before else {})}).json()["data"]
        seen += [m["_id"] for m in data["messages"]]
        if data["totalPages"] == 1:
            break
        before = data["messages"][-1]["_id"]
    assert sorted(seen) == sorted(str(m.pk) for m in messages) and len(seen) == 12


@pytest.mark.parametrize("before", ["nope", "6f1c1f44-8f0e-4d0a-9a55-2b1f0c3e9d11", "other"])
def test_load_earlier_refuses_a_message_not_of_the_conversation(clients, users, conversation, before):
    if before == "other":
        other = clients["other_renter"].post(START, {"userId": str(users["host"].pk)}, format="json").json()["data"]
        sent = clients["other_renter"].post(SEND.format(other["_id"]), {"text": "hi"}, format="json")
        before = sent.json()["data"]["_id"]
    response = clients["renter"].get(MESSAGES.format(conversation.pk), {"before": before})
    assert response.status_code == 400
    assert response.json()["message"] == "before must be a message of this conversation."


def test_a_page_costs_the_same_queries_deep_or_shallow(clients, conversation, django_assert_num_queries):
    _thread(conversation, 120)
    url = MESSAGES.format(conversation.pk)
    newest = clients["host"].get(url, {"limit": 50}).json()["data"]["messages"]
    # the signed-in user, the conversation, the count, the page, its attachments
    with django_assert_num_queries(5) as first:
        clients["host"].get(url, {"limit": 50, "page": 1})
    for page in (2, 3):
        with django_assert_num_queries(len(first.captured_queries)):
            assert len(clients["host"].get(url, {"limit": 50, "page": page}).json()["data"]["messages"]) in (50, 20)
    with django_assert_num_queries(len(first.captured_queries) + 1):  # the anchor message
        clients["host"].get(url, {"limit": 50, "before": newest[-1]["_id"]})


@pytest.mark.parametrize(
    "payload",
    [{}, {"text": ""}, {"text": "   "}, {"text": "x" * 5001}, {"text": ["a"]}, {"text": "nul \x00"}],
)
def test_send_bad_inputs(clients, conversation, payload):
    response = clients["renter"].post(SEND.format(conversation.pk), payload, format="json")
    assert response.status_code == 400
    assert response.json()["message"]
    assert not Message.objects.exists()


def test_send_malformed_json(clients, conversation):
    response = clients["renter"].post(SEND.format(conversation.pk), '{"text": ', content_type="application/json")
    assert response.status_code == 400


def test_injection_text_is_stored_as_text(clients, conversation):
    evil = "<script>alert(1)</script>'; DROP TABLE messaging_message; --"
    clients["renter"].post(SEND.format(conversation.pk), {"text": evil}, format="json")
    assert clients["host"].get(MESSAGES.format(conversation.pk)).json()["data"]["messages"][0]["text"] == evil


@pytest.mark.parametrize("bad", BAD_IDS)
def test_bad_conversation_ids_are_404(clients, bad):
    for method, url in (("get", DETAIL), ("get", MESSAGES), ("post", SEND), ("patch", READ), ("get", ATTACHMENT)):
        response = getattr(clients["renter"], method)(url.format(bad), {"text": "x"}, format="json")
        assert response.status_code == 404, (url, response.status_code)


# --- Attachments ---------------------------------------------------------------------------------


def test_attachments_images_and_pdf_only_parties_download(clients, conversation):
    pdf = io.BytesIO(MINIMAL_PDF)
    pdf.name = "contract.pdf"
    response = clients["renter"].post(
        SEND.format(conversation.pk),
        {"text": "Photos", "attachments": [png("../../etc/pic.png"), pdf]},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    attachments = response.json()["data"]["attachments"]
    assert sorted(a["contentType"] for a in attachments) == ["application/pdf", "image/jpeg"]  # re-encoded
    assert all("/" not in a["name"] for a in attachments)
    image = next(a for a in attachments if a["contentType"] == "image/jpeg")
    download = clients["host"].get(image["url"])
    assert download.status_code == 200 and download["Content-Type"] == "image/jpeg"
    assert Image.open(io.BytesIO(b"".join(download.streaming_content))).size == (40, 30)
    for actor in ("other_host", "other_renter", "admin", "moderator"):
        assert clients[actor].get(image["url"]).status_code == 404
    assert clients["anonymous"].get(image["url"]).status_code == 401


def test_attachment_only_without_text(clients, conversation):
    response = clients["renter"].post(SEND.format(conversation.pk), {"attachments": [png()]}, format="multipart")
    assert response.status_code == 201
    assert clients["host"].get(LIST).json()["data"]["conversations"][0]["lastMessage"] == "Sent an attachment"


@pytest.mark.parametrize("content", [b"MZ\x90\x00 not an image", b"<svg onload=alert(1)>", b""])
def test_unsafe_attachments_are_refused(clients, conversation, content):
    upload = io.BytesIO(content)
    upload.name = "evil.png"
    response = clients["renter"].post(SEND.format(conversation.pk), {"attachments": [upload]}, format="multipart")
    assert response.status_code == 400
    assert not Message.objects.exists()


def test_too_many_attachments(clients, conversation):
    response = clients["renter"].post(
        SEND.format(conversation.pk), {"attachments": [png(f"{i}.png") for i in range(6)]}, format="multipart"
    )
    assert response.status_code == 400


def test_start_from_a_booking_only_for_its_parties(clients, users):
    from datetime import timedelta

    from django.db.backends.postgresql.psycopg_any import DateTimeTZRange
    from django.utils import timezone

    from apps.bookings.models import Booking

    listing = ListingFactory(host=users["host"])
    start = timezone.now() + timedelta(days=3)
    end = start + timedelta(hours=4)
    booking = Booking.objects.create(
        listing=listing,
        renter=users["renter"],
        host=users["host"],
        period=DateTimeTZRange(start, end),
        check_in=start,
        check_out=end,
        check_in_date=start.date(),
        check_out_date=end.date(),
        start_time=start.time(),
        end_time=end.time(),
        expires_at=start,
        subtotal=0,
        discount=0,
        convenience_fee=0,
        tax=0,
        price=0,
        total_amount=0,
        commission=0,
    )
    for actor in ("renter", "sub_host"):
        response = clients[actor].post(START, {"bookingId": str(booking.pk)}, format="json")
        assert response.status_code in (200, 201), response.content
        assert response.json()["data"]["bookingId"] == str(booking.pk)
        assert response.json()["data"]["renter"]["_id"] == str(users["renter"].pk)
    for actor in ("other_renter", "other_host"):
        assert clients[actor].post(START, {"bookingId": str(booking.pk)}, format="json").status_code == 404
    assert Conversation.objects.count() == 1


def test_conversation_search_finds_only_the_callers_conversations(clients, users, conversation):
    clients["renter"].post(SEND.format(conversation.pk), {"text": "About the rooftop"}, format="json")
    host_name = users["host"].first_name or users["host"].email.split("@")[0]

    def found(actor, text):
        data = clients[actor].get(LIST, {"filters[search]": text}).json()["data"]
        return [c["_id"] for c in data["conversations"]]

    assert found("renter", host_name[:4]) == [str(conversation.pk)]
    assert found("sub_host", "rooftop") == [str(conversation.pk)]
    assert found("renter", "no such words") == []
    assert found("other_renter", "rooftop") == []
    assert found("other_host", host_name[:4]) == []
    assert clients["renter"].get(LIST, {"filters[search]": "'; DROP TABLE x; --"}).status_code == 200


# --- Live events: sent by the request on commit, the outbox as the retry path ------------------


class _LayerDown:
    async def group_send(self, group, message):
        raise ConnectionError("the channel layer is down")


def _live_effects():
    from apps.core.models import Effect

    return Effect.objects.filter(kind="notifications.groups")


def test_the_request_sends_the_message_event_itself_once_committed(clients, conversation):
    # (the test client runs the request's on-commit callbacks, as a real commit would)
    assert clients["renter"].post(SEND.format(conversation.pk), {"text": "hi"}, format="json").status_code == 201
    [effect] = _live_effects()
    # Sent already: nothing is left for the worker (which would send it twice).
    assert effect.status == "done" and effect.attempts == 1 and effect.payload["event"] == "message"


def test_a_message_event_the_layer_refused_is_retried_by_the_sweep(clients, conversation, monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from apps.core.effects import effects_run_due
    from apps.notifications import realtime

    monkeypatch.setattr(realtime, "get_channel_layer", lambda: _LayerDown())
    sent = clients["renter"].post(SEND.format(conversation.pk), {"text": "hi"}, format="json")
    assert sent.status_code == 201  # the message is saved; only the live copy waits
    [effect] = _live_effects()
    assert effect.status == "pending" and effect.attempts == 1 and "down" in effect.last_error
    monkeypatch.undo()
    assert effects_run_due(now=timezone.now() + timedelta(hours=1)) >= 1
    effect.refresh_from_db()
    assert effect.status == "done"


def test_a_refused_send_queues_no_live_event(clients, conversation, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            clients["renter"].post(SEND.format(conversation.pk), {"text": "x" * 5001}, format="json").status_code == 400
        )
    assert not _live_effects().exists()
