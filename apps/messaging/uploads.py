"""Chat attachments: images (re-encoded, which drops EXIF/GPS) and PDF documents, at most 10 MB each."""

import os
import re

from django.core.files.base import ContentFile

from apps.core.exceptions import InvalidInput
from apps.core.images import MAX_UPLOAD_BYTES, reencode_image

FIELD = "attachments"
_UNSAFE = re.compile(r"[^\w.\- ()]+", re.UNICODE)


def _clean_name(raw: str, extension: str) -> str:
    base = os.path.basename(str(raw or "")).replace("\x00", "")
    stem = _UNSAFE.sub("_", base.rsplit(".", 1)[0]).strip(" ._")[:150] or "attachment"
    return f"{stem}.{extension}"


def clean_attachment(upload) -> tuple[ContentFile, str, str]:
    """Return (content, display name, content type) for a safe attachment, or raise InvalidInput."""
    if upload.size > MAX_UPLOAD_BYTES:
        message = f"{str(upload.name)[:100]}: attachments may be at most 10 MB."
        raise InvalidInput(message, errors={FIELD: [message]})
    upload.seek(0)
    head = upload.read(5)
    upload.seek(0)
    if head == b"%PDF-":
        content = ContentFile(upload.read(), name="document.pdf")
        return content, _clean_name(upload.name, "pdf"), "application/pdf"
    image = reencode_image(upload, max_side=2000, field=FIELD)
    extension = image.name.rsplit(".", 1)[-1]
    return image, _clean_name(upload.name, extension), "image/png" if extension == "png" else "image/jpeg"
