"""One file a home printer can take for a whole game: a cover page that says what each part is
and how to print and cut it, then every home PDF of the game in order."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pnp.impose import filled
from pnp.units import mm
from pnp.outputs.joining import joined
from pnp.outputs.pdf import OutputFile, finish, new_canvas

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from pnp.config.game import Component
    from pnp.fonts import FontBook
    from pnp.options import PrintOptions


@dataclass
class Part:
    title: str
    file: OutputFile
    double_sided: bool
    cutting: str       # what to do with the sheets once printed


def home_part(options: PrintOptions, component: Component, files: list[OutputFile]) -> Part | None:
    """The part of the print-all file that a component's home PDF makes (its file of role
    `home`), if it has one."""
    home = next((file for file in files if file.role == "home"), None)
    if home is None:
        return None
    return Part(component.title or component.id, home, component.printed_double(options.duplex),
                component.cutting(options.duplex))


def print_all(game_title: str, game_id: str, paper: tuple[float, float], suffix: str, parts: list[Part],
              fonts: FontBook, say: Callable[[str], str] = str) -> OutputFile:
    """The cover, then each part, each padded to an even number of pages so that printing the
    whole file double-sided starts every part on a fresh sheet. `say` puts pnp's own words
    into a translated build's language."""
    sources = [cover(game_title, paper, parts, fonts, say)] + [part.file for part in parts]
    blank_after, total = [], 0
    for source in sources:   # each part starts on a fresh sheet when printed double-sided
        total += source.pages
        blank_after.append(total % 2 == 1)
        total += total % 2
    data, pages = joined([source.data for source in sources], blank_after, paper,
                         f"{game_title}: everything to print",
                         b"/ViewerPreferences<</PrintScaling/None>>")   # print at 100 %
    return OutputFile(print_all_name(game_id, suffix), data, pages)


def print_all_name(game_id: str, suffix: str) -> str:
    return f"{game_id}-print-all-{suffix}.pdf"


def cover(game_title: str, paper: tuple[float, float], parts: list[Part], fonts: FontBook,
          say: Callable[[str], str] = str) -> OutputFile:
    from pnp.config.typed import where_of
    text = fonts.family("text", where_of(None, "font"))
    display = fonts.family("display", where_of(None, "font"))
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, paper, f"{game_title}: cover")
    width, height = paper
    left, y = mm(20), height - mm(30)
    line = Liner(canvas, left, width - 2 * left)
    y -= line(display.face(), 24, y, filled(say("{title}: everything to print"), title=game_title))
    y -= mm(10)
    for words in ("Print at 100 % (actual size, not fit to page). Each part starts on a new sheet;",
                  "pages marked double-sided need both sides of the sheet (see docs/print-guide.md)."):
        y -= line(text.face(), 10, y, say(words))
        y -= mm(5)
    y -= mm(6)
    page = 3   # the cover and its blank back come first
    for part in parts:
        sheets = part.file.pages // 2 if part.double_sided else part.file.pages
        last = page + part.file.pages - 1
        pages = filled(say("(page {page})"), page=page) if last == page else \
            filled(say("(pages {first}-{last})"), first=page, last=last)
        y -= line(text.face(bold=True), 11, y, f"{part.title}  {pages}")
        y -= mm(5)
        sides = say("double-sided" if part.double_sided else "single-sided")
        count = filled(say("{count} sheet" if sheets == 1 else "{count} sheets"), count=sheets)
        y -= line(text.face(), 10, y, f"{sides}, {count}: {say(part.cutting)}", indent=mm(5))
        if part.file.note:   # which edges got less bleed than asked
            y -= mm(4.5)
            y -= line(text.face(), 8.5, y, part.file.note[:1].upper() + part.file.note[1:] + ".", indent=mm(5))
        y -= mm(8)
        page += part.file.pages + part.file.pages % 2
    canvas.showPage()
    return finish(canvas, buffer, "cover.pdf")


LEADING = 1.2   # a wrapped cover line's distance to the next, in its font size


class Liner:
    """Draws the cover's lines: plainly, or from the right, shaped and in visual order, for
    a right-to-left language."""

    def __init__(self, canvas: Canvas, left: float, width: float) -> None:
        self.canvas, self.left, self.width = canvas, left, width

    def __call__(self, face: str, size: float, y: float, words: str, indent: float = 0.0) -> float:
        """`words` from `y` down, wrapped to the page's width; how far below `y` the last line
        went, for the caller to move down by (0 for one line)."""
        from pnp.layout.text import has_rtl
        if not has_rtl(words):
            from reportlab.lib.utils import simpleSplit
            from reportlab.pdfbase.pdfmetrics import stringWidth
            self.canvas.setFont(face, size)
            fits = stringWidth(words, face, size) <= self.width - indent
            lines = [words] if fits else simpleSplit(words, face, size, self.width - indent)
            for number, line in enumerate(lines):
                self.canvas.drawString(self.left + indent, y - number * size * LEADING, line)
            return (len(lines) - 1) * size * LEADING
        from pnp.fonts import fallbacks_for
        from pnp.layout.runs import lay_out
        from pnp.layout.text import escape_text
        laid = lay_out(escape_text(words), face, fallbacks_for(face, words), (), size, LEADING, "000000", "left",
                       self.width - indent, float("inf"), force=True)
        if laid is None:
            return 0.0
        laid.drawOn(self.canvas, self.left, y - laid.height + size)
        return max(laid.height - size * LEADING, 0.0)
