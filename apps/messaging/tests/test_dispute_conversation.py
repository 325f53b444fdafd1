"""Admin and moderator read (never write) the renter-host conversation of a disputed booking."""

import io

import pytest
from PIL import Image

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.core.testing import check_role_matrix
from apps.disputes import services as disputes
from apps.messaging.models import Conversation, Message

pytestmark = pytest.mark.django_db

START = "/api/chat/start"
DISPUTE = "/api/chat/dispute/{}"
DETAIL = "/api/chat/get-single/{}"
MESSAGES = "/api/chat/messages/{}"
SEND = "/api/chat/send/{}"
READ = "/api/chat/mark-as-read/{}"
STAFF = ("admin", "moderator")


def start(client, user) -> Conversation:
    response = client.post(START, {"userId": str(user.pk)}, format="json")
    assert response.status_code in (200, 201), response.content
    return Conversation.objects.get(pk=response.json()["data"]["_id"])


def png() -> io.BytesIO:
    buffer = io.BytesIO()
    Image.new("RGB", (20, 10), "blue").save(buffer, format="PNG")
    buffer.seek(0)
    buffer.name = "damage.png"
    return buffer


@pytest.fixture
def dispute(users, django_capture_on_commit_callbacks):
    """The renter's approved booking at the host's space, disputed by the renter."""
    listing = PricedEventListingFactory(host=users["host"])
    booking = booking_make(renter=users["renter"], listing=listing)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
        return disputes.dispute_raise(user=users["renter"], booking_id=booking.pk, reason="The projector was broken.")


@pytest.fixture
def conversation(clients, users, dispute):
    conversation = start(clients["renter"], users["host"])
    clients["renter"].post(SEND.format(conversation.pk), {"text": "The projector does not turn on."}, format="json")
    clients["sub_host"].post(SEND.format(conversation.pk), {"text": "We will bring another one."}, format="json")
    return conversation


def test_role_matrix(clients, dispute, conversation):
    statuses = check_role_matrix(clients, "get", DISPUTE.format(dispute.pk), allowed=STAFF)
    assert {statuses[actor] for actor in STAFF} == {200}


def test_staff_read_the_disputed_conversation_newest_first(clients, users, dispute, conversation):
    for actor in STAFF:
        response = clients[actor].get(DISPUTE.format(dispute.pk))
        assert response.status_code == 200, response.content
        data = response.json()["data"]
        assert data["conversation"]["_id"] == str(conversation.pk)
        assert data["conversation"]["renter"]["_id"] == str(users["renter"].pk)
        assert data["conversation"]["host"]["_id"] == str(users["host"].pk)
        assert [m["text"] for m in data["messages"]] == [
            "We will bring another one.",
            "The projector does not turn on.",
        ]
        assert (data["totalCount"], data["page"], data["limit"], data["totalPages"]) == (2, 1, 10, 1)
    paged = clients["admin"].get(DISPUTE.format(dispute.pk), {"page": 2, "limit": 1}).json()["data"]
    assert [m["text"] for m in paged["messages"]] == ["The projector does not turn on."]
    assert clients["admin"].get(DISPUTE.format(dispute.pk), {"page": "x"}).status_code == 400


def test_reading_marks_nothing_read_and_staff_cannot_write(clients, dispute, conversation):
    clients["moderator"].get(DISPUTE.format(dispute.pk))
    assert Message.objects.filter(read_at__isnull=False).count() == 0
    for actor in STAFF:
        assert clients[actor].post(SEND.format(conversation.pk), {"text": "Hello"}, format="json").status_code == 404
        assert clients[actor].patch(READ.format(conversation.pk)).status_code == 404
    assert Message.objects.count() == 2
    assert Message.objects.filter(read_at__isnull=False).count() == 0


