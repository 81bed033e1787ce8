"""The print-all file's join (pnp/outputs/joining.py): the parts' pages copied with what they
use, under one new page tree, read back by pdfium and pypdf."""

from __future__ import annotations

import io

import pypdf
import pypdfium2
from reportlab.pdfgen.canvas import Canvas

from pnp.outputs.joining import joined, joined_by_pdfium

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def part(title: str, pages: list[str], size: tuple[float, float]) -> bytes:
    """A reportlab file whose pages each stamp one shared form and write their own words."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=size, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.beginForm("frame")
    canvas.rect(20, 20, 100, 100)
    canvas.drawString(30, 60, "(a frame) 3 0 R")   # a reference's look, in a string
    canvas.endForm()
    for words in pages:
        canvas.linkURL(f"https://example.org/{words}/3 0 R", (10, 10, 50, 50))   # a string in a dictionary
        canvas.doForm("frame")
        canvas.drawString(200, 400, words)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def texts(pdf: bytes) -> list[str]:
    document = pypdfium2.PdfDocument(pdf)
    return [document[i].get_textpage().get_text_range().strip() for i in range(len(document))]


def sizes(pdf: bytes) -> list[tuple[int, int]]:
    document = pypdfium2.PdfDocument(pdf)
    return [tuple(round(side) for side in document[i].get_size()) for i in range(len(document))]


def test_pages_in_order_with_blanks_under_one_tree():
    first = part("Cover", ["cover"], A4)
    second = part("Deck: secret title", ["one", "two", "three"], LETTER)
    data, pages = joined([first, second], [(0,), ()], A4, "Jukem: everything to print",
                         b"/ViewerPreferences<</PrintScaling/None>>")
    assert pages == 5
    assert texts(data) == ["(a frame) 3 0 R\r\ncover", "", "(a frame) 3 0 R\r\none",
                           "(a frame) 3 0 R\r\ntwo", "(a frame) 3 0 R\r\nthree"]
    assert sizes(data) == [(595, 842), (595, 842), (612, 792), (612, 792), (612, 792)]
    reader = pypdf.PdfReader(io.BytesIO(data), strict=True)
    root = reader.trailer["/Root"]
    assert root["/ViewerPreferences"] == {"/PrintScaling": "/None"}
    assert reader.metadata.title == "Jukem: everything to print"
    tree = root.raw_get("/Pages").idnum
    assert all(page.raw_get("/Parent").idnum == tree for page in reader.pages)
    assert [page["/Annots"][0].get_object()["/A"]["/URI"] for page in reader.pages if "/Annots" in page] == \
        [f"https://example.org/{words}/3 0 R" for words in ("cover", "one", "two", "three")]
    # the parts' catalogs, trees and Info are left behind; a form three pages share, copied once
    assert b"secret title" not in data
    assert data.count(b"/Subtype /Form") == 2


def test_a_blank_page_follows_each_page_asked():
    """A part printed on one side of each sheet, in a file printed double-sided: a blank back
    after every page."""
    data, pages = joined([part("a", ["x", "y", "z"], A4)], [(0, 1, 2)], A4, "t", b"")
    assert pages == 6 and [text[-1:] for text in texts(data)] == ["x", "", "y", "", "z", ""]


def test_the_same_parts_give_the_same_bytes_and_a_title_in_any_script():
    parts = [part("a", ["x"], A4), part("b", ["y"], A4)]
    once = joined(parts, [(0,), (0,)], A4, "השחקן ה-12", b"")
    assert once == joined(parts, [(0,), (0,)], A4, "השחקן ה-12", b"")
    assert pypdf.PdfReader(io.BytesIO(once[0])).metadata.title == "השחקן ה-12"


def test_a_part_in_another_form_is_joined_by_pdfium():
    """A file with an incremental update (as pdfium's join writes) is not reportlab's one
    table: pdfium copies its pages."""
    updated, _ = joined_by_pdfium([part("a", ["x", "y"], A4)], [()], A4, "t", b"")
    assert b"/Prev" in updated
    data, pages = joined([updated, part("b", ["z"], A4)], [(0, 1), ()], A4, "t", b"")
    assert pages == 5 and [text[-1:] for text in texts(data)] == ["x", "", "y", "", "z"]
    assert b"/Prev" in data   # pdfium's join, with its update
