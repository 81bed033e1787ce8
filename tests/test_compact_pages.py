"""A canvas keeps each finished page's content compressed, not as text until the file is
written (peak memory at 20,000 cards), and the file is byte for byte what reportlab writes."""

from __future__ import annotations

import base64
import io
import zlib

import pypdfium2

from pnp.outputs import pdf


def drawn(pages: int = 3, save: bool = True) -> tuple[bytes, list[object]]:
    """A small file from pnp's canvas, and its pages as the canvas held them before saving
    (`save`: as pnp.outputs.pdf.finish does, which does not while validate checks)."""
    buffer = io.BytesIO()
    canvas = pdf.new_canvas(buffer, (595.28, 841.89), "compact")
    for number in range(pages):
        canvas.setFillColorRGB(0.2, 0.4, 0.6)
        canvas.rect(50, 50, 200, 100, fill=1)
        canvas.drawString(72, 720, f"page {number + 1} " + "words " * 40)
        canvas.showPage()
    held = list(canvas._doc.Pages.pages)
    if save:
        canvas.save()
    return buffer.getvalue(), held


def test_finished_pages_are_held_compressed():
    data, held = drawn()
    assert all(page.stream is None for page in held)
    contents = [zlib.decompress(base64.a85decode(page.Contents.content.removesuffix(b"~>"))) for page in held]
    assert all(b"(page %d words" % number in content for number, content in enumerate(contents, 1))
    document = pypdfium2.PdfDocument(data)
    assert [document[i].get_textpage().get_text_range().split()[:2] for i in range(len(document))] == \
        [["page", "1"], ["page", "2"], ["page", "3"]]


def test_finished_forms_are_held_compressed():
    buffer = io.BytesIO()
    canvas = pdf.new_canvas(buffer, (595.28, 841.89), "forms")
    canvas.beginForm("look")
    canvas.drawString(10, 10, "stamped " * 40)
    canvas.endForm()
    form = canvas._doc.idToObject["FormXob.look"]
    assert form.stream is None
    assert b"(stamped stamped" in zlib.decompress(base64.a85decode(form.Contents.content.removesuffix(b"~>")))


def test_the_bytes_are_those_reportlab_writes(monkeypatch):
    compact, _ = drawn()
    monkeypatch.setattr(pdf, "compress_now", lambda page: None)   # reportlab's own way
    plain, held = drawn()
    assert all(isinstance(page.stream, str) for page in held)
    assert compact == plain


def test_pages_only_checked_keep_nothing():
    """pnp validate draws every page but writes none: a finished page's content is dropped,
    not compressed."""
    checking = pdf.CHECKING.set(True)
    try:
        _, held = drawn(save=False)
    finally:
        pdf.CHECKING.reset(checking)
    assert all(page.stream is None and not page.Contents for page in held)


def varied(canvas) -> None:
    """Pages of every kind pnp draws: a card sheet stamping more forms than fit one line of its
    resources, a picture, a link, transparency, a turned page, a page with nothing stamped."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    for index in range(8):
        canvas.beginForm(f"look{index}")
        canvas.setFillColorRGB(index / 8, 0.3, 0.5)
        canvas.rect(0, 0, 40, 40, fill=1)
        canvas.endForm()
    for index in range(8):
        canvas.doForm(f"look{index}")
    canvas.drawString(72, 720, "eight looks")
    canvas.showPage()
    canvas.drawImage(ImageReader(Image.new("RGB", (4, 4), (200, 30, 30))), 100, 100, 50, 50)
    canvas.showPage()
    canvas.linkURL("https://example.org", (72, 72, 200, 100))
    canvas.drawString(72, 80, "a link")
    canvas.showPage()
    canvas.setPageRotation(90)
    canvas.doForm("look1")
    canvas.showPage()
    canvas.setPageRotation(0)
    canvas.setPageSize((841.89, 595.28))
    canvas.drawString(72, 500, "landscape, nothing stamped")
    canvas.showPage()
    canvas._currentPageHasImages = 0   # reportlab marks every page as having pictures, for safety; not this one
    canvas.drawString(72, 720, "no pictures")
    canvas.showPage()
    canvas.setFillAlpha(0.5)
    canvas.rect(50, 50, 100, 100, fill=1)
    canvas.showPage()


def test_every_kind_of_page_has_the_bytes_reportlab_writes(monkeypatch):
    """Plain pages are written in one step (pnp.outputs.quick_objects), the rest by reportlab,
    and forms are compressed as they are drawn; either way the file is the one reportlab
    writes."""
    from pnp.outputs.quick_objects import QuickPage

    def made(quick: bool) -> tuple[bytes, list[object]]:
        with monkeypatch.context() as patch:
            if not quick:
                patch.setattr(pdf, "compress_now", lambda page: None)
                patch.setattr(pdf, "compress_form_now", lambda form: None)
            buffer = io.BytesIO()
            canvas = pdf.new_canvas(buffer, (595.28, 841.89), "varied")
            varied(canvas)
            held = list(canvas._doc.Pages.pages)
            canvas.save()
            return buffer.getvalue(), held

    quick, held = made(quick=True)
    assert [isinstance(page, QuickPage) and page.plain() for page in held] == \
        [True, True, False, True, True, True, False]   # the link and the transparency: reportlab's
    assert quick == made(quick=False)[0]
