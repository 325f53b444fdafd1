"""Dispute evidence: a PDF hiding an action in an object stream is refused (issue 24, 7)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.core.tests import pdfs
from apps.disputes.models import Dispute, DisputeEvidence

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["HEX_OBJECT_STREAM_JAVASCRIPT", "GOTOR_UNC"])
def test_dispute_evidence_with_a_hidden_action_is_refused(clients, paid_booking, name):
    upload = SimpleUploadedFile("receipt.pdf", getattr(pdfs, name), content_type="application/pdf")
    response = clients["renter"].post(
        "/api/dispute/create",
        {"bookingId": str(paid_booking.pk), "reason": "Broken projector.", "files": [upload]},
        format="multipart",
    )
    assert response.status_code == 400
    assert "scripts, actions or embedded files" in response.json()["message"]
    assert not Dispute.objects.exists() and not DisputeEvidence.objects.exists()
