"""Pieces one to a page: the print-shop PDF and the source of every PNG.

Each page is the piece's trim plus its bleed, with the TrimBox and BleedBox set, drawn by the
same compiled layout that draws home sheets."""

from __future__ import annotations

import io

from pnp.outputs.pdf import finish, new_canvas


def pieces_pdf(pages: list[tuple[object, object]], bleed: float, title: str, name: str, before_each=None):
    """A PDF with one page per (layout, card), each piece centred in its bleed.
    `before_each(index)` is called before each piece is drawn (the preview links warnings to it)."""
    buffer = io.BytesIO()
    canvas = None
    for index, (layout, card) in enumerate(pages):
        if before_each is not None:
            before_each(index)
        size = (layout.width + 2 * bleed, layout.height + 2 * bleed)
        if canvas is None:
            canvas = new_canvas(buffer, size, title)
        canvas.setPageSize(size)
        canvas.setBleedBox((0, 0, size[0], size[1]))
        canvas.setTrimBox((bleed, bleed, bleed + layout.width, bleed + layout.height))
        canvas.saveState()
        canvas.translate(bleed, bleed)
        layout.draw(canvas, card)
        canvas.restoreState()
        canvas.showPage()
    return finish(canvas, buffer, name)
