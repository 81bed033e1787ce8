"""A line of text written as PDF operators directly: the same bytes as reportlab's
`canvas.drawString` (and its centred and right-aligned forms) for a TrueType face, without
building a text object for every line. Card text is drawn line by line on every card, and
the text object's general machinery (direction, shaping, render modes) cost more than the
line itself.

reportlab numbers each character of a TrueType face within the PDF as it is first used
(`splitString`); plain ASCII keeps its own code in the first subset, so such a line is its
bytes. Anything else goes through `splitString` itself, so the numbering stays reportlab's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont

if TYPE_CHECKING:
    from reportlab.pdfbase.pdfdoc import PDFDocument
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas


def draw_line(canvas: Canvas, x: float, y: float, line: str, anchor: float = 0.0) -> None:
    """Write `line` at (x, y) in the canvas's font and size, shifted left by `anchor` times
    its width (0: drawString, 0.5: drawCentredString, 1: drawRightString)."""
    font = getFont(canvas._fontname)
    if not getattr(font, "_dynamicFont", False) or not canvas.bottomup:
        (canvas.drawString, canvas.drawCentredString, canvas.drawRightString)[int(anchor * 2)](x, y, line)
        return
    size = canvas._fontsize
    if anchor:
        x -= anchor * font.stringWidth(line, size)
    doc = canvas._doc
    parts = []
    subset_now = -1
    for subset, chunk in _chunks(font, doc, line):
        if subset != subset_now:
            parts.append(f"{font.getSubsetInternalName(subset, doc)} {fp_str(size)} Tf {fp_str(canvas._leading)} TL")
            subset_now = subset
        parts.append(f"({escapePDF(chunk)}) Tj")
    canvas._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {' '.join(parts)} T* ET")


def _chunks(font: TTFont, doc: PDFDocument, line: str) -> list[tuple[int, bytes]]:
    """(subset, codes) runs of the line, as `font.splitString(line, doc)` gives them."""
    state = font.state.get(doc)
    if state is not None and line.isascii():
        own = getattr(state, "pnp_own_codes", None)
        if own is None:   # the printable ASCII this face keeps at its own code, fixed once made
            own = state.pnp_own_codes = frozenset(chr(c) for c in range(32, 127) if state.assignments.get(c) == c)
        if own.issuperset(line):
            return [(0, line.encode("ascii"))]
    chunks: list[tuple[int, bytes]] = font.splitString(line, doc)
    return chunks
