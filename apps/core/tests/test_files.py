import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.core.exceptions import InvalidInput, NotFound
from apps.core.files import clean_image_or_pdf, private_file_response
from apps.core.tests.pdfs import MINIMAL_PDF


@pytest.fixture
def storage(tmp_path):
    return FileSystemStorage(location=tmp_path)


def stored(storage, name: str, content: bytes):
    return storage.open(storage.save(name, ContentFile(content)), "rb")


def test_an_image_shows_inline_with_the_safe_headers(storage):
    response = private_file_response(
        stored(storage, "a.png", b"\x89PNG"), name="photo.png", content_type="image/png", missing_message="Gone."
    )
    assert b"".join(response.streaming_content) == b"\x89PNG"
    assert response["Content-Type"] == "image/png"
    assert response["Content-Disposition"].startswith("inline") and "photo.png" in response["Content-Disposition"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Cache-Control"] == "private, max-age=3600"
    assert "sandbox" in response["Content-Security-Policy"]
    assert "default-src 'none'" in response["Content-Security-Policy"]


def test_a_pdf_downloads_unless_told_to_show_inline(storage):
    pdf = private_file_response(
        stored(storage, "r.pdf", b"%PDF-1.4"), name="r.pdf", content_type="application/pdf", missing_message="Gone."
    )
    assert pdf["Content-Disposition"].startswith("attachment")
    inline = private_file_response(
        stored(storage, "s.pdf", b"%PDF-1.4"),
        name="s.pdf",
        content_type="application/pdf",
        missing_message="Gone.",
        cache_control="private, no-store",
        as_attachment=False,
    )
    assert inline["Content-Disposition"].startswith("inline")
    assert inline["Cache-Control"] == "private, no-store"


def test_a_file_missing_from_storage_is_not_found_with_the_message(storage):
    class Missing:
        def open(self, mode):
            return storage.open("nowhere.pdf", mode)

    with pytest.raises(NotFound) as raised:
        private_file_response(Missing(), name="x.pdf", content_type="application/pdf", missing_message="Gone.")
    assert raised.value.message == "Gone."


def upload(name: str, content: bytes):
    return SimpleUploadedFile(name, content)


def test_a_pdf_is_kept_and_its_name_cleaned():
    content, name, content_type = clean_image_or_pdf(
        upload("../../etc/ré:port?.pdf", MINIMAL_PDF),
        field="files",
        noun="files",
        default_stem="file",
        max_side=10,
    )
    assert (name, content_type) == ("ré_port.pdf", "application/pdf")
    assert content.read() == MINIMAL_PDF


def test_an_unreadable_file_gets_the_callers_message_or_the_image_checkers():
    with pytest.raises(InvalidInput) as own:
        clean_image_or_pdf(
            upload("x.exe", b"MZ\x90"), field="files", noun="files", default_stem="f", max_side=10, unreadable="No."
        )
    assert own.value.message == "x.exe: No." and own.value.errors == {"files": ["x.exe: No."]}
    with pytest.raises(InvalidInput) as checker:
        clean_image_or_pdf(upload("x.exe", b"MZ\x90"), field="attachments", noun="files", default_stem="f", max_side=10)
    assert "not an image we can read" in checker.value.message and "attachments" in checker.value.errors
