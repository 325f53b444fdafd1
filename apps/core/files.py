"""Private uploads (dispute evidence, chat attachments, verification documents): checked on the way
in, and sent only to the people allowed on the way out."""

import os
import re

from django.core.files.base import ContentFile
from django.http import FileResponse

from .exceptions import InvalidInput, NotFound
from .images import MAX_UPLOAD_BYTES, reencode_image
from .pdf import check_pdf

PRIVATE_FILE_CSP = "default-src 'none'; img-src 'self'; object-src 'self'; sandbox"


def private_file_response(
    file,
    *,
    name: str,
    content_type: str,
    missing_message: str,
    cache_control: str = "private, max-age=3600",
    as_attachment: bool | None = None,
) -> FileResponse:
    """Stream a stored file after the caller's access was checked (by a selector) with safe headers.

    The browser is told not to guess the type (nosniff), shared caches keep no copy, and the file is
    sandboxed so an upload can never run script on our origin. A PDF downloads and an image shows
    inline unless ``as_attachment`` says otherwise. A file missing from storage is a 404 with
    ``missing_message``, never a 500.
    """
    try:
        handle = file.open("rb")
    except OSError:
        raise NotFound(missing_message) from None
    if as_attachment is None:
        as_attachment = content_type == "application/pdf"
    response = FileResponse(handle, content_type=content_type, as_attachment=as_attachment, filename=name)
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = cache_control
    response["Content-Security-Policy"] = PRIVATE_FILE_CSP
    return response


_UNSAFE_NAME = re.compile(r"[^\w.\- ()]+", re.UNICODE)


def clean_file_name(raw, extension: str, *, default_stem: str) -> str:
    """A display name without folders or odd characters, ending in ``extension``."""
    base = os.path.basename(str(raw or "")).replace("\x00", "")
    stem = _UNSAFE_NAME.sub("_", base.rsplit(".", 1)[0]).strip(" ._")[:150] or default_stem
    return f"{stem}.{extension}"


def clean_image_or_pdf(
    upload, *, field: str, noun: str, default_stem: str, max_side: int, unreadable: str | None = None
) -> tuple[ContentFile, str, str]:
    """Return (content, display name, content type) for an upload of at most 10 MB, or raise InvalidInput.

    A PDF is kept as sent unless it has active content (refused); anything else must be an image, re-encoded (which drops EXIF and GPS data)
    to at most ``max_side`` pixels. ``noun`` names the files in the size message; ``unreadable``, when
    given, replaces the image checker's message for a file that is not a readable image.
    """
    shown = str(upload.name)[:100]
    if upload.size > MAX_UPLOAD_BYTES:
        message = f"{shown}: {noun} may be at most 10 MB."
        raise InvalidInput(message, errors={field: [message]})
    upload.seek(0)
    head = upload.read(5)
    upload.seek(0)
    if head == b"%PDF-":
        content = ContentFile(check_pdf(upload, field=field, shown=f"{shown}:"), name=f"{default_stem}.pdf")
        return content, clean_file_name(upload.name, "pdf", default_stem=default_stem), "application/pdf"
    try:
        image = reencode_image(upload, max_side=max_side, field=field)
    except InvalidInput:
        if unreadable is None:
            raise
        message = f"{shown}: {unreadable}"
        raise InvalidInput(message, errors={field: [message]}) from None
    extension = image.name.rsplit(".", 1)[-1]
    content_type = "image/png" if extension == "png" else "image/jpeg"
    return image, clean_file_name(upload.name, extension, default_stem=default_stem), content_type
