"""PDFs are checked with a real parser for every action type (issue 24, 7)."""

import pytest

from apps.core import pdf
from apps.core.tests import pdfs

REFUSED = [
    "HEX_OBJECT_STREAM_JAVASCRIPT",
    "HEX_FLATE_OBJECT_STREAM_JAVASCRIPT",
    "GOTOR_UNC",
    "URI_UNC",
    "URI_FILE",
    "LAUNCH",
    "SUBMIT_FORM",
    "IMPORT_DATA",
    "GOTOE",
    "RICH_MEDIA",
    "EMBEDDED_FILE",
    "JS_NAME_TREE",
    "AA_JS",
    "THREE_D_ON_INSTANTIATE",
    "THREAD_ACTION",
    "REFERENCE_XOBJECT",
    "HIDE_ACTION",
    "SCREEN_ANNOTATION",
    "POSTSCRIPT_XOBJECT",
]
ALLOWED = ["MINIMAL_PDF", "URI_HTTPS", "GOTO_PAGE", "NAMED_NEXT_PAGE", "TAGGED"]


@pytest.mark.parametrize("name", REFUSED)
def test_active_content_is_refused(name):
    assert pdf.pdf_problem(getattr(pdfs, name)) == pdf.ACTIVE_MESSAGE


@pytest.mark.parametrize("name", REFUSED)
def test_the_parser_alone_finds_it_inside_object_streams(name):
    assert pdf._parsed_problem(getattr(pdfs, name)) == pdf.ACTIVE_MESSAGE


@pytest.mark.parametrize("name", ALLOWED)
def test_pages_links_to_the_web_and_internal_jumps_are_allowed(name):
    assert pdf.pdf_problem(getattr(pdfs, name)) is None


def test_a_file_the_parser_cannot_read_is_refused():
    assert "cannot read" in pdf.pdf_problem(b"%PDF-1.4\n%nothing here\n%%EOF\n")


def test_lzw_and_runlength_streams_are_refused():
    data = pdfs.MINIMAL_PDF.replace(
        b"%%EOF", b"4 0 obj<</Filter/LZWDecode/Length 1>>stream\nx\nendstream endobj\n%%EOF"
    )
    assert "compression" in pdf.pdf_problem(data)


def test_a_hex_encoded_flate_bomb_is_refused_before_parsing():
    import binascii
    import zlib

    bomb = binascii.hexlify(zlib.compress(b"\0" * (80 * 1024 * 1024), 9)) + b">"
    data = pdfs.MINIMAL_PDF.replace(
        b"%%EOF", b"4 0 obj<</Filter[/AHx/Fl]/Length %d>>stream\n" % len(bomb) + bomb + b"\nendstream endobj\n%%EOF"
    )
    assert "expands too far" in pdf.pdf_problem(data)


def test_a_document_from_an_office_program_is_allowed():
    """A reportlab PDF with a link, an internal bookmark jump and an outline, as invoices are made."""
    import io

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.bookmarkPage("top")
    page.addOutlineEntry("Top", "top")
    page.drawString(72, 720, "Passport scan")
    page.linkURL("https://spacemarket.example/help", (72, 700, 200, 716))
    page.linkAbsolute("Back to top", "top", (72, 680, 200, 696))
    page.showPage()
    page.save()
    assert pdf.pdf_problem(out.getvalue()) is None
