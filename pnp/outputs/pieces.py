"""Pieces one to a page: the print-shop PDF and the source of every PNG.

Each page is the piece's trim plus its bleed, with the TrimBox and BleedBox set, drawn by the
same compiled layout that draws home sheets."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from reportlab.pdfgen.canvas import Canvas

from pnp.outputs.pdf import OutputFile, finish, new_canvas


class Piece(Protocol):
    """A compiled layout (or one chosen per card): its size, and how it draws a card."""

    width: float
    height: float

    # Any: whatever card the layout above draws from (outputs sits below layout's Card protocol)
    def draw(self, canvas: Canvas, card: Any) -> None: ...


def pieces_pdf(pages: Sequence[tuple[Piece, Any]], bleed: float, title: str, name: str,
               before_each: Callable[[int], None] | None = None, pdfx: bool = False) -> OutputFile:
    """A PDF with one page per (layout, card), each piece centred in its bleed; with `pdfx`,
    PDF/X-1a (CMYK only, see pnp.outputs.pdfx).
    `before_each(index)` is called before each piece is drawn (the preview links warnings to it)."""
    from pnp.outputs.pdfx import CmykCanvas, make_pdfx
    buffer = io.BytesIO()
    canvas = None
    for index, (layout, card) in enumerate(pages):
        if before_each is not None:
            before_each(index)
        size = (layout.width + 2 * bleed, layout.height + 2 * bleed)
        if canvas is None:
            canvas = new_canvas(buffer, size, title, CmykCanvas if pdfx else Canvas)
        canvas.setPageSize(size)
        canvas.setBleedBox((0, 0, size[0], size[1]))
        canvas.setTrimBox((bleed, bleed, bleed + layout.width, bleed + layout.height))
        canvas.saveState()
        canvas.translate(bleed, bleed)
        layout.draw(canvas, card)
        canvas.restoreState()
        canvas.showPage()
    finished = finish(canvas, buffer, name)
    return make_pdfx(finished, title) if pdfx else finished
