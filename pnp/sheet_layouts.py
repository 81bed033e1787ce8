"""Sheet layouts as data: where each piece of a deck goes on the paper, written in YAML.

    # sheets/poker-2x4-gutters.yaml
    description: Eight poker cards with 6 mm gutters, for a rotary trimmer
    paper: letter
    piece: poker                          # a size name or [width, height]
    slots:                                # each piece's top-left corner, from the sheet's top-left
      - {x: 35mm, y: 20mm}
      - {x: 104.5mm, y: 20mm}
    # or, instead of slots, a block centred on the sheet:
    grid: {columns: 2, rows: 4, gap: 6mm}

A deck names one with `sheet: poker-2x4-gutters`; it is looked up in the project's sheets/
folder, then among pnp's own. Without `sheet:` pnp fits as many pieces as the paper holds
(pnp.impose.grid_for). A sheet layout answers the same questions as that grid: where each
front and back goes, how far each piece's bleed may reach, and where the cut lines are, so
home sheets, duplex backs and cut marks work the same for both.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pnp.paths import file_error, gate
from pnp.config.typed import Loaded, Where, load_as, where_of
from pnp.errors import PnpError, did_you_mean, known
from pnp.impose import MARGIN_FOR_MARK, MIN_MARK_GUTTER, PAPER_SIZES, UNPRINTABLE, MarksBetween, turned_over
from pnp.options import Duplex
from pnp.config.size import Size
from pnp.units import Length
from pnp.resources import BUNDLED
from pnp.yaml_source import display_path, load_yaml

NEAR = 0.05   # points: closer than this, two edges are one cut line


@dataclass
class SlotSpec(Loaded):
    x: Length
    y: Length


@dataclass
class GridSpec:
    columns: int
    rows: int
    gap: Length = Length(0.0)


@dataclass
class SheetLayoutSpec(Loaded):
    paper: Literal["letter", "a4"]
    piece: Size
    description: str = ""
    slots: list[SlotSpec] | None = None
    grid: GridSpec | None = None


@dataclass(frozen=True)
class SlotSheet(MarksBetween):
    """Pieces at the places a sheet layout gives; the same interface as impose.Grid."""

    name: str
    paper: tuple[float, float]
    piece: tuple[float, float]
    corners: tuple[tuple[float, float], ...]   # bottom-left of each trim, PDF points
    bleed: float = 0.0

    @property
    def per_sheet(self) -> int:
        return len(self.corners)

    def slot(self, index: int) -> tuple[float, float]:
        return self.corners[index]

    @property
    def block(self) -> tuple[float, float, float, float]:
        pw, ph = self.piece
        xs, ys = [x for x, _ in self.corners], [y for _, y in self.corners]
        return min(xs), min(ys), max(xs) + pw, max(ys) + ph

    @property
    def marks_between(self) -> tuple[bool, bool]:
        """As impose.Grid: lines whose ends lie in a margin too narrow for a mark are marked
        between the pieces, if no two pieces touch across them."""
        mx, my = self.margins
        pw, ph = self.piece
        room = MIN_MARK_GUTTER

        def apart(axis: int, size: float) -> bool:   # no neighbour along `axis` nearer than room
            return all(abs(a[axis] - b[axis]) >= size + room - NEAR or abs(a[1 - axis] - b[1 - axis]) >= (ph, pw)[axis] - NEAR
                       for i, a in enumerate(self.corners) for b in self.corners[i + 1:])
        return my < MARGIN_FOR_MARK - 1e-6 and apart(0, pw), mx < MARGIN_FOR_MARK - 1e-6 and apart(1, ph)

    def bleed_sides(self, index: int) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) bleed of slot `index`: half the way to the neighbour on
        that side, the outer bleed where there is none."""
        x, y = self.corners[index]
        pw, ph = self.piece
        out_x, out_y = self.outer_bleed
        inf = float("inf")
        room = [inf, inf, inf, inf]   # half the way to the nearest neighbour on each side

        def closer(side: int, distance: float) -> None:
            room[side] = min(room[side], distance / 2)

        for other, (ox, oy) in enumerate(self.corners):
            if other == index:
                continue
            if oy < y + ph - NEAR and y < oy + ph - NEAR:       # in the same row: left or right
                if ox >= x + pw - NEAR:
                    closer(2, ox - x - pw)
                elif ox + pw <= x + NEAR:
                    closer(0, x - ox - pw)
            if ox < x + pw - NEAR and x < ox + pw - NEAR:       # in the same column: below or above
                if oy >= y + ph - NEAR:
                    closer(3, oy - y - ph)
                elif oy + ph <= y + NEAR:
                    closer(1, y - oy - ph)
        outer = (out_x, out_y, out_x, out_y)
        left, bottom, right, top = (max(0.0, min(self.bleed, outer[side] if room[side] == inf else room[side]))
                                    for side in range(4))
        return left, bottom, right, top

    def back_slot(self, index: int, duplex: Duplex, offset: tuple[float, float]) -> tuple[float, float]:
        """Where the back of slot `index` goes on the next page: mirrored as the sheet turns."""
        return turned_over(self.corners[index], self.piece, self.paper, duplex, offset)

    def back_index(self, index: int, duplex: Duplex) -> int:
        """The slot whose place the back of slot `index` takes (the layout is symmetric)."""
        x, y = self.back_slot(index, duplex, (0.0, 0.0))
        for other, (ox, oy) in enumerate(self.corners):
            if abs(ox - x) < NEAR and abs(oy - y) < NEAR:
                return other
        raise PnpError(f"sheet layout '{self.name}': the back of piece {index + 1} would land where no "
                       f"piece is when the sheet is turned ({duplex}); make the slots mirror each other "
                       f"across the middle of the sheet")

    def cut_lines(self) -> tuple[list[float], list[float]]:
        pw, ph = self.piece
        xs = sorted({round(x + d, 4) for x, _ in self.corners for d in (0, pw)})
        ys = sorted({round(y + d, 4) for _, y in self.corners for d in (0, ph)})
        return xs, ys


