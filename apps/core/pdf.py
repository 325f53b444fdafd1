"""PDF uploads without active content.

Identity documents, dispute evidence and chat attachments may be PDFs. One is refused when it can
do anything but show pages: script (``/JavaScript``, ``/JS``), automatic or launch actions
(``/AA``, ``/Launch``, ``/SubmitForm``, ``/ImportData``, ``/GoToE``), embedded files or media
(``/EmbeddedFile``, ``/RichMedia``), XFA forms, or HTML inside (a PDF and HTML polyglot). Names
written with ``#xx`` escapes are decoded first, and compressed (Flate) streams, object streams
included, are inflated and searched too, within a bound.
"""

import re
import zlib

from .exceptions import InvalidInput

MAX_INFLATED_BYTES = 64 * 1024 * 1024

_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_ACTIVE = re.compile(
    rb"/(JavaScript|JS|AA|Launch|SubmitForm|ImportData|GoToE|EmbeddedFiles?|RichMedia|XFA)(?![A-Za-z0-9])"
)
_HTML = re.compile(rb"<\s*(html|script|body|iframe|svg|object|embed|meta)\b", re.IGNORECASE)
_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\n?endstream", re.DOTALL)


def _decoded_names(data: bytes) -> bytes:
    return _NAME_ESCAPE.sub(lambda match: bytes([int(match.group(1), 16)]), data)


def _inflated_streams(data: bytes):
    total = 0
    for match in _STREAM.finditer(data):
        inflater = zlib.decompressobj()
        try:
            chunk = inflater.decompress(match.group(1), MAX_INFLATED_BYTES - total + 1)
        except zlib.error:
            continue  # not Flate (an image's DCT data, say): nothing to read
        total += len(chunk)
        if total > MAX_INFLATED_BYTES:
            raise ValueError("inflates too far")
        yield chunk


def pdf_problem(data: bytes) -> str | None:
    """Why this PDF is refused, or None when it only shows pages."""
    if not data.startswith(b"%PDF-"):
        return "is not a PDF."
    if b"%%EOF" not in data[-4096:]:
        return "is not a complete PDF."
    try:
        parts = [data, *_inflated_streams(data)]
    except ValueError:
        return "is a PDF we cannot check (it expands too far)."
    for part in parts:
        if _HTML.search(part):
            return "contains web page content, which a document may not."
        if _ACTIVE.search(_decoded_names(part)):
            return "contains scripts, actions or embedded files, which a document may not. Print it to a new PDF."
    return None


def check_pdf(upload, *, field: str, shown: str) -> bytes:
    """Return the PDF's bytes, or raise InvalidInput saying why it is refused."""
    upload.seek(0)
    data = upload.read()
    upload.seek(0)
    problem = pdf_problem(data)
    if problem:
        message = f"{shown} {problem}"
        raise InvalidInput(message, errors={field: [message]})
    return data
