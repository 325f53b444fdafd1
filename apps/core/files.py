"""Private uploads (dispute evidence, chat attachments, verification documents) sent to the people allowed."""

from django.http import FileResponse

from .exceptions import NotFound

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
