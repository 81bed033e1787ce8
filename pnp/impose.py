"""Where pieces go on paper: the grid, cut marks, where backs go for duplex, board tiles.

All positions are PDF points from the bottom-left corner of the sheet.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, Literal

from pnp.options import Duplex  # noqa: F401 - defined beside PrintOptions, light to import
from pnp.errors import PnpError
from pnp.units import mm

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

PAPER_SIZES = {"letter": (612.0, 792.0), "a4": (595.2756, 841.8898)}
HOME_PAPERS = ("letter", "a4")   # what a home printer takes: a game should print alike on both
UNPRINTABLE = mm(5)         # home printers cannot print this close to the edge
INKJET_MARGIN = mm(6.35)    # many inkjets print nothing this close: a mark must still show past it
CLEAR = mm(1)               # the least gap between a mark and any trim or bleed it does not mark
MARK_OFFSET = CLEAR         # cut marks start this far outside the bleed, so a crooked cut leaves none on a piece
MARK_LENGTH = mm(5)         # at most, so a mark never reaches the pieces across a fold gutter
MIN_MARK = mm(0.5)          # a mark shorter than this is not drawn
CUTTABLE_MARK = mm(3)       # every cut line shows a mark at least this long past INKJET_MARGIN
MARK_WIDTH = 0.25           # points
MARK_GUTTER = mm(2)         # the narrowest gutter pnp chooses (a narrower one is a sliver to cut twice)
MIN_MARK_GUTTER = CLEAR + MARK_WIDTH   # a mark beside one piece, CLEAR from the piece across the gutter
MARGIN_FOR_MARK = INKJET_MARGIN + MARK_OFFSET + CUTTABLE_MARK
Orientation = Literal["any", "upright", "turned"]


class MarksBetween:
    """The bleed round the block and the marks between pieces, for a sheet of pieces (impose.Grid
    or a sheet layout's SlotSheet) that says where each goes (slot), where the block of them
    lies (block), how much bleed each side has (bleed_sides) and which lines are marked
    between them (marks_between)."""

    paper: tuple[float, float]
    piece: tuple[float, float]   # trim size as it lies on the sheet (turned pieces: width and height swapped)
    bleed: float                 # the bleed asked for; neighbours and the margin may leave less room
    turned: bool = False         # pieces drawn a quarter turn anticlockwise
    full_bleed: bool = False     # the whole bleed round the block: marks go between pieces rather than cut it

    @property
    def mark_room(self) -> float:
        """The margin that holds marks at the ends of the lines: with full bleed, the bleed too."""
        return MARGIN_FOR_MARK + (self.bleed if self.full_bleed else 0.0)

    @property
    def per_sheet(self) -> int:
        raise NotImplementedError

    def slot(self, index: int) -> tuple[float, float]:
        raise NotImplementedError

    @property
    def block(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the pieces' trims together."""
        raise NotImplementedError

    @property
    def margins(self) -> tuple[float, float]:
        """The narrower margin beside the block and the narrower one above or below it."""
        left, bottom, right, top = self.block
        return min(left, self.paper[0] - right), min(bottom, self.paper[1] - top)

    @property
    def marked_in_margin(self) -> tuple[bool, bool]:
        """Whether the (vertical, horizontal) cut lines are marked in the margin at their ends
        (above and below; beside the block): the margin holds a mark an inkjet prints."""
        mx, my = self.margins
        between_v, between_h = self.marks_between
        return (not between_v and my >= self.mark_room - 1e-6, not between_h and mx >= self.mark_room - 1e-6)

    @property
    def outer_bleed(self) -> tuple[float, float]:
        """Bleed around the block (sideways, up and down): up to the printable margin, less the
        room a mark an inkjet prints needs where the lines ending in that margin are marked there."""
        mx, my = self.margins
        in_margin_v, in_margin_h = self.marked_in_margin
        sideways = min(self.bleed, mx - (MARGIN_FOR_MARK if in_margin_h else UNPRINTABLE))
        upright = min(self.bleed, my - (MARGIN_FOR_MARK if in_margin_v else UNPRINTABLE))
        return max(0.0, sideways), max(0.0, upright)

    def bleed_sides(self, index: int) -> tuple[float, float, float, float]:
        raise NotImplementedError

    @property
    def marks_between(self) -> tuple[bool, bool]:
        raise NotImplementedError

    def cut_lines(self) -> tuple[list[float], list[float]]:
        raise NotImplementedError

    @cached_property
    def slot_bleeds(self) -> list[tuple[tuple[float, float, float, float], list[tuple[float, float, float, float]]]]:
        """Each slot's (bleed_sides, bleed_notches), worked out once: every sheet of a deck
        places its pieces alike, and a slot's bleed depends on its neighbours and the margin."""
        return [(self.bleed_sides(index), self.bleed_notches(index)) for index in range(self.per_sheet)]

    def bleed_notches(self, index: int) -> list[tuple[float, float, float, float]]:
        """(x, y, width, height) of the windows cut out of slot `index`'s bleed, from its trim's
        bottom-left corner, so the marks between pieces lie CLEAR of every bleed."""
        left, bottom, right, top = self.bleed_sides(index)
        pw, ph = self.piece
        to_top, to_bottom, to_left, to_right = (length + 2 * CLEAR for length in self.between_lengths(index))
        between_v, between_h = self.marks_between
        notches = []
        if between_v:   # beside the piece, at its top and its bottom
            for x, width in ((-left, left), (pw, right)):
                if width > 0:
                    notches += [(x, ph - to_top, width, to_top + top), (x, -bottom, width, to_bottom + bottom)]
        if between_h:   # above and below the piece, at its left and its right end (corners once)
            corner_l, corner_r = (0.0, 0.0) if between_v else (left, right)
            for y, height in ((-bottom, bottom), (ph, top)):
                if height > 0:
                    notches += [(-corner_l, y, to_left + corner_l, height), (pw - to_right, y, to_right + corner_r, height)]
        return notches

    def between_lengths(self, index: int) -> tuple[float, float, float, float]:
        """How long the marks between pieces are along slot `index`'s edges, from CLEAR inside
        its top, bottom, left and right end: CUTTABLE_MARK past the inkjet's margin, where the
        piece's end lies inside it."""
        x, y = self.slot(index)
        pw, ph = self.piece
        width, height = self.paper
        top, bottom, left, right = (CUTTABLE_MARK + max(0.0, INKJET_MARGIN - edge - CLEAR)
                                    for edge in (height - y - ph, y, x, width - x - pw))
        return top, bottom, left, right

    def unmarked_lines(self) -> list[str]:
        """Each cut line that has no mark an inkjet prints, and why, for the build to say."""
        width, height = self.paper
        xs, ys = self.cut_lines()
        between_v, between_h = self.marks_between
        in_margin_v, in_margin_h = self.marked_in_margin
        found = []
        for vertical, lines, length, marked in ((True, xs, width, between_v or in_margin_v),
                                                (False, ys, height, between_h or in_margin_h)):
            name = "vertical" if vertical else "horizontal"
            for at in lines:
                edge = min(at, length - at)
                if edge < INKJET_MARGIN - 1e-6:
                    found.append(f"the {name} cut at {at / mm(1):.2f} mm lies {edge / mm(1):.2f} mm from the "
                                 f"paper's edge, where many inkjets print nothing")
                elif not marked:
                    margin = self.margins[0 if not vertical else 1] / mm(1)
                    found.append(f"the {name} cut at {at / mm(1):.2f} mm has no mark: the margin at its ends is "
                                 f"{margin:.2f} mm (a mark needs {MARGIN_FOR_MARK / mm(1):.2f}) and the pieces "
                                 f"beside it touch")
        return found

    def bleed_by_edge(self) -> dict[str, float]:
        """The least bleed each kind of edge gets: the block's sides, its top and bottom, and
        between the pieces beside and above one another."""
        left, bottom, right, top = self.block
        pw, ph = self.piece
        got: dict[str, float] = {}
        for index in range(self.per_sheet):
            x, y = self.slot(index)
            sides = self.bleed_sides(index)
            outer = (abs(x - left) < 0.05, abs(y - bottom) < 0.05, abs(x + pw - right) < 0.05, abs(y + ph - top) < 0.05)
            for side, value in enumerate(sides):
                where = (("at the sides of the block", "above and below the block")[side % 2] if outer[side]
                         else ("between the columns", "between the rows")[side % 2])
                got[where] = min(got.get(where, value), value)
        return got

    def bleed_summary(self, say: Callable[[str], str] = str) -> str:
        """The edges that get less bleed than asked, and how much, in words (the others get
        all of it); `say` puts pnp's own words into a translated build's language (the
        print-all cover's note)."""
        if self.bleed <= 0:
            return ""
        got = {where: value for where, value in self.bleed_by_edge().items() if value < self.bleed - 0.01}
        if not got:
            return ""
        words = [filled(say("{amount} mm {where}"), amount=f"{value / mm(1):.2f}", where=say(where)) if value > 0.005
                 else filled(say("none {where} (they share a cut line)"), where=say(where))
                 if where.startswith("between") else filled(say("none {where}"), where=say(where))
                 for where, value in got.items()]
        return filled(say("{bleed} mm bleed asked, the paper leaves {edges}"), bleed=f"{self.bleed / mm(1):.3g}",
                      edges=", ".join(words))


def filled(phrase: str, **values: object) -> str:
    """A phrase of pnp's own words with its {holes} filled (a translated phrase keeps them):
    the cut-mark and bleed notes here, the print-all cover (pnp.exporters.print_all)."""
    for name, value in values.items():
        phrase = phrase.replace("{" + name + "}", str(value))
    return phrase


@dataclass(frozen=True)
class Grid(MarksBetween):
    """Pieces of one size laid out in columns and rows, centred on the sheet.

    Where a margin is too narrow for a cut mark an inkjet prints (three poker rows on Letter
    leave 6.35 mm), the lines that end there are marked between the pieces instead: short
    marks in the gutter beside each piece's edge, CLEAR inside its ends, with the bleed
    notched round them. Cut the other way first, on the marks in the wide margin; each strip
    then carries its own marks."""

    paper: tuple[float, float]
    piece: tuple[float, float]   # trim size on the sheet
    gap: float                   # between columns (and rows, unless row_gap is given)
    cols: int
    rows: int
    origin: tuple[float, float] | None = None   # bottom-left of the block; None: centred
    bleed: float = 0.0   # the bleed asked for; neighbours and the margin may leave less room
    row_gap: float | None = None
    turned: bool = False   # pieces lie a quarter turn round: `piece` is their size as they lie
    full_bleed: bool = False

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def gaps(self) -> tuple[float, float]:
        """(between columns, between rows)."""
        return self.gap, self.gap if self.row_gap is None else self.row_gap

    @property
    def size(self) -> tuple[float, float]:
        pw, ph = self.piece
        gx, gy = self.gaps
        return self.cols * pw + (self.cols - 1) * gx, self.rows * ph + (self.rows - 1) * gy

    @cached_property
    def block(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the block of pieces (asked for every piece placed)."""
        width, height = self.size
        if self.origin is not None:
            left, bottom = self.origin
        else:
            left, bottom = (self.paper[0] - width) / 2, (self.paper[1] - height) / 2
        return left, bottom, left + width, bottom + height

    @property
    def inner_bleed(self) -> tuple[float, float]:
        """Bleed between neighbours (beside, above and below): half the gap at most, so no piece
        paints inside another's trim; touching pieces share a cut line and have none."""
        gx, gy = self.gaps
        return min(self.bleed, gx / 2), min(self.bleed, gy / 2)

    @property
    def marks_between(self) -> tuple[bool, bool]:
        """Whether the (vertical, horizontal) cut lines are marked between the pieces, because
        the margin at their ends (above and below; beside) is too narrow for a mark."""
        mx, my = self.margins
        gx, gy = self.gaps
        return (my < self.mark_room - 1e-6 and (self.cols == 1 or gx >= MIN_MARK_GUTTER - 1e-6),
                mx < self.mark_room - 1e-6 and (self.rows == 1 or gy >= MIN_MARK_GUTTER - 1e-6))

    def bleed_sides(self, index: int) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) bleed of slot `index`: outer edges get the outer bleed."""
        col, row = index % self.cols, index // self.cols
        out_x, out_y = self.outer_bleed
        in_x, in_y = self.inner_bleed
        return (out_x if col == 0 else in_x, out_y if row == self.rows - 1 else in_y,
                out_x if col == self.cols - 1 else in_x, out_y if row == 0 else in_y)

    def back_index(self, index: int, duplex: Duplex) -> int:
        """The slot whose place the back of slot `index` takes on the back page."""
        col, row = index % self.cols, index // self.cols
        if duplex in ("long-edge", "none"):
            col = self.cols - 1 - col
        elif duplex == "short-edge":
            row = self.rows - 1 - row
        return row * self.cols + col

    def slot(self, index: int) -> tuple[float, float]:
        """Bottom-left corner of slot `index`, counted in reading order from the top-left."""
        col, row = index % self.cols, index // self.cols
        left, _, _, top = self.block
        pw, ph = self.piece
        gx, gy = self.gaps
        return left + col * (pw + gx), top - ph - row * (ph + gy)

    def back_slot(self, index: int, duplex: Duplex, offset: tuple[float, float]) -> tuple[float, float]:
        """Where the back of slot `index` goes on the following page so it prints behind it.

        A long-edge flip mirrors the columns, a short-edge flip mirrors the rows; a separate
        back sheet (`none`) is turned over like a book page, which mirrors the columns too. The
        offset (points right and down, as seen on the back page) makes up for a printer's shift."""
        return turned_over(self.slot(index), self.piece, self.paper, duplex, offset)

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x of every vertical and the y of every horizontal trim line."""
        left, bottom, _, top = self.block
        pw, ph = self.piece
        gx, gy = self.gaps
        xs = sorted({round(left + c * (pw + gx) + d, 4) for c in range(self.cols) for d in (0, pw)})
        ys = sorted({round(top - r * (ph + gy) - d, 4) for r in range(self.rows) for d in (0, ph)})
        return xs, ys


def turned_over(corner: tuple[float, float], piece: tuple[float, float], paper: tuple[float, float],
                duplex: Duplex, offset: tuple[float, float]) -> tuple[float, float]:
    """Where a piece at `corner` on the front lands on the back page: mirrored as the sheet is
    turned, then moved by the printer's offset (right and down)."""
    x, y = corner
    if duplex in ("long-edge", "none"):
        x = paper[0] - x - piece[0]
    elif duplex == "short-edge":
        y = paper[1] - y - piece[1]
    return x + offset[0], y - offset[1]


def grid_for(paper: tuple[float, float], piece: tuple[float, float], gap: float | None,
             bleed: float = 0.0, orientation: Orientation = "any", full_bleed: bool = False,
             count: int | None = None) -> Grid:
    """The most pieces inside the printable area, upright or a quarter turn round (unless the
    game pins `orientation`); among the ways to lay out that many, the one whose every cut
    line has a mark an inkjet prints, then the one that gives the most bleed, then the one
    with marks in the margin rather than between pieces, then upright. Without a gap of the
    layout's own, each way (columns, rows) gets a gutter of twice the bleed where it fits,
    else the pieces touch and share cut lines, or get a narrower gutter that holds marks."""
    candidates = []
    for turned in {"any": (False, True), "upright": (False,), "turned": (True,)}[orientation]:
        footprint = (piece[1], piece[0]) if turned else piece
        across = _axis_options(paper[0], footprint[0], gap, bleed, full_bleed)
        down = _axis_options(paper[1], footprint[1], gap, bleed, full_bleed)
        for (cols, gx), (rows, gy) in itertools.product(across, down):
            candidates.append(Grid(paper, footprint, gx, cols, rows, bleed=bleed, row_gap=gy, turned=turned,
                                   full_bleed=full_bleed))
            needed = -(-count // cols) if count else rows
            if needed < rows and gap is None and not full_bleed:   # a deck one sheet holds in fewer rows
                for gutter in _gutters(paper[1], footprint[1], needed, bleed):
                    candidates.append(Grid(paper, footprint, gx, cols, needed, bleed=bleed, row_gap=gutter,
                                           turned=turned))
    if not candidates:
        raise PnpError(f"a {piece[0] / mm(1):.1f} x {piece[1] / mm(1):.1f} mm piece does not fit "
                       f"on this paper inside the 5 mm margin; make it a board instead")
    most = max(_held(grid, count) for grid in candidates)   # the cheap test first: most grids hold fewer
    return min((grid for grid in candidates if _held(grid, count) == most), key=lambda grid: _worse(grid, count))


def _held(grid: Grid, count: int | None) -> int:
    """How many of the deck's `count` pieces a sheet holds (every slot, with no count)."""
    return grid.per_sheet if count is None else min(grid.per_sheet, count)


def _worse(grid: Grid, count: int | None = None) -> tuple[float, ...]:
    """Sort key: more pieces (of the `count` there are), fewer unmarked cut lines, less bleed
    lost, marks in the margin, upright, narrower gutters, then no empty rows (a deck one sheet
    holds sits in a block of its own size, its marks beside it)."""
    used = range(_held(grid, count))   # the slots a sheet fills: an empty one's bleed is nobody's
    shortfall = sum(grid.bleed - side for index in used for side in grid.bleed_sides(index)) if grid.bleed else 0.0
    between = sum(grid.marks_between)
    return (-_held(grid, count), grid.turned, len(grid.unmarked_lines()), round(shortfall / mm(0.1)), between,
            round(sum(grid.gaps), 3), grid.per_sheet)


def _axis_options(length: float, piece: float, gap: float | None, bleed: float,
                  full_bleed: bool = False) -> list[tuple[int, float]]:
    """(count, gutter) ways to lay pieces along one side of the sheet: as many as fit, or one
    fewer (a deck that one sheet holds either way may then get margins wide enough for marks),
    with the layout's own gap, or with a gutter of twice the bleed, none, the narrowest that
    holds marks between pieces, or the widest that leaves a margin for marks."""
    room = length - 2 * UNPRINTABLE
    if full_bleed:   # the whole bleed in every gutter and round the block
        gap = 2 * bleed if gap is None else max(gap, 2 * bleed)
        count = _fit(room - 2 * bleed, piece, gap)
        return [(count, gap)] if count else []
    if gap is not None:
        count = _fit(room, piece, gap)
        return [(count, gap)] if count else []
    most = _fit(room, piece, 0.0)
    return [(count, gutter) for count in range(most, max(0, most - 2), -1)
            for gutter in _gutters(length, piece, count, bleed)]


def _gutters(length: float, piece: float, count: int, bleed: float) -> list[float]:
    """The gutters worth trying for `count` pieces along a side of the sheet."""
    if count == 1:
        return [0.0]
    widest = (length - 2 * UNPRINTABLE - count * piece) / (count - 1)
    gutters = {0.0, min(2 * bleed, widest)}
    if widest >= MARK_GUTTER:
        gutters.add(MARK_GUTTER)
    for outer in (bleed, 0.0):   # as wide as still leaves a margin for marks (and the outer bleed)
        keeps = (length - count * piece - 2 * (MARGIN_FOR_MARK + outer)) / (count - 1)
        if MARK_GUTTER <= keeps <= min(2 * bleed, widest):
            gutters.add(keeps)
    return [round(each, 6) for each in sorted(gutters) if each == 0.0 or each >= min(MARK_GUTTER, 2 * bleed) - 1e-9]


def _fit(room: float, length: float, gap: float) -> int:
    return max(0, int((room + gap + 1e-6) // (length + gap)))


def draw_cut_marks(canvas: Canvas, grid: MarksBetween, slots: Iterable[int] | None = None) -> None:
    """Marks in the margin on the line of every trim edge, from CLEAR outside the bleed to the
    printer's margin, none over a piece or its bleed; and between the pieces where the margin
    has no room for them, beside the slots in use only (`slots`, default all): a sheet part
    filled shows no marks in its empty part."""
    canvas.saveState()
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setStrokeGray(0)
    canvas._code.extend(marks_operators(grid, None if slots is None else tuple(slots)))
    canvas.restoreState()


@lru_cache(maxsize=64)
def marks_operators(grid: MarksBetween, slots: tuple[int, ...] | None) -> tuple[str, ...]:
    """The PDF operators that stroke a sheet's cut marks (beside `slots`), as reportlab's
    Canvas.lines writes them: a deck's full sheets all have the same marks, made once."""
    from reportlab.lib.rl_accel import fp_str   # as the canvas formats its numbers
    lines = cut_marks(grid, slots) + cut_marks_between(grid, slots)
    return ("n", *(f"{fp_str(x1, y1)} m {fp_str(x2, y2)} l" for x1, y1, x2, y2 in lines), "S")


def cut_marks(grid: MarksBetween, slots: Iterable[int] | None = None) -> list[tuple[float, float, float, float]]:
    left, bottom, right, top = grid.block
    width, height = grid.paper
    out_x, out_y = grid.outer_bleed
    xs, ys = grid.cut_lines()
    if slots is not None:   # only the lines that cut a piece on the sheet
        pw, ph = grid.piece
        corners = [grid.slot(index) for index in slots]
        edges_x = [x + d for x, _ in corners for d in (0, pw)]
        edges_y = [y + d for _, y in corners for d in (0, ph)]
        xs = [x for x in xs if any(abs(x - edge) < 0.01 for edge in edges_x)]
        ys = [y for y in ys if any(abs(y - edge) < 0.01 for edge in edges_y)]
    between_v, between_h = grid.marks_between
    lines = []
    for start, limit, outward, vertical in ((top + out_y + MARK_OFFSET, height - UNPRINTABLE, 1, True),
                                            (bottom - out_y - MARK_OFFSET, UNPRINTABLE, -1, True),
                                            (right + out_x + MARK_OFFSET, width - UNPRINTABLE, 1, False),
                                            (left - out_x - MARK_OFFSET, UNPRINTABLE, -1, False)):
        length = min(MARK_LENGTH, (limit - start) * outward)
        if length < MIN_MARK:
            continue
        # a stub an inkjet prints less than a cuttable mark of, where the lines are marked
        # between the pieces already, is only clutter at the sheet's edge
        edge = limit + outward * UNPRINTABLE   # the paper's edge beyond it
        printed = min(length, (edge - start) * outward - INKJET_MARGIN)
        if printed < CUTTABLE_MARK - 1e-6 and (between_v if vertical else between_h):
            continue
        end = start + outward * length
        for at in xs if vertical else ys:
            lines.append((at, start, at, end) if vertical else (start, at, end, at))
    return lines


def cut_marks_between(grid: MarksBetween,
                      slots: Iterable[int] | None = None) -> list[tuple[float, float, float, float]]:
    """Marks beside each piece's edges, just outside its trim (the line's width lies in the
    gutter, so a cut on the line leaves no mark on the piece), from CLEAR inside each end of
    the edge, so no mark touches the cut line across it: at the top and the bottom of its side
    edges, and at the ends of its top and bottom edges, where grid.marks_between asks."""
    between_v, between_h = grid.marks_between
    if not (between_v or between_h):
        return []
    pw, ph = grid.piece
    half = MARK_WIDTH / 2
    lines = []
    for index in range(grid.per_sheet) if slots is None else slots:
        x, y = grid.slot(index)
        to_top, to_bottom, to_left, to_right = grid.between_lengths(index)
        if between_v:
            for at in (x - half, x + pw + half):
                lines += [(at, y + ph - CLEAR, at, y + ph - CLEAR - to_top), (at, y + CLEAR, at, y + CLEAR + to_bottom)]
        if between_h:
            for at in (y - half, y + ph + half):
                lines += [(x + CLEAR, at, x + CLEAR + to_left, at), (x + pw - CLEAR, at, x + pw - CLEAR - to_right, at)]
    return lines


FOLD_GUTTER = mm(10)   # between the fronts and the backs of a gutter-fold sheet


@dataclass(frozen=True)
class FoldSheet:
    """Fronts and backs on one side of a sheet, to fold along the middle and glue: no duplex
    printer needed. A fold across the sheet (backs below the fronts) turns the backs upside
    down; a fold down the sheet (backs beside the fronts) mirrors their places only."""

    paper: tuple[float, float]
    fronts: Grid
    backs: Grid
    across: bool           # True: fold line horizontal, backs rotated 180 degrees

    @property
    def per_sheet(self) -> int:
        return self.fronts.per_sheet

    def back_slot(self, index: int) -> tuple[float, float]:
        """Bottom-left of the back of front slot `index`: its mirror image across the fold."""
        x, y = self.fronts.slot(index)
        pw, ph = self.fronts.piece
        if self.across:
            return x, self.paper[1] - y - ph
        return self.paper[0] - x - pw, y

    def back_index(self, index: int) -> int:
        """The slot of the backs' grid that the back of front slot `index` takes."""
        col, row = index % self.fronts.cols, index // self.fronts.cols
        if self.across:
            row = self.fronts.rows - 1 - row
        else:
            col = self.fronts.cols - 1 - col
        return row * self.fronts.cols + col

    @property
    def fold_line(self) -> tuple[float, float, float, float]:
        w, h = self.paper
        return (0, h / 2, w, h / 2) if self.across else (w / 2, 0, w / 2, h)


def fold_sheet(paper: tuple[float, float], piece: tuple[float, float], gap: float | None,
               bleed: float = 0.0, orientation: Orientation = "any", full_bleed: bool = False,
               count: int | None = None) -> FoldSheet:
    """The gutter-fold arrangement that fits the most pieces, trying the sheet both ways up,
    the fold both ways and the pieces upright and turned (unless pinned); among those, as
    grid_for chooses: marks an inkjet prints, most bleed, marks in the margin, upright, and on
    a tie a fold across the sheet. Gutters are twice the bleed (or `gap`), or MARK_GUTTER where
    the margin has no room for marks and the pieces would touch."""
    best: tuple[tuple[float, ...], FoldSheet] | None = None
    for sheet in (paper, (paper[1], paper[0])):
        for across in (True, False):
            for turned in {"any": (False, True), "upright": (False,), "turned": (True,)}[orientation]:
                footprint = (piece[1], piece[0]) if turned else piece
                wide = 2 * bleed if gap is None else max(gap, 2 * bleed) if full_bleed else gap
                for each in dict.fromkeys([wide] if full_bleed else [wide, MARK_GUTTER if gap is None else gap]):
                    candidate = _fold(sheet, footprint, each, bleed, across, turned, full_bleed)
                    if candidate is None:
                        continue
                    key = _worse(candidate.fronts, count) + (not across,)
                    if best is None or key < best[0]:
                        best = (key, candidate)
    if best is None:
        raise PnpError(f"a {piece[0] / mm(1):.1f} x {piece[1] / mm(1):.1f} mm piece does not fit "
                       f"on half a sheet of this paper; use --duplex long-edge or short-edge")
    return best[1]


def _fold(sheet: tuple[float, float], piece: tuple[float, float], gap: float, bleed: float, across: bool,
          turned: bool, full_bleed: bool = False) -> FoldSheet | None:
    w, h = sheet
    room_w = w - 2 * UNPRINTABLE - 2 * bleed
    room_h = h - 2 * UNPRINTABLE - 2 * bleed
    if across:
        room_h = (h - FOLD_GUTTER) / 2 - UNPRINTABLE - 2 * bleed
    else:
        room_w = (w - FOLD_GUTTER) / 2 - UNPRINTABLE - 2 * bleed
    cols, rows = _fit(room_w, piece[0], gap), _fit(room_h, piece[1], gap)
    if cols < 1 or rows < 1:
        return None
    bw, bh = Grid(sheet, piece, gap, cols, rows).size
    if across:   # fronts above the fold, backs below, both against the gutter
        front_origin = ((w - bw) / 2, h / 2 + FOLD_GUTTER / 2 + bleed)
        back_origin = ((w - bw) / 2, h / 2 - FOLD_GUTTER / 2 - bleed - bh)
    else:        # fronts left of the fold, backs right
        front_origin = (w / 2 - FOLD_GUTTER / 2 - bleed - bw, (h - bh) / 2)
        back_origin = (w / 2 + FOLD_GUTTER / 2 + bleed, (h - bh) / 2)
    return FoldSheet(sheet, Grid(sheet, piece, gap, cols, rows, front_origin, bleed, turned=turned,
                                 full_bleed=full_bleed),
                     Grid(sheet, piece, gap, cols, rows, back_origin, bleed, turned=turned, full_bleed=full_bleed),
                     across)


def back_quarter(front: int, duplex: Duplex, across: bool = False) -> int:
    """Quarter turns (anticlockwise) of a piece's back on the back page (or the back half of a
    fold sheet) whose front is turned `front` quarters, so the back's top lies behind the
    front's top: the sheet's turn mirrors the turn, and a sheet turned over its short edge (a
    short-edge flip, a fold across the sheet) turns the backs upside down as well. A card cut
    out and turned over like a book page then shows its back upright, whichever way it was
    printed."""
    if duplex == "short-edge" or (duplex == "fold" and across):
        return (2 - front) % 4
    return (-front) % 4


TILE_MARGIN = MARGIN_FOR_MARK   # round each tile's window: room for the marks at the board's own edges
TILE_LABEL_ROOM = mm(6)        # above the window, for the sheet's label


@dataclass(frozen=True)
class Tile:
    label: str        # A1, A2 ... B1: row letter, column number
    col: int
    row: int
    x: float          # the board region this sheet shows, in board points from the bottom-left
    y: float
    width: float
    height: float

    @property
    def origin(self) -> tuple[float, float]:
        """Where the window's bottom-left corner lies on the sheet."""
        return TILE_MARGIN, TILE_MARGIN


def tiled(board: tuple[float, float], paper: tuple[float, float],
          overlap: float) -> tuple[tuple[float, float], list[Tile]]:
    """The sheet a board is tiled on and its tiles: the paper upright, or turned a quarter
    (landscape) where that takes fewer sheets (a 190 x 180 mm map fits one turned A4 sheet,
    and took two upright)."""
    upright = tile_board(board, paper, overlap)
    turned_paper = (paper[1], paper[0])
    try:
        turned = tile_board(board, turned_paper, overlap)
    except PnpError:   # the overlap too wide for the turned window: upright it is
        return paper, upright
    return (turned_paper, turned) if len(turned) < len(upright) else (paper, upright)


def tile_board(board: tuple[float, float], paper: tuple[float, float], overlap: float) -> list[Tile]:
    """Cover the board with sheet-sized windows, top-left first, each overlapping the one to
    its left and the one above by exactly `overlap`; the last column and row are narrower.
    Each window keeps TILE_MARGIN from the paper's edge, so a board edge on a sheet is a cut
    line with a mark an inkjet prints at both ends (tile_marks)."""
    window_w = paper[0] - 2 * TILE_MARGIN
    window_h = paper[1] - 2 * TILE_MARGIN - TILE_LABEL_ROOM
    if window_w <= 2 * overlap or window_h <= 2 * overlap:
        raise PnpError("the board's overlap is too wide for a sheet of this paper")
    xs = _starts(board[0], window_w, overlap)
    tops = [board[1] - start for start in _starts(board[1], window_h, overlap)]
    tiles = []
    for row, top in enumerate(tops):
        for col, x in enumerate(xs):
            width = min(window_w, board[0] - x)
            height = min(window_h, top)
            tiles.append(Tile(f"{chr(ord('A') + row)}{col + 1}", col, row, x, top - height, width, height))
    return tiles


def _starts(length: float, window: float, overlap: float) -> list[float]:
    """Where each window starts along `length`, stepping by window - overlap."""
    starts = [0.0]
    while starts[-1] + window < length - 1e-6:
        starts.append(starts[-1] + window - overlap)
    return starts


def tile_marks(tile: Tile, board: tuple[float, float], paper: tuple[float, float],
               bleed: float = 0.0) -> list[tuple[float, float, float, float]]:
    """Cut marks for the board's own edges a tile shows, on the sheet: on the line of each
    edge (`bleed` inside the edge of the tiled area, which holds the bleed), past both ends
    of the window, from CLEAR outside it towards the paper's edge (at most MARK_LENGTH, never
    into the printer's margin). The seams between tiles are cut on their dashed lines, which
    run through the art."""
    left, bottom = tile.origin
    right, top = left + tile.width, bottom + tile.height
    width, height = paper
    edges_x = [x for x, on in ((left + bleed, tile.x < 0.01),
                               (right - bleed, tile.x + tile.width > board[0] - 0.01)) if on]
    edges_y = [y for y, on in ((bottom + bleed, tile.y < 0.01),
                               (top - bleed, tile.y + tile.height > board[1] - 0.01)) if on]
    lines = []
    for start, limit, outward, vertical in ((top + CLEAR, height - UNPRINTABLE, 1, True),
                                            (bottom - CLEAR, UNPRINTABLE, -1, True),
                                            (right + CLEAR, width - UNPRINTABLE, 1, False),
                                            (left - CLEAR, UNPRINTABLE, -1, False)):
        end = start + outward * min(MARK_LENGTH, (limit - start) * outward)
        for at in edges_x if vertical else edges_y:
            lines.append((at, start, at, end) if vertical else (start, at, end, at))
    return lines
