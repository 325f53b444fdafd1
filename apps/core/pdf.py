"""PDF uploads without active content, checked with a real parser (qpdf, through pikepdf).

Identity documents, dispute evidence and chat attachments may be PDFs. One is refused when it can
do anything but show pages. Two passes:

1. On the bytes: HTML inside (a PDF and HTML polyglot), the names of active content in plain or
   decoded bytes (names with ``#xx`` escapes decoded), and a bound on what the streams expand to
   (Flate, also behind ASCIIHex or ASCII85 encodings), so the parser never inflates a bomb; the
   LZW and RunLength filters, which nothing needs for a scanned document and which could expand
   without that bound, are refused.
2. With the parser, which reads every object, those inside object streams included, whatever
   their filters: every dictionary, stream dictionary and array is walked, against allow-lists of
   what a document that only shows pages carries. An action (``/A``, ``/OpenAction``, ``/PA``,
   ``/Next``, or ``/Type /Action``) may only jump inside the document (``/GoTo``), go to the
   next page and the like (``/Named``) or open an ``http(s)`` address (``/URI``; not ``file:``,
   UNC paths or ``javascript:``); an annotation is one of ``ALLOWED_ANNOTATIONS`` (no 3D, rich
   media, screen, movie, sound or file attachment); an external object is an image or a form
   (no PostScript), and never a reference to another file (``/Ref``). Script keys (``/JS``, a
   ``/JavaScript`` name tree, a 3D view's ``/OnInstantiate``), automatic actions (``/AA``),
   embedded files and XFA forms are refused wherever they sit. A file the parser cannot read is
   refused too: what it cannot read, it cannot vouch for.
"""

import base64
import contextlib
import io
import re
import zlib
from urllib.parse import urlsplit

import pikepdf

from .exceptions import InvalidInput

MAX_INFLATED_BYTES = 64 * 1024 * 1024
MAX_OBJECTS = 200_000

_HTML = re.compile(rb"<\s*(html|script|body|iframe|svg|object|embed|meta)\b", re.IGNORECASE)
_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\n?endstream", re.DOTALL)
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_UNBOUNDED_FILTER = re.compile(rb"/(LZWDecode|LZW|RunLengthDecode|RL)(?![A-Za-z0-9])")
_ACTIVE_NAME = re.compile(
    rb"/(JavaScript|JS|AA|Launch|GoToR|GoToE|SubmitForm|ImportData|EmbeddedFiles?|RichMedia|XFA|OnInstantiate|3DD"
    rb"|Thread)(?![A-Za-z0-9])"
)
_HEX = re.compile(rb"^[0-9A-Fa-f\s]+>?\s*$")

ACTIVE_MESSAGE = "contains scripts, actions or embedded files, which a document may not. Print it to a new PDF."
_BAD_ACTIONS = {
    "/JavaScript",
    "/Launch",
    "/GoToR",
    "/GoToE",
    "/SubmitForm",
    "/ImportData",
    "/RichMediaExecute",
    "/Rendition",
    "/Movie",
    "/Sound",
}
_BAD_KEYS = {
    "/JS",
    "/JavaScript",
    "/AA",
    "/EmbeddedFiles",
    "/EF",
    "/XFA",
    "/RichMediaContent",
    "/RichMediaSettings",
    "/OnInstantiate",
    "/3DD",
    "/Ref",
}
_BAD_TYPES = {"/EmbeddedFile", "/RichMedia", "/FileAttachment", "/Filespec"}
# What a document that only shows pages may carry.
ALLOWED_ACTIONS = {"/GoTo", "/URI", "/Named"}
ALLOWED_ANNOTATIONS = {
    "/Link", "/Text", "/FreeText", "/Line", "/Square", "/Circle", "/Polygon", "/PolyLine", "/Highlight",
    "/Underline", "/Squiggly", "/StrikeOut", "/Stamp", "/Caret", "/Ink", "/Popup", "/Widget", "/Redact",
    "/Watermark", "/PrinterMark",
}  # fmt: skip
ALLOWED_XOBJECTS = {"/Image", "/Form"}
_ACTION_KEYS = ("/A", "/OpenAction", "/PA", "/Next")


class _Refused(Exception):
    pass


def _decoded_variants(raw: bytes, budget: list[int], depth: int = 0):
    """``raw`` and what it decodes to as Flate, ASCIIHex or ASCII85 (chained), within the budget."""
    yield raw
    if depth >= 3:
        return
    candidates = []
    try:
        inflater = zlib.decompressobj()
        candidates.append(inflater.decompress(raw, budget[0] + 1))
    except zlib.error:
        pass
    if raw and _HEX.match(raw[:65536]) and _HEX.match(raw):
        digits = re.sub(rb"[^0-9A-Fa-f]", b"", raw)
        candidates.append(bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode()))
    if raw.rstrip().endswith(b"~>"):
        with contextlib.suppress(ValueError):
            candidates.append(base64.a85decode(raw.strip(), adobe=raw.strip().startswith(b"<~")))
    for chunk in candidates:
        budget[0] -= len(chunk)
        if budget[0] < 0:
            raise ValueError("expands too far")
        yield from _decoded_variants(chunk, budget, depth + 1)


