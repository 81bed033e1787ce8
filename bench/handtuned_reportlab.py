"""The stricter yardstick: the same cards as plain_reportlab.py, drawn with reportlab's canvas
the fast way a careful programmer would: every repeated look (a card's background, frame and
title in each of its three colours, the back, a full sheet's cut marks) drawn once as a form
and stamped, and each card's sentence wrapped by hand with word widths measured once per word.
The pages look the same as plain_reportlab.py's; only the way they are drawn differs.

    python bench/handtuned_reportlab.py N OUT.pdf
"""

import sys

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONTS = "fonts/"
COLOURS = ["#1c1c1c", "#f6c600", "#c62828"]
CW, CH = 63.5 * mm, 88.9 * mm
TEXT_SIZE, LEADING = 9.5, 11.9


class Widths:
    """Word widths in the text face, measured once each."""

    def __init__(self) -> None:
        self.known: dict[str, float] = {}
        self.space = pdfmetrics.stringWidth(" ", "Text", TEXT_SIZE)

    def __call__(self, word: str) -> float:
        width = self.known.get(word)
        if width is None:
            width = self.known[word] = pdfmetrics.stringWidth(word, "Text", TEXT_SIZE)
        return width


def wrapped(sentence: str, width: float, widths: Widths) -> list[str]:
    """Greedy line breaking, as a Paragraph does for plain words."""
    lines: list[str] = []
    line: list[str] = []
    used = 0.0
    for word in sentence.split():
        needed = widths(word) + (widths.space if line else 0.0)
        if line and used + needed > width:
            lines.append(" ".join(line))
            line, used = [word], widths(word)
        else:
            line.append(word)
            used += needed
    if line:
        lines.append(" ".join(line))
    return lines


def main(count: int, out: str) -> None:
    pdfmetrics.registerFont(TTFont("Display", FONTS + "FjallaOne-Regular.ttf"))
    pdfmetrics.registerFont(TTFont("Text", FONTS + "Lato-Regular.ttf"))
    width, height = A4
    left, bottom = (width - 3 * CW) / 2, (height - 3 * CH) / 2
    canvas = Canvas(out, pagesize=A4, invariant=1, pageCompression=1)
    faces = [define_face(canvas, colour) for colour in COLOURS]
    back = define_back(canvas)
    marks = define_marks(canvas, left, bottom)
    widths = Widths()
    for start in range(0, count, 9):
        sheet = range(start, min(start + 9, count))
        for slot, index in enumerate(sheet):
            x, y = left + (slot % 3) * CW, bottom + (2 - slot // 3) * CH
            canvas.saveState()
            canvas.translate(x, y)
            canvas.doForm(faces[index % 3])
            canvas.setFillColor(HexColor("#ffffff"))
            canvas.setFont("Display", 64)
            canvas.drawCentredString(CW / 2, CH - 48 * mm, str(5 + index % 60))
            lines = wrapped(f"Gain these yards on your drive. (card {index + 1})", 49.5 * mm, widths)
            top = 12 * mm + (17 * mm + len(lines) * LEADING) / 2 - TEXT_SIZE
            canvas.setFont("Text", TEXT_SIZE)
            for number, line in enumerate(lines):
                canvas.drawCentredString(CW / 2, top - number * LEADING, line)
            canvas.restoreState()
        canvas.doForm(marks)
        canvas.showPage()
        for slot, _ in enumerate(sheet):
            x, y = width - (left + (slot % 3) * CW) - CW, bottom + (2 - slot // 3) * CH
            canvas.saveState()
            canvas.translate(x, y)
            canvas.doForm(back)
            canvas.restoreState()
        canvas.showPage()
    canvas.save()


def define_face(canvas: Canvas, colour: str) -> str:
    name = f"face{colour[1:]}"
    canvas.beginForm(name, 0, 0, CW, CH)
    canvas.setFillColor(HexColor(colour))
    canvas.rect(0, 0, CW, CH, stroke=0, fill=1)
    canvas.setStrokeColor(HexColor("#f2b705"))
    canvas.roundRect(3 * mm, 3 * mm, CW - 6 * mm, CH - 6 * mm, 2.5 * mm, stroke=1, fill=0)
    canvas.setFillColor(HexColor("#ffffff"))
    canvas.setFont("Display", 22)
    canvas.drawCentredString(CW / 2, CH - 15 * mm, "RUN")
    canvas.endForm()
    return name


def define_back(canvas: Canvas) -> str:
    canvas.beginForm("back", 0, 0, CW, CH)
    canvas.setFillColor(HexColor("#2f7d32"))
    canvas.rect(0, 0, CW, CH, stroke=0, fill=1)
    canvas.setFillColor(HexColor("#f2b705"))
    canvas.ellipse(9.75 * mm, 33.4 * mm, 53.75 * mm, 55.4 * mm, stroke=0, fill=1)
    canvas.setFillColor(HexColor("#1c1c1c"))
    canvas.setFont("Display", 30)
    canvas.drawCentredString(CW / 2, 40 * mm, "JUKEM")
    canvas.endForm()
    return "back"


def define_marks(canvas: Canvas, left: float, bottom: float) -> str:
    """The cut marks of a 3x3 sheet, as plain_reportlab.py draws them, once."""
    width, height = A4
    canvas.beginForm("marks", 0, 0, width, height)
    canvas.setLineWidth(0.25)
    canvas.setStrokeColor(HexColor("#000000"))
    top, right = bottom + 3 * CH, left + 3 * CW
    for i in range(4):
        x, y = left + i * CW, bottom + i * CH
        canvas.line(x, top + 1, x, top + 5 * mm)
        canvas.line(x, bottom - 1, x, bottom - 5 * mm)
        canvas.line(left - 1, y, left - 5 * mm, y)
        canvas.line(right + 1, y, right + 5 * mm, y)
    canvas.endForm()
    return "marks"


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
