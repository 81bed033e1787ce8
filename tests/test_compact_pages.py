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
    contents = [zlib.decompress(base64.a85decode(page.Contents.content.removesuffix("~>"))) for page in held]
    assert all(b"(page %d words" % number in content for number, content in enumerate(contents, 1))
    document = pypdfium2.PdfDocument(data)
    assert [document[i].get_textpage().get_text_range().split()[:2] for i in range(len(document))] == \
        [["page", "1"], ["page", "2"], ["page", "3"]]


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
