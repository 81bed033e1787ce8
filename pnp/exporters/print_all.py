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
              fonts: FontBook, say: Callable[[str], str] = str, duplex: str = "long-edge") -> OutputFile:
    """The cover, then each part. A file for a duplex printer (`duplex` long-edge or
    short-edge) starts every part on a fresh sheet and gives a part printed on one side a
    blank back for each page, so the whole file prints double-sided in one go; a file for
    one-sided printing (fold, none) has no blank page. `say` puts pnp's own words into a
    translated build's language."""
    sources = [cover(game_title, paper, parts, fonts, say, duplex)] + [part.file for part in parts]
    data, pages = joined([source.data for source in sources], blank_pages(parts, duplex), paper,
                         f"{game_title}: everything to print",
                         b"/ViewerPreferences<</PrintScaling/None>>")   # print at 100 %
    return OutputFile(print_all_name(game_id, suffix), data, pages)


def blank_pages(parts: list[Part], duplex: str) -> list[tuple[int, ...]]:
    """After which pages of the cover and of each part a blank page goes (see `backs`)."""
    both_sides = duplex in ("long-edge", "short-edge")
    return [backs(1, False, both_sides)] + [backs(part.file.pages, part.double_sided, both_sides) for part in parts]


def backs(pages: int, double_sided: bool, both_sides: bool) -> tuple[int, ...]:
    """After which of a part's pages a blank page goes: none in a file printed on one side;
    printed on both, a blank back for each page of a one-sided part, and one after the last
    page of a two-sided part with an odd count, so the next part starts on a fresh sheet."""
    if not both_sides:
        return ()
    if not double_sided:
        return tuple(range(pages))
    return (pages - 1,) if pages % 2 else ()


def print_all_name(game_id: str, suffix: str) -> str:
    return f"{game_id}-print-all-{suffix}.pdf"


HOW_TO_PRINT = {
    "long-edge": "Print at 100 % (actual size, not fit to page), on both sides of the paper, turning it on the long edge.",
    "short-edge": "Print at 100 % (actual size, not fit to page), on both sides of the paper, turning it on the short edge.",
    "fold": "Print at 100 % (actual size, not fit to page), on one side of the paper.",
    "none": "Print at 100 % (actual size, not fit to page), on one side of the paper.",
}
FRESH_SHEETS = "Each part starts on a new sheet; a part printed on one side gets a blank back for each page."


def cover(game_title: str, paper: tuple[float, float], parts: list[Part], fonts: FontBook,
          say: Callable[[str], str] = str, duplex: str = "long-edge") -> OutputFile:
    """The cover: how to print the file, then each part with its pages (blank pages counted
    where print_all puts them), sides, sheets and cutting."""
    from pnp.config.typed import where_of
    blanks = blank_pages(parts, duplex)
    text = fonts.family("text", where_of(None, "font"))
    display = fonts.family("display", where_of(None, "font"))
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, paper, f"{game_title}: cover")
    width, height = paper
    left, y = mm(20), height - mm(30)
    line = Liner(canvas, left, width - 2 * left)
    y -= line(display.face(), 24, y, filled(say("{title}: everything to print"), title=game_title))
    y -= mm(10)
    for words in (HOW_TO_PRINT[duplex], FRESH_SHEETS) if blanks[0] else (HOW_TO_PRINT[duplex],):
        y -= line(text.face(), 10, y, say(words))
        y -= mm(5)
    y -= mm(6)
    page = 2 + len(blanks[0])   # the cover (and its blank back) come first
    for part, after in zip(parts, blanks[1:]):
        count = part.file.pages
        sheets = -(-count // 2) if part.double_sided else count
        last = page + count - 1 + len([index for index in after if index < count - 1])
        pages = filled(say("(page {page})"), page=page) if last == page else \
            filled(say("(pages {first}-{last})"), first=page, last=last)
        y -= line(text.face(bold=True), 11, y, f"{part.title}  {pages}")
        y -= mm(5)
        sides = say("double-sided" if part.double_sided else "single-sided")
        told = filled(say("{count} sheet" if sheets == 1 else "{count} sheets"), count=sheets)
        y -= line(text.face(), 10, y, f"{sides}, {told}: {say(part.cutting)}", indent=mm(5))
        if part.file.note:   # which edges got less bleed than asked
            y -= mm(4.5)
            y -= line(text.face(), 8.5, y, part.file.note[:1].upper() + part.file.note[1:] + ".", indent=mm(5))
        y -= mm(8)
        page += count + len(after)
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
