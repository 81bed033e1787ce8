"""`pnp calibrate`: a two-sided sheet that shows how far a printer shifts the back side.

The front has a cross; the back, at the spot the cross lands on after the flip, has two
millimetre rulers. Printed double-sided and held against the light, the cross falls on the
numbers to give to `--back-offset X,Y`."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib import colors

from pnp.config.typed import where_of
from pnp.impose import PAPER_SIZES
from pnp.units import mm
from pnp.outputs.folder import OutputFolder
from pnp.outputs.pdf import finish, new_canvas
from pnp.project import Project

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

SPAN = 8          # the rulers run from -SPAN to +SPAN mm
RULER_AWAY = 14   # mm from the centre to each ruler, along the cross's arms
ARM = 24          # mm: the front cross's arms reach past the rulers


def calibration_sheet(project: Project, paper: str, duplex: str, out: Path) -> Path:
    width, height = PAPER_SIZES[paper]
    font = project.fonts.family("text", where_of(None, "font")).face()
    bold = project.fonts.family("text", where_of(None, "font")).face(bold=True)
    # An off-centre spot, so a sheet flipped the wrong way shows the rulers somewhere else.
    cx, cy = width * 0.4, height * 0.55
    bx, by = (width - cx, cy) if duplex == "long-edge" else (cx, height - cy)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (width, height), f"pnp duplex calibration ({paper}, {duplex})")
    front_page(canvas, width, height, cx, cy, duplex, font, bold)
    canvas.showPage()
    back_page(canvas, width, height, bx, by, font, bold)
    canvas.showPage()
    name = f"calibration-{paper}-{duplex}.pdf"
    folder = OutputFolder(out / "calibration")
    folder.check_place(project.root, out)   # OUT/calibration may be a link
    return folder.commit([finish(canvas, buffer, name)])[0]


def front_page(canvas: Canvas, width: float, height: float, cx: float, cy: float, duplex: str, font: str,
               bold: str) -> None:
    canvas.setFont(bold, 16)
    canvas.drawString(mm(15), height - mm(22), "Duplex calibration: front")
    canvas.setFont(font, 10)
    flip = duplex.replace("-", " ")
    lines = [f"1. Print both pages of this file on one sheet, double-sided, flipping on the {flip}.",
             "2. Hold the sheet against a window or lamp with the ruler side towards you.",
             "3. Read where this cross's arms meet the two rulers printed on the back.",
             "4. Build with --back-offset X,Y using those two numbers, e.g. --back-offset 1.5,-0.5",
             "   (0,0 means your printer lines the sides up already)."]
    for number, line in enumerate(lines):
        canvas.drawString(mm(15), height - mm(32) - number * 14, line)
    canvas.setLineWidth(0.4)
    canvas.setStrokeColor(colors.black)
    canvas.line(cx - mm(ARM), cy, cx + mm(ARM), cy)
    canvas.line(cx, cy - mm(ARM), cx, cy + mm(ARM))
    canvas.circle(cx, cy, mm(2))


def back_page(canvas: Canvas, width: float, height: float, bx: float, by: float, font: str, bold: str) -> None:
    """Two rulers placed where the front cross's arms pass: the vertical arm crosses the X
    ruler (above the centre), the horizontal arm crosses the Y ruler (right of the centre)."""
    canvas.setFont(bold, 16)
    canvas.drawString(mm(15), height - mm(22), "Duplex calibration: back (rulers)")
    canvas.setFont(font, 10)
    canvas.drawString(mm(15), height - mm(32), "X: where the cross's upright arm meets the top ruler. "
                      "Y: where its level arm meets the right-hand ruler.")
    canvas.drawString(mm(15), height - mm(37), "Both in mm; give them as --back-offset X,Y.")
    canvas.setStrokeColor(colors.HexColor("#d0006f"))
    canvas.setFillColor(colors.HexColor("#d0006f"))
    canvas.setLineWidth(0.3)
    x_ruler, y_ruler = by + mm(RULER_AWAY), bx + mm(RULER_AWAY)
    canvas.setFont(font, 6.5)
    for value in range(-SPAN, SPAN + 1):
        tall = mm(3) if value % 4 == 0 else mm(2) if value % 2 == 0 else mm(1.2)
        # X: the tick labelled v is v mm to the right of where the arm should land.
        x = bx + mm(value)
        canvas.line(x, x_ruler, x, x_ruler + tall)
        if value % 4 == 0:   # 2 mm is too close for labels side by side
            canvas.drawCentredString(x, x_ruler + mm(4), f"{value:+d}" if value else "0")
        # Y: the tick labelled v is v mm below it (positive Y is down, as --back-offset reads).
        y = by - mm(value)
        canvas.line(y_ruler, y, y_ruler + tall, y)
        if value % 2 == 0:
            canvas.drawString(y_ruler + mm(4), y - 2, f"{value:+d}" if value else "0")
    canvas.line(bx - mm(SPAN), x_ruler, bx + mm(SPAN), x_ruler)
    canvas.line(y_ruler, by - mm(SPAN), y_ruler, by + mm(SPAN))
    canvas.setFont(bold, 9)
    canvas.drawString(bx + mm(SPAN + 2), x_ruler, "X")
    canvas.drawString(y_ruler - mm(1), by - mm(SPAN + 5), "Y")
