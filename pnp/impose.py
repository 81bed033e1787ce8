"""Where pieces go on paper: the grid, cut marks, where backs go for duplex, board tiles.

All positions are PDF points from the bottom-left corner of the sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pnp.errors import PnpError
from pnp.layout.units import mm

PAPER_SIZES = {"letter": (612.0, 792.0), "a4": (595.2756, 841.8898)}
UNPRINTABLE = mm(5)         # home printers cannot print this close to the edge
MARK_OFFSET = mm(0.35)      # cut marks stop short of the trim so they never show on a piece
MARK_LENGTH = mm(5)
Duplex = Literal["long-edge", "short-edge", "none", "fold"]


@dataclass(frozen=True)
class Grid:
    """Pieces of one size laid out in columns and rows, centred on the sheet."""

    paper: tuple[float, float]
    piece: tuple[float, float]   # trim size
    gap: float
    cols: int
    rows: int
    origin: tuple[float, float] | None = None   # bottom-left of the block; None: centred

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def size(self) -> tuple[float, float]:
        pw, ph = self.piece
        return self.cols * pw + (self.cols - 1) * self.gap, self.rows * ph + (self.rows - 1) * self.gap

    @property
    def block(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the block of pieces."""
        width, height = self.size
        if self.origin is not None:
            left, bottom = self.origin
        else:
            left, bottom = (self.paper[0] - width) / 2, (self.paper[1] - height) / 2
        return left, bottom, left + width, bottom + height

    def slot(self, index: int) -> tuple[float, float]:
        """Bottom-left corner of slot `index`, counted in reading order from the top-left."""
        col, row = index % self.cols, index // self.cols
        left, _, _, top = self.block
        pw, ph = self.piece
        return left + col * (pw + self.gap), top - ph - row * (ph + self.gap)

    def back_slot(self, index: int, duplex: Duplex, offset: tuple[float, float]) -> tuple[float, float]:
        """Where the back of slot `index` goes on the following page so it prints behind it.

        A long-edge flip mirrors the columns, a short-edge flip mirrors the rows. The offset
        (points right and down, as seen on the back page) makes up for a printer's shift."""
        x, y = self.slot(index)
        pw, ph = self.piece
        if duplex == "long-edge":
            x = self.paper[0] - x - pw
        elif duplex == "short-edge":
            y = self.paper[1] - y - ph
        return x + offset[0], y - offset[1]

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x of every vertical and the y of every horizontal trim line."""
        left, bottom, _, top = self.block
        pw, ph = self.piece
        xs = sorted({round(left + c * (pw + self.gap) + d, 4) for c in range(self.cols) for d in (0, pw)})
        ys = sorted({round(top - r * (ph + self.gap) - d, 4) for r in range(self.rows) for d in (0, ph)})
        return xs, ys


def grid_for(paper: tuple[float, float], piece: tuple[float, float], gap: float,
             bleed: float = 0.0) -> Grid:
    """As many pieces as fit inside the printable area, leaving room for their bleed."""
    usable_w = paper[0] - 2 * UNPRINTABLE - 2 * bleed
    usable_h = paper[1] - 2 * UNPRINTABLE - 2 * bleed
    cols = int((usable_w + gap + 1e-6) // (piece[0] + gap))
    rows = int((usable_h + gap + 1e-6) // (piece[1] + gap))
    if cols < 1 or rows < 1:
        raise PnpError(f"a {piece[0] / mm(1):.1f} x {piece[1] / mm(1):.1f} mm piece does not fit "
                       f"on this paper inside the 5 mm margin; make it a board instead")
    return Grid(paper, piece, gap, cols, rows)


def draw_cut_marks(canvas, grid: Grid) -> None:
    """Short marks in the margin, on the line of every trim edge, none over a piece."""
    left, bottom, right, top = grid.block
    width, height = grid.paper
    xs, ys = grid.cut_lines()
    canvas.saveState()
    canvas.setLineWidth(0.25)
    canvas.setStrokeGray(0)
    lines = []
    top_end = min(top + MARK_OFFSET + MARK_LENGTH, height - UNPRINTABLE)
    bottom_end = max(bottom - MARK_OFFSET - MARK_LENGTH, UNPRINTABLE)
    for x in xs:
        if top_end > top + MARK_OFFSET:
            lines.append((x, top + MARK_OFFSET, x, top_end))
        if bottom_end < bottom - MARK_OFFSET:
            lines.append((x, bottom - MARK_OFFSET, x, bottom_end))
    right_end = min(right + MARK_OFFSET + MARK_LENGTH, width - UNPRINTABLE)
    left_end = max(left - MARK_OFFSET - MARK_LENGTH, UNPRINTABLE)
    for y in ys:
        if right_end > right + MARK_OFFSET:
            lines.append((right + MARK_OFFSET, y, right_end, y))
        if left_end < left - MARK_OFFSET:
            lines.append((left - MARK_OFFSET, y, left_end, y))
    canvas.lines(lines)
    canvas.restoreState()


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

    @property
    def fold_line(self) -> tuple[float, float, float, float]:
        w, h = self.paper
        return (0, h / 2, w, h / 2) if self.across else (w / 2, 0, w / 2, h)


def fold_sheet(paper: tuple[float, float], piece: tuple[float, float], gap: float,
               bleed: float = 0.0) -> FoldSheet:
    """The gutter-fold arrangement that fits the most pieces, trying the sheet both ways up
    and the fold both ways; on a tie, a fold across the sheet."""
    best = None
    for sheet in (paper, (paper[1], paper[0])):
        for across in (True, False):
            w, h = sheet
            room_w = w - 2 * UNPRINTABLE - 2 * bleed
            room_h = h - 2 * UNPRINTABLE - 2 * bleed
            if across:
                room_h = (h - FOLD_GUTTER) / 2 - UNPRINTABLE - 2 * bleed
            else:
                room_w = (w - FOLD_GUTTER) / 2 - UNPRINTABLE - 2 * bleed
            cols = int((room_w + gap + 1e-6) // (piece[0] + gap))
            rows = int((room_h + gap + 1e-6) // (piece[1] + gap))
            if cols < 1 or rows < 1:
                continue
            grid = Grid(sheet, piece, gap, cols, rows)
            bw, bh = grid.size
            if across:   # fronts above the fold, backs below, both against the gutter
                front_origin = ((w - bw) / 2, h / 2 + FOLD_GUTTER / 2 + bleed)
                back_origin = ((w - bw) / 2, h / 2 - FOLD_GUTTER / 2 - bleed - bh)
            else:        # fronts left of the fold, backs right
                front_origin = (w / 2 - FOLD_GUTTER / 2 - bleed - bw, (h - bh) / 2)
                back_origin = (w / 2 + FOLD_GUTTER / 2 + bleed, (h - bh) / 2)
            candidate = FoldSheet(sheet, Grid(sheet, piece, gap, cols, rows, front_origin),
                                  Grid(sheet, piece, gap, cols, rows, back_origin), across)
            if best is None or candidate.per_sheet > best.per_sheet:
                best = candidate
    if best is None:
        raise PnpError(f"a {piece[0] / mm(1):.1f} x {piece[1] / mm(1):.1f} mm piece does not fit "
                       f"on half a sheet of this paper; use --duplex long-edge or short-edge")
    return best


@dataclass(frozen=True)
class Tile:
    label: str        # A1, A2 ... B1: row letter, column number
    col: int
    row: int
    x: float          # the board region this sheet shows, in board points from the bottom-left
    y: float
    width: float
    height: float


def tile_board(board: tuple[float, float], paper: tuple[float, float], overlap: float) -> list[Tile]:
    """Cover the board with sheet-sized windows, top-left first, each overlapping the one to
    its left and the one above by exactly `overlap`; the last column and row are narrower."""
    label_room = mm(6)
    window_w = paper[0] - 2 * UNPRINTABLE
    window_h = paper[1] - 2 * UNPRINTABLE - label_room
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
