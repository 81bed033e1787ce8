"""Placing an inline icon on a canvas: each icon a form made once per PDF (an SVG once per
colour, as vector art; a PNG with its pixels), placed at each use. Shared by the plain-text
fast path (pnp.layout.text) and styled runs (pnp.layout.runs)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.layout import icon_art
from pnp.layout.forms import forms_of
from pnp.layout.icons import Icon, self_contained

if TYPE_CHECKING:
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas


def draw_icon(canvas: Canvas, icon: Icon, x: float, y: float, width: float, height: float) -> None:
    """An inline icon stretched over the box (x, y, width, height). Each icon is put in a form
    once per PDF (an SVG once per colour, as vector art; a PNG with its pixels) and the form
    placed at each use: reportlab's drawImage hashes every pixel of a picture each time it is
    drawn. (A form may be begun inside another: reportlab keeps the outer one's drawing aside.)"""
    forms = forms_of(canvas).icons
    key: str | tuple[str, str] = (icon.path, icon.colour) if icon.vector else icon.path
    name = forms.get(key)
    if name is None:
        name = forms[key] = f"pnpicon{len(forms)}"
        canvas.beginForm(name, lowerx=0, lowery=0, upperx=1, uppery=1)
        keeps = icon.vector and plain_canvas(canvas)   # a CMYK canvas writes other colours
        kept = icon_art.form_of(Path(icon.path), icon.colour) if keeps else None
        if kept is not None:   # as drawn by the last build: svglib and reportlab's graphics not loaded
            canvas._code.extend(kept)
        elif icon.vector:
            from reportlab.graphics import renderPDF
            from reportlab.graphics.shapes import STATE_DEFAULTS
            from pnp.layout.icons import icon_drawing
            from pnp.outputs.pdf import starting_font
            drawing = icon_drawing(icon)
            canvas.saveState()
            canvas.scale(1 / drawing.width, 1 / drawing.height)
            default = STATE_DEFAULTS["fontName"]   # renderPDF would start with an unembedded Helvetica
            STATE_DEFAULTS["fontName"] = starting_font()
            try:
                renderPDF.draw(drawing, canvas, 0, 0)
            finally:
                STATE_DEFAULTS["fontName"] = default
            canvas.restoreState()
            if keeps and self_contained(Path(icon.path)):
                icon_art.remember_form(Path(icon.path), icon.aspect, icon.colour, canvas._code)
        else:
            canvas.drawImage(image_reader(icon.path), 0, 0, 1, 1, mask="auto")
        canvas.endForm()
    canvas.saveState()
    canvas.transform(width, 0, 0, height, x, y)
    canvas.doForm(name)
    canvas.restoreState()


def plain_canvas(canvas: Canvas) -> bool:
    """Whether the canvas writes colours as they are set (PDF/X's canvas makes them CMYK)."""
    return getattr(canvas, "_enforceColorSpace", None) is None


@lru_cache(maxsize=256)
def image_reader(path: str) -> ImageReader:
    """An icon's picture, read once: given to reportlab as data, it is named in the PDF by its
    content, not by where the file lies, so the bytes do not depend on the folder."""
    from reportlab.lib.utils import ImageReader
    reader: ImageReader = ImageReader(path)
    return reader
