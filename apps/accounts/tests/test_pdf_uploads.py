"""Identity documents: a PDF hiding an action in an object stream is refused (issue 24, 7)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.accounts.models import VerificationDocument
from apps.core.tests import pdfs

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _private(settings, tmp_path):
    field = VerificationDocument._meta.get_field("file")
    original = field.storage
    from django.core.files.storage import FileSystemStorage

    field.storage = FileSystemStorage(location=tmp_path)
    yield
    field.storage = original


@pytest.mark.parametrize("name", ["HEX_OBJECT_STREAM_JAVASCRIPT", "GOTOR_UNC", "URI_UNC", "LAUNCH"])
def test_an_identity_document_with_a_hidden_action_is_refused(clients, name):
    upload = SimpleUploadedFile("id.pdf", getattr(pdfs, name), content_type="application/pdf")
    response = clients["host"].post("/api/user/verification-docs", {"files": [upload]}, format="multipart")
    assert response.status_code == 400
    assert "scripts, actions or embedded files" in response.json()["message"]
    assert not VerificationDocument.objects.exists()


def test_a_plain_identity_document_is_kept(clients):
    upload = SimpleUploadedFile("id.pdf", pdfs.MINIMAL_PDF, content_type="application/pdf")
    response = clients["host"].post("/api/user/verification-docs", {"files": [upload]}, format="multipart")
    assert response.status_code == 201, response.content
