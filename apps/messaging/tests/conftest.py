import pytest
from django.core.files.storage import FileSystemStorage

from apps.messaging.models import Attachment


@pytest.fixture(autouse=True)
def _attachments_in_tmp(tmp_path):
    """Attachments written by a test go to its temporary directory."""
    field = Attachment._meta.get_field("file")
    original = field.storage
    field.storage = FileSystemStorage(location=tmp_path / "private")
    yield
    field.storage = original
