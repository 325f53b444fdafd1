"""Chat attachments: images (re-encoded, which drops EXIF/GPS) and PDF documents, at most 10 MB each."""

from django.core.files.base import ContentFile

from apps.core.files import clean_image_or_pdf

FIELD = "attachments"


def clean_attachment(upload) -> tuple[ContentFile, str, str]:
    """Return (content, display name, content type) for a safe attachment, or raise InvalidInput."""
    return clean_image_or_pdf(upload, field=FIELD, noun="attachments", default_stem="attachment", max_side=2000)
