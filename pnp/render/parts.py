"""A long file drawn in parts: a deck of many sheets is drawn a part at a time, each part a PDF
of its own, and the parts are joined into the one file (pnp.outputs.joining), so that with
`--jobs` several processes draw the parts at once. Where the parts fall depends only on the
number of sheets, so the bytes are the same however many processes drew them. A file of one
part is drawn as it always was, and nothing is joined."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from pnp.diagnostics import Diagnostics
    from pnp.outputs.pdf import OutputFile

# Sheets a part holds at most. A part costs one process about 30 ms (its own canvas and font
# subsets, each look it stamps drawn again); 320 sheets of nine cards take a process about
# 0.3 s, so a 5,600-card deck makes two parts, one for each of two cores.
SHEETS_A_PART = 320

# Draws sheet `index` of the file on the canvas; returns the pieces it placed, for the progress.
SheetDrawer = Callable[["Canvas", int], int]
# A part as a process made it: its file, its pages, the warnings its drawing gave, the icon
# art it drew (pnp.layout.icon_art) and the pieces it placed.
Part = tuple[bytes, int, list[str], dict[str, object], int]


def parts_of(sheets: int) -> list[range]:
    """Sheets 0 to `sheets` - 1 in near-equal runs of at most SHEETS_A_PART."""
    count = max(1, -(-sheets // SHEETS_A_PART))
    bounds = [sheets * at // count for at in range(count + 1)]
    return [range(start, end) for start, end in itertools.pairwise(bounds)]


def drawn_in_parts(name: str, role: str, paper: tuple[float, float], title: str, sheets: int, draw: SheetDrawer,
                   diagnostics: Diagnostics, tick: Callable[[int], None], jobs: int = 1,
                   stop: Callable[[], None] = lambda: None) -> OutputFile:
    """The file of `sheets` sheets, each drawn by `draw`; in parts joined into one when it is
    long, the parts drawn `jobs` processes at a time. `stop` is called between sheets, and
    may raise to end the drawing (the build's rules refuse it)."""
    from pnp.outputs.pdf import CHECKING, OutputFile, finish, new_canvas
    parts = parts_of(sheets)
    if len(parts) == 1 or CHECKING.get():   # validate makes no file to join
        buffer = io.BytesIO()
        canvas = new_canvas(buffer, paper, title)
        for index in range(sheets):
            stop()
            tick(draw(canvas, index))
        return finish(canvas, buffer, name, role=role)

    def part_file(at: int, tick: Callable[[int], None]) -> tuple[bytes, int]:
        buffer = io.BytesIO()
        canvas = new_canvas(buffer, paper, title)
        for index in parts[at]:
            stop()
            tick(draw(canvas, index))
        made = finish(canvas, buffer, name, role=role)
        return made.data, made.pages

    def part_apart(at: str) -> Part:   # in a child: the parent's progress is the parent's to move
        from pnp.layout import icon_art
        placed = [0]
        with diagnostics.listening() as heard:
            data, pages = part_file(int(at), lambda pieces: placed.append(pieces))
        return data, pages, heard, icon_art.made_here(), sum(placed)

    ahead: dict[str, Part] = {}
    if jobs > 1:
        from pnp.processes import forked
        ahead = forked([str(at) for at in range(len(parts))], part_apart, jobs, stop)
    files = []
    for at in range(len(parts)):
        if str(at) not in ahead:
            files.append(part_file(at, tick)[0])
            continue
        from pnp.layout import icon_art
        data, _, heard, art, placed = ahead[str(at)]
        for warning in heard:   # told in the order one process tells them
            diagnostics.warn(warning)
        icon_art.take(art)
        tick(placed)
        files.append(data)
    from pnp.outputs.joining import joined
    data, pages = joined(files, [()] * len(files), paper, title, b"/ViewerPreferences<</PrintScaling/None>>")
    return OutputFile(name, data, pages, role=role)
