"""The yardstick: plain reportlab drawing N cards of content like the benchmark deck's (a
coloured background, a rounded frame, a title, a big number, a wrapped sentence), 3x3 on A4
with cut marks, each sheet followed by its backs. No data loading, no checks.

    python bench/plain_reportlab.py N OUT.pdf [ICON.png]

With an icon, each card's sentence carries it twice inline, as reportlab draws pictures in
text (a Paragraph's <img>): the same cards as the benchmark's icon deck.
"""

import sys

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

FONTS = "fonts/"
COLOURS = ["#1c1c1c", "#f6c600", "#c62828"]


def main(count: int, out: str, icon: str | None = None) -> None:
    pdfmetrics.registerFont(TTFont("Display", FONTS + "FjallaOne-Regular.ttf"))
    pdfmetrics.registerFont(TTFont("Text", FONTS + "Lato-Regular.ttf"))
    width, height = A4
    cw, ch = 63.5 * mm, 88.9 * mm
    left, bottom = (width - 3 * cw) / 2, (height - 3 * ch) / 2
    style = ParagraphStyle("t", fontName="Text", fontSize=9.5, leading=11.9, alignment=TA_CENTER,
                           textColor=HexColor("#ffffff"))
    canvas = Canvas(out, pagesize=A4, invariant=1, pageCompression=1)
    for start in range(0, count, 9):
        sheet = range(start, min(start + 9, count))
        for slot, index in enumerate(sheet):
            x, y = left + (slot % 3) * cw, bottom + (2 - slot // 3) * ch
            canvas.saveState()
            canvas.translate(x, y)
            canvas.setFillColor(HexColor(COLOURS[index % 3]))
            canvas.rect(0, 0, cw, ch, stroke=0, fill=1)
            canvas.setStrokeColor(HexColor("#f2b705"))
            canvas.roundRect(3 * mm, 3 * mm, cw - 6 * mm, ch - 6 * mm, 2.5 * mm, stroke=1, fill=0)
            canvas.setFillColor(HexColor("#ffffff"))
            canvas.setFont("Display", 22)
            canvas.drawCentredString(cw / 2, ch - 15 * mm, "RUN")
            canvas.setFont("Display", 64)
            canvas.drawCentredString(cw / 2, ch - 48 * mm, str(5 + index % 60))
            icons = (f'Gain <img src="{icon}" width="7" height="7" valign="baseline"/> and '
                     f'<img src="{icon}" width="7" height="7" valign="baseline"/> ') if icon else ""
            para = Paragraph(f"{icons}Gain these yards on your drive. (card {index + 1})", style)
            _, used = para.wrap(49.5 * mm, 17 * mm)
            para.drawOn(canvas, 7 * mm, 12 * mm + (17 * mm - used) / 2)
            canvas.restoreState()
        cut_marks(canvas, left, bottom, cw, ch, width, height)
        canvas.showPage()
        for slot, _ in enumerate(sheet):
            x, y = width - (left + (slot % 3) * cw) - cw, bottom + (2 - slot // 3) * ch
            canvas.setFillColor(HexColor("#2f7d32"))
            canvas.rect(x, y, cw, ch, stroke=0, fill=1)
            canvas.setFillColor(HexColor("#f2b705"))
            canvas.ellipse(x + 9.75 * mm, y + 33.4 * mm, x + 53.75 * mm, y + 55.4 * mm, stroke=0, fill=1)
            canvas.setFillColor(HexColor("#1c1c1c"))
            canvas.setFont("Display", 30)
            canvas.drawCentredString(x + cw / 2, y + 40 * mm, "JUKEM")
        canvas.showPage()
    canvas.save()


def cut_marks(canvas, left, bottom, cw, ch, width, height) -> None:
    canvas.setLineWidth(0.25)
    canvas.setStrokeColor(HexColor("#000000"))
    top, right = bottom + 3 * ch, left + 3 * cw
    for i in range(4):
        x, y = left + i * cw, bottom + i * ch
        canvas.line(x, top + 1, x, top + 5 * mm)
        canvas.line(x, bottom - 1, x, bottom - 5 * mm)
        canvas.line(left - 1, y, left - 5 * mm, y)
        canvas.line(right + 1, y, right + 5 * mm, y)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