def test_staff_download_attachments_of_the_disputed_conversation_only(clients, users, dispute, conversation):
    sent = clients["renter"].post(SEND.format(conversation.pk), {"attachments": [png()]}, format="multipart")
    disputed_url = sent.json()["data"]["attachments"][0]["url"]
    other = start(clients["other_renter"], users["host"])
    sent = clients["other_renter"].post(SEND.format(other.pk), {"attachments": [png()]}, format="multipart")
    undisputed_url = sent.json()["data"]["attachments"][0]["url"]
    for actor in STAFF:
        download = clients[actor].get(disputed_url)
        assert download.status_code == 200 and download["Content-Type"] == "image/jpeg"
        assert clients[actor].get(undisputed_url).status_code == 404
    assert clients["other_renter"].get(disputed_url).status_code == 404
    assert clients["other_host"].get(disputed_url).status_code == 404


def test_staff_cannot_read_a_conversation_without_a_dispute(clients, users, dispute, conversation):
    other = start(clients["other_renter"], users["host"])
    clients["other_renter"].post(SEND.format(other.pk), {"text": "Private question"}, format="json")
    for actor in STAFF:
        assert clients[actor].get(DETAIL.format(other.pk)).status_code == 404
        assert clients[actor].get(MESSAGES.format(other.pk)).status_code == 404
        # The disputed conversation is read through its dispute, not the parties' endpoints.
        assert clients[actor].get(DETAIL.format(conversation.pk)).status_code == 404
        listed = clients[actor].get(DISPUTE.format(dispute.pk)).json()["data"]["messages"]
        assert "Private question" not in [m["text"] for m in listed]


def test_a_dispute_whose_parties_never_wrote_has_no_conversation(clients, dispute):
    data = clients["admin"].get(DISPUTE.format(dispute.pk)).json()["data"]
    assert data["conversation"] is None
    assert data["messages"] == [] and data["totalCount"] == 0


@pytest.mark.parametrize("bad", ["nope", "1 OR 1=1", "é🙂", "x" * 3000, "6f1c2a4e-0d3b-4f5a-9c7e-2b8d1e0a9f34"])
def test_unknown_or_bad_dispute_ids_are_404(clients, bad):
    response = clients["admin"].get(DISPUTE.format(bad))
    assert response.status_code == 404
    assert response.json()["message"] == "Dispute not found."


def test_parties_keep_their_own_conversation_unchanged(clients, users, dispute, conversation):
    for actor in ("renter", "host", "sub_host"):
        messages = clients[actor].get(MESSAGES.format(conversation.pk)).json()["data"]["messages"]
        assert len(messages) == 2
    for actor in ("other_renter", "other_host"):
        assert clients[actor].get(MESSAGES.format(conversation.pk)).status_code == 404
    sent = clients["host"].post(SEND.format(conversation.pk), {"text": "Sorted."}, format="json")
    assert sent.status_code == 201


def test_staff_read_only_attachments_sent_in_the_disputes_window(clients, users, dispute, conversation):
    """Least privilege (issue 24): from the disputed booking's request until the dispute is decided."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.messaging.models import Attachment

    def send_attachment() -> tuple[str, Attachment]:
        sent = clients["renter"].post(SEND.format(conversation.pk), {"attachments": [png()]}, format="multipart")
        data = sent.json()["data"]["attachments"][0]
        return data["url"], Attachment.objects.get(pk=data["_id"])

    before_url, before = send_attachment()
    Message.objects.filter(pk=before.message_id).update(created_at=dispute.booking.created_at - timedelta(days=3))
    within_url, _ = send_attachment()
    for actor in STAFF:
        assert clients[actor].get(within_url).status_code == 200
        assert clients[actor].get(before_url).status_code == 404
    # Once decided, what the pair sends afterwards is theirs alone.
    type(dispute).objects.filter(pk=dispute.pk).update(decided_at=timezone.now() - timedelta(minutes=1))
    after_url, _ = send_attachment()
    for actor in STAFF:
        assert clients[actor].get(after_url).status_code == 404
    assert clients["renter"].get(before_url).status_code == 200