def load_sheet_layout(root: Path, name: str, where: Where) -> tuple[SheetLayoutSpec, Where]:
    """The sheet layout `name`: the project's sheets/NAME.yaml, else pnp's own."""
    folders = [Path(root) / "sheets", BUNDLED / "sheets"]
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise where.error(f"'{name}' is not a sheet layout name; give the file name in sheets/ without .yaml")
    for folder in folders:
        path = folder / f"{name}.yaml"
        if path.is_file():
            gate(path, [folder], file_error(path), "sheet layout", where_to="the sheets folder")
            node = load_yaml(path)
            file_where = where_of(node)
            return load_as(SheetLayoutSpec, node, file_where), file_where
    names = sorted({p.stem for folder in folders if folder.is_dir() for p in folder.glob("*.yaml")})
    raise where.error(f"no sheet layout '{name}' in {display_path(folders[0])}",
                      hint=did_you_mean(name, names) or (f"sheet layouts: {known(names)}" if names else None))


def slot_sheet(root: Path, name: str, where: Where, paper_name: str, piece: tuple[float, float],
               bleed: float) -> SlotSheet:
    """The sheet layout `name` for pieces of size `piece` on `paper_name`, checked."""
    spec, file_where = load_sheet_layout(root, name, where)
    if spec.paper != paper_name:
        raise where.error(f"sheet layout '{name}' is for {spec.paper} paper, not {paper_name}; "
                          f"build with --paper {spec.paper} or name a sheet layout for {paper_name}")
    if abs(spec.piece.width - piece[0]) > 0.5 or abs(spec.piece.height - piece[1]) > 0.5:
        mm = 72 / 25.4
        raise spec.where_is("piece").error(
            f"sheet layout '{name}' holds {spec.piece.width / mm:.1f} x {spec.piece.height / mm:.1f} mm pieces, "
            f"but the deck's are {piece[0] / mm:.1f} x {piece[1] / mm:.1f} mm")
    paper = PAPER_SIZES[paper_name]
    corners = slot_corners(spec, paper, file_where)
    sheet = SlotSheet(name, paper, piece, tuple(corners), bleed)
    slot_wheres = [slot.origin for slot in spec.slots] if spec.slots else [spec.where_is("grid")] * len(corners)
    check_slots(sheet, slot_wheres)
    return sheet


def slot_corners(spec: SheetLayoutSpec, paper: tuple[float, float], where: Where) -> list[tuple[float, float]]:
    """Bottom-left corners in PDF points, from slots measured from the top-left or a grid."""
    pw, ph = spec.piece.width, spec.piece.height
    if (spec.slots is None) == (spec.grid is None):
        raise where.error("a sheet layout needs exactly one of 'slots' or 'grid'")
    if spec.grid is not None:
        cols, rows, gap = spec.grid.columns, spec.grid.rows, spec.grid.gap.of(paper[0])
        if not (1 <= cols <= 50 and 1 <= rows <= 50):
            raise spec.where_is("grid").error("a grid has 1 to 50 columns and rows")
        width, height = cols * pw + (cols - 1) * gap, rows * ph + (rows - 1) * gap
        left, top = (paper[0] - width) / 2, (paper[1] + height) / 2
        return [(left + c * (pw + gap), top - ph - r * (ph + gap)) for r in range(rows) for c in range(cols)]
    if not spec.slots:
        raise spec.where_is("slots").error("a sheet layout needs at least one slot")
    return [(slot.x.of(paper[0]), paper[1] - slot.y.of(paper[1]) - ph) for slot in spec.slots]


def check_slots(sheet: SlotSheet, wheres: list[Where]) -> None:
    """Every piece inside the printable area, and no two overlapping."""
    width, height = sheet.paper
    pw, ph = sheet.piece
    for index, (x, y) in enumerate(sheet.corners):
        if x < UNPRINTABLE - NEAR or y < UNPRINTABLE - NEAR or x + pw > width - UNPRINTABLE + NEAR \
                or y + ph > height - UNPRINTABLE + NEAR:
            raise wheres[index].error(f"sheet layout '{sheet.name}': piece {index + 1} reaches into the 5 mm "
                              f"margin a home printer cannot print, or off the paper")
        for other in range(index):
            ox, oy = sheet.corners[other]
            if ox < x + pw - NEAR and x < ox + pw - NEAR and oy < y + ph - NEAR and y < oy + ph - NEAR:
                raise wheres[index].error(f"sheet layout '{sheet.name}': pieces {other + 1} and {index + 1} overlap")
