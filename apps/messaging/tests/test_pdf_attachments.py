"""Chat attachments: a PDF hiding an action in an object stream is refused (issue 24, 7)."""

import io

import pytest

from apps.core.tests import pdfs
from apps.messaging.models import Message

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(clients, users):
    response = clients["renter"].post("/api/chat/start", {"userId": str(users["host"].pk)}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["data"]["_id"]


@pytest.mark.parametrize("name", ["HEX_OBJECT_STREAM_JAVASCRIPT", "GOTOR_UNC"])
def test_a_chat_attachment_with_a_hidden_action_is_refused(clients, conversation, name):
    before = Message.objects.count()
    upload = io.BytesIO(getattr(pdfs, name))
    upload.name = "contract.pdf"
    response = clients["renter"].post(
        f"/api/chat/send/{conversation}", {"text": "See", "attachments": [upload]}, format="multipart"
    )
    assert response.status_code == 400
    assert "scripts, actions or embedded files" in response.json()["message"]
    assert Message.objects.count() == before
