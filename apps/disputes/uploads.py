"""Evidence files: images (re-encoded, which drops EXIF/GPS) and PDF documents, 10 MB each, at most 5."""

from django.core.files.base import ContentFile

from apps.core.exceptions import InvalidInput
from apps.core.files import clean_image_or_pdf

FIELD = "files"
MAX_FILES = 5


def clean_evidence(upload) -> tuple[ContentFile, str, str]:
    """Return (content, display name, content type) for a safe evidence file, or raise InvalidInput."""
    return clean_image_or_pdf(
        upload,
        field=FIELD,
        noun="evidence files",
        default_stem="evidence",
        max_side=2400,
        unreadable="evidence must be an image (JPEG, PNG, WebP or GIF) or a PDF.",
    )


def clean_all(files: list) -> list[tuple[ContentFile, str, str]]:
    if len(files) > MAX_FILES:
        message = f"Attach at most {MAX_FILES} evidence files."
        raise InvalidInput(message, errors={FIELD: [message]})
    return [clean_evidence(upload) for upload in files]