def _byte_problem(data: bytes) -> str | None:
    budget = [MAX_INFLATED_BYTES]
    try:
        parts = [data]
        for match in _STREAM.finditer(data):
            parts.extend(_decoded_variants(match.group(1), budget))
    except ValueError:
        return "is a PDF we cannot check (it expands too far)."
    for part in parts:
        if _HTML.search(part):
            return "contains web page content, which a document may not."
        names = _NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), part)
        if _ACTIVE_NAME.search(names):
            return ACTIVE_MESSAGE  # also where the parser would not look (objects outside the cross-reference)
        if _UNBOUNDED_FILTER.search(names):
            return "uses a compression we do not accept (LZW or RunLength). Print it to a new PDF."
    return None


def _safe_uri(value) -> bool:
    try:
        uri = str(value).strip()
        parts = urlsplit(uri)
    except (ValueError, TypeError):
        return False
    return (
        parts.scheme.lower() in ("http", "https")
        and bool(parts.netloc)
        and "\\" not in uri
        and not any(ord(c) < 0x20 for c in uri)
    )


def _check_dictionary(obj) -> None:
    keys = set(obj.keys())
    if keys & _BAD_KEYS:
        raise _Refused
    for key in ("/S", "/Type", "/Subtype"):
        if key in keys:
            value = obj.get(key)
            if isinstance(value, pikepdf.Name) and (str(value) in _BAD_ACTIONS or str(value) in _BAD_TYPES):
                raise _Refused
    action = obj.get("/S") if "/S" in keys else None
    if isinstance(action, pikepdf.Name) and str(action) == "/URI" and not _safe_uri(obj.get("/URI")):
        raise _Refused
    kind = obj.get("/Type") if "/Type" in keys else None
    if kind == pikepdf.Name("/Action"):
        _check_action(obj)
    for key in keys.intersection(_ACTION_KEYS):
        value = obj.get(key)
        for item in value if isinstance(value, pikepdf.Array) else [value]:
            if isinstance(item, pikepdf.Dictionary) and "/S" in item:
                _check_action(item)
    subtype = obj.get("/Subtype") if "/Subtype" in keys else None
    if isinstance(subtype, pikepdf.Name):
        if (kind == pikepdf.Name("/Annot") or "/Rect" in keys) and str(subtype) not in ALLOWED_ANNOTATIONS:
            raise _Refused
        if kind == pikepdf.Name("/XObject") and str(subtype) not in ALLOWED_XOBJECTS:
            raise _Refused
        if str(subtype) == "/PS":  # a PostScript object, /Type or not
            raise _Refused


def _check_action(action) -> None:
    kind = action.get("/S")
    if not isinstance(kind, pikepdf.Name) or str(kind) not in ALLOWED_ACTIONS:
        raise _Refused


def _walk(root, count: list[int]) -> None:
    """Every direct child of one object; indirect ones are walked as objects of their own."""
    stack = [root]
    while stack:
        obj = stack.pop()
        count[0] += 1
        if count[0] > MAX_OBJECTS:
            raise ValueError("too many objects")
        if isinstance(obj, pikepdf.Stream):
            obj = obj.stream_dict
        if isinstance(obj, pikepdf.Dictionary):
            _check_dictionary(obj)
            children = obj.values()
        elif isinstance(obj, pikepdf.Array):
            children = list(obj)
        else:
            continue
        stack.extend(
            child
            for child in children
            if isinstance(child, (pikepdf.Dictionary, pikepdf.Array, pikepdf.Stream)) and not child.is_indirect
        )


def _parsed_problem(data: bytes) -> str | None:
    try:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            count = [0]
            _walk(pdf.trailer, count)
            for obj in pdf.objects:
                _walk(obj, count)
    except _Refused:
        return ACTIVE_MESSAGE
    except (pikepdf.PdfError, ValueError, RecursionError):
        return "is a PDF we cannot read. Print it to a new PDF."
    return None


def pdf_problem(data: bytes) -> str | None:
    """Why this PDF is refused, or None when it only shows pages."""
    if not data.startswith(b"%PDF-"):
        return "is not a PDF."
    if b"%%EOF" not in data[-4096:]:
        return "is not a complete PDF."
    return _byte_problem(data) or _parsed_problem(data)


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
