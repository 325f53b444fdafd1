"""Evidence files: images (re-encoded, which drops EXIF/GPS) and PDF documents, 10 MB each, at most 5."""

import os
import re

from django.core.files.base import ContentFile

from apps.core.exceptions import InvalidInput
from apps.core.images import MAX_UPLOAD_BYTES, reencode_image

FIELD = "files"
MAX_FILES = 5
_UNSAFE = re.compile(r"[^\w.\- ()]+", re.UNICODE)


def _invalid(message: str) -> InvalidInput:
    return InvalidInput(message, errors={FIELD: [message]})


def _clean_name(raw: str, extension: str) -> str:
    base = os.path.basename(str(raw or "")).replace("\x00", "")
    stem = _UNSAFE.sub("_", base.rsplit(".", 1)[0]).strip(" ._")[:150] or "evidence"
    return f"{stem}.{extension}"


def clean_evidence(upload) -> tuple[ContentFile, str, str]:
    """Return (content, display name, content type) for a safe evidence file, or raise InvalidInput."""
    if upload.size > MAX_UPLOAD_BYTES:
        raise _invalid(f"{str(upload.name)[:100]}: evidence files may be at most 10 MB.")
    upload.seek(0)
    head = upload.read(5)
    upload.seek(0)
    if head == b"%PDF-":
        content = ContentFile(upload.read(), name="evidence.pdf")
        return content, _clean_name(upload.name, "pdf"), "application/pdf"
    try:
        image = reencode_image(upload, max_side=2400, field=FIELD)
    except InvalidInput:
        raise _invalid(
            f"{str(upload.name)[:100]}: evidence must be an image (JPEG, PNG, WebP or GIF) or a PDF."
        ) from None
    extension = image.name.rsplit(".", 1)[-1]
    return image, _clean_name(upload.name, extension), "image/png" if extension == "png" else "image/jpeg"


def clean_all(files: list) -> list[tuple[ContentFile, str, str]]:
    if len(files) > MAX_FILES:
        raise _invalid(f"Attach at most {MAX_FILES} evidence files.")
    return [clean_evidence(upload) for upload in files]
