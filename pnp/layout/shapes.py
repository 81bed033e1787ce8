"""Shapes beyond boxes and ellipses: regular polygons (a hexagon is `sides: 6`) or polygons
through given points, stars, and hex grids for boards and tiles. Each fills and strokes like a
box (`fill`, `stroke`, `stroke_width`, `dash`, `opacity`), inside its element box."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal, TypeAlias

from reportlab.lib.colors import black

from pnp.config.sheets import combined
from pnp.layout import maps
from pnp.layout.maps import LINKS, Point
from pnp.layout.elements import Colour, PieceContext, ShapeDrawer, ShapeSpec
from pnp.layout.icon_draw import draw_icon
from pnp.layout.icons import icons_of, load_icon
from pnp.layout.image import Picture, draw_vector, load_raster, load_svg
from pnp.units import Length, colour_hex

if TYPE_CHECKING:
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.pdfgen.pathobject import PDFPathObject


MAX_HEXES = 2_000
Ground: TypeAlias = "Color | tuple[float, float, float]"   # a cell's ground: its colour, or white as RGB


def regular(cx: float, cy: float, rx: float, ry: float, corners: int, turn: float) -> list[Point]:
    """Corners of a regular polygon in an ellipse of radii (rx, ry), the first at the top,
    turned `turn` degrees anticlockwise."""
    return [(cx + rx * math.cos(math.radians(90 + turn + 360 * i / corners)),
             cy + ry * math.sin(math.radians(90 + turn + 360 * i / corners))) for i in range(corners)]


def filling(x: float, y: float, w: float, h: float, corners: list[Point]) -> list[Point]:
    """The corners stretched so that they just touch every side of the box (x, y, w, h)."""
    left, right = min(cx for cx, _ in corners), max(cx for cx, _ in corners)
    bottom, top = min(cy for _, cy in corners), max(cy for _, cy in corners)
    return [(x + (cx - left) / (right - left) * w, y + (cy - bottom) / (top - bottom) * h) for cx, cy in corners]


def closed_path(canvas: Canvas, points: list[Point]) -> PDFPathObject:
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    return path


@dataclass(kw_only=True)
class PolygonSpec(ShapeSpec, kind="polygon"):
    """A regular polygon filling the box (`sides`), or one through `points` (x, y measured in
    the box from its top-left, lengths or percentages of the box). A regular polygon reaches
    all four sides of its box whatever its sides and turn (`fit: box`), so a hexagon in a hex
    grid cell's box is that cell; `fit: circle` keeps its corners on the box's ellipse, as
    pnp drew it before (a hexagon then falls short of the sides of a square box)."""

    sides: int | None = field(default=None, metadata={"min": 3, "max": 64})
    points: list[list[Length]] | None = None
    turn: float = field(default=0.0, metadata={"min": -360, "max": 360})   # degrees, anticlockwise
    fit: Literal["box", "circle"] = "box"

    def compile(self, piece: PieceContext) -> "PolygonDrawer":
        if (self.sides is None) == (self.points is None):
            raise self.origin.error("a polygon needs exactly one of 'sides' (a regular polygon) or 'points'")
        if self.points is not None and (len(self.points) < 3 or any(len(p) != 2 for p in self.points)):
            raise self.where_is("points").error("points are at least three [x, y] pairs, e.g. [[0, 0], [10mm, 0], [5mm, 8mm]]")
        return PolygonDrawer(self, piece)


class PolygonDrawer(ShapeDrawer):
    def __init__(self, spec: PolygonSpec, piece: PieceContext):
        super().__init__(spec, piece)
        x, y, w, h = self.rect
        if spec.sides and spec.fit == "circle":
            self.points = regular(x + w / 2, y + h / 2, w / 2, h / 2, spec.sides, spec.turn)
        elif spec.sides:
            self.points = filling(x, y, w, h, regular(0, 0, 1, 1, spec.sides, spec.turn))
        else:
            self.points = [(x + px.of(w), y + h - py.of(h)) for px, py in spec.points or []]

    def shape(self, canvas: Canvas, fill: int, stroke: int) -> None:
        canvas.drawPath(closed_path(canvas, self.points), fill=fill, stroke=stroke)


@dataclass(kw_only=True)
class StarSpec(ShapeSpec, kind="star"):
    """A star filling the box: `points` tips, its inner corners at `inner` of the radius."""

    points: int = field(default=5, metadata={"min": 3, "max": 64})
    inner: float = field(default=0.5, metadata={"min": 0.05, "max": 0.95})
    turn: float = field(default=0.0, metadata={"min": -360, "max": 360})

    def compile(self, piece: PieceContext) -> "StarDrawer":
        return StarDrawer(self, piece)


class StarDrawer(ShapeDrawer):
    def __init__(self, spec: StarSpec, piece: PieceContext):
        super().__init__(spec, piece)
        x, y, w, h = self.rect
        cx, cy = x + w / 2, y + h / 2
        outer = regular(cx, cy, w / 2, h / 2, spec.points, spec.turn)
        inner = regular(cx, cy, w / 2 * spec.inner, h / 2 * spec.inner, spec.points, spec.turn + 180 / spec.points)
        self.points = [corner for pair in zip(outer, inner) for corner in pair]

    def shape(self, canvas: Canvas, fill: int, stroke: int) -> None:
        canvas.drawPath(closed_path(canvas, self.points), fill=fill, stroke=stroke)


@dataclass(kw_only=True)
class GridSpec(ShapeSpec):
    """What hex and square grids share: `rows` x `columns` cells of `size` from the box's
    top-left, `labels` writing each cell's coordinate (A1, A2 ... B1: rows by letter), and
    `cells`, a data file (YAML, CSV, TSV or XLSX) giving cells a fill, picture, label, icons,
    rivers and roads (pnp.layout.maps)."""

    size: Length
    rows: int = field(metadata={"min": 1, "max": 200})
    columns: int = field(metadata={"min": 1, "max": 200})
    labels: bool = False
    label_size: float = field(default=6.0, metadata={"min": 2, "max": 72})
    stroke: str = "black"
    cells: str | None = None      # the map's data file, in the game folder
    river: str = "#2f6db5"        # colours of the rivers and roads the cells name
    road: str = "#8a6a3a"

    def draws(self) -> int:
        per_cell = (2 if self.labels else 1) + (4 if self.cells else 0)
        return self.rows * self.columns * per_cell

    def check_size(self) -> None:
        if self.rows * self.columns > MAX_HEXES:
            raise self.origin.error(f"{self.rows * self.columns:,} cells is more than a board needs (at most {MAX_HEXES:,})")


@dataclass(kw_only=True)
class HexGridSpec(GridSpec, kind="hexgrid"):
    """Hexagons, `size` from centre to corner; `pointy` hexes stand on a corner (rows offset),
    `flat` ones on a side (columns offset)."""

    orientation: Literal["flat", "pointy"] = "flat"

    def compile(self, piece: PieceContext) -> "GridDrawer":
        self.check_size()
        return GridDrawer(self, piece)


@dataclass(kw_only=True)
class SquareGridSpec(GridSpec, kind="squaregrid"):
    """Squares of side `size`, in rows and columns from the box's top-left."""

    def compile(self, piece: PieceContext) -> "GridDrawer":
        self.check_size()
        return GridDrawer(self, piece)


class GridDrawer(ShapeDrawer):
    def __init__(self, spec: GridSpec, piece: PieceContext):
        super().__init__(spec, piece)
        self.spec = spec
        side = spec.size.of(min(piece.width, piece.height))
        self.font = piece.fonts.family("text", spec.where_is("labels")).face() if spec.labels or spec.cells else None
        if isinstance(spec, HexGridSpec):
            turn = 30 if spec.orientation == "flat" else 0
            self.hexes = hex_centres(self.rect, side, spec.rows, spec.columns, spec.orientation)
            self.outlines = {(row, col): regular(cx, cy, r, r, 6, turn) for row, col, cx, cy, r in self.hexes}
        else:
            x, y, w, h = self.rect
            self.hexes = [(row, col, x + side * (col + 0.5), y + h - side * (row + 0.5), side / 2)
                          for row in range(spec.rows) for col in range(spec.columns)]
            self.outlines = {(row, col): [(cx - r, cy + r), (cx + r, cy + r), (cx + r, cy - r), (cx - r, cy - r)]
                             for row, col, cx, cy, r in self.hexes}
        self.centres = {(row, col): (cx, cy) for row, col, cx, cy, _ in self.hexes}
        self.side = side
        self.reach = side if isinstance(spec, HexGridSpec) else side / 2   # from a cell's middle to its edge
        self.cells: list[maps.Cell] = []
        self.pictures: dict[str, Picture] = {}
        self.river = Colour(spec.river, spec.where_is("river"), piece.palette)
        self.road = Colour(spec.road, spec.where_is("road"), piece.palette)
        if spec.cells is not None:
            self.icons = icons_of(piece.game_dir) if piece.game_dir is not None else {}
            self.cells = maps.load_cells(piece.game_dir, spec.cells, spec.where_is("cells"), spec.rows,
                                         spec.columns, piece.palette, self.icons)
            if piece.labels is not None:   # a translated build: the cells' words in its language
                say = piece.labels
                self.cells = [replace(cell, label=say(cell.label, cell.where)) if cell.label else cell
                              for cell in self.cells]
            self._check_edges()
            for cell in self.cells:
                if cell.picture is not None and str(cell.picture) not in self.pictures:
                    self.pictures[str(cell.picture)] = \
                        load_svg(cell.picture, piece.game_dir, cell.picture.name, cell.where, "", piece.fonts) \
                        if cell.picture.suffix.lower() == ".svg" else \
                        load_raster(cell.picture, cell.picture.name, cell.where, "")

    def _check_edges(self) -> None:
        problems = []
        for cell in self.cells:
            for kind in LINKS:
                for other in cell.links(kind):
                    if self._side(cell.name, other) is None:
                        problems.append(cell.where.error(f"{kind} from {cell.name} to {other}: the cells are not "
                                                         f"next to each other"))
        if problems:
            raise combined(problems)

    def _key(self, name: str) -> tuple[int, int]:
        match = maps.COORDINATE.match(name)
        assert match is not None
        return maps.row_of(match.group(1)), int(match.group(2)) - 1

    def _side(self, a: str, b: str) -> list[Point] | None:
        return maps.shared_side(self.outlines[self._key(a)], self.outlines[self._key(b)], self.side)

    def outline(self, canvas: Canvas, colour: Color) -> None:
        """A saved fill's outline: each cell's, and only that (the coordinates and what the cells
        hold are drawn with the stroke, once)."""
        canvas.setStrokeColor(colour)
        canvas.setLineWidth(1.2)
        for outline in self.outlines.values():
            canvas.drawPath(closed_path(canvas, outline), fill=0, stroke=1)

    def shape(self, canvas: Canvas, fill: int, stroke: int) -> None:
        if not self.cells:   # as drawn before maps came: each hex filled and stroked at once
            for key in self.outlines:
                canvas.drawPath(closed_path(canvas, self.outlines[key]), fill=fill, stroke=stroke)
            self._coordinates(canvas, top=False)
            return
        if fill:
            for outline in self.outlines.values():
                canvas.drawPath(closed_path(canvas, outline), fill=1, stroke=0)
        canvas.saveState()
        for cell in self.cells:
            self._ground(canvas, cell)
        canvas.restoreState()
        if stroke:
            for outline in self.outlines.values():
                canvas.drawPath(closed_path(canvas, outline), fill=0, stroke=1)
        canvas.saveState()
        self._edges(canvas)
        canvas.restoreState()
        self._marks(canvas)

    def _ground(self, canvas: Canvas, cell: maps.Cell) -> None:
        outline = self.outlines[(cell.row, cell.column)]
        if cell.fill is not None:
            canvas.setFillColor(cell.fill)
            canvas.drawPath(closed_path(canvas, outline), fill=1, stroke=0)
        if cell.picture is not None:
            picture = self.pictures[str(cell.picture)]
            xs, ys = [x for x, _ in outline], [y for _, y in outline]
            x, y, w, h = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
            scale = max(w / picture.width, h / picture.height)   # covers the cell, cut at its sides
            canvas.saveState()
            canvas.clipPath(closed_path(canvas, outline), stroke=0, fill=0)
            drawn_w, drawn_h = picture.width * scale, picture.height * scale
            if picture.drawing is not None:
                canvas.translate(x + (w - drawn_w) / 2, y + (h - drawn_h) / 2)
                canvas.scale(scale, scale)
                draw_vector(picture.drawing, canvas)
            else:
                canvas.drawImage(picture.raster, x + (w - drawn_w) / 2, y + (h - drawn_h) / 2, drawn_w, drawn_h,
                                 mask="auto")
            canvas.restoreState()

    def _edges(self, canvas: Canvas) -> None:
        canvas.setLineCap(1)
        road = self.road.fixed
        if road is not None:
            canvas.setStrokeColor(road)
            canvas.setLineWidth(self.reach * 0.12)
            for cell in self.cells:
                for other in cell.road:
                    canvas.line(*self.centres[(cell.row, cell.column)], *self.centres[self._key(other)])
        river = self.river.fixed
        if river is not None:
            canvas.setStrokeColor(river)
            canvas.setLineWidth(self.reach * 0.18)
            for cell in self.cells:
                for other in cell.river:
                    side = self._side(cell.name, other)
                    assert side is not None   # checked when the cells were read (_check_edges)
                    (x1, y1), (x2, y2) = side
                    canvas.line(x1, y1, x2, y2)

    def _marks(self, canvas: Canvas) -> None:
        """Icons and labels the data gives, then the coordinates, at the top of each cell."""
        size = self.spec.label_size
        where_text = f"{self.spec.origin.file}:{self.spec.origin.line}"
        crossed = self._crossed_by_roads()
        for cell in self.cells:
            ink = cell.ink or (self.stroke.fixed if self.stroke.fixed is not None else black)
            cx, cy = self.centres[(cell.row, cell.column)]
            if cell.icons:
                height = self.reach * 0.5
                pictures = [load_icon(self.icons[name], colour_hex(ink), where_text) for name in cell.icons]
                total = sum(height * icon.aspect for icon in pictures) + height * 0.15 * (len(pictures) - 1)
                left = cx - total / 2
                for icon in pictures:
                    draw_icon(canvas, icon, left, cy - height / 2, height * icon.aspect, height)
                    left += height * icon.aspect + height * 0.15
            if cell.label:
                if (cell.row, cell.column) in crossed:
                    self._halo(canvas, cell.label, cx, cy - self.reach * 0.62, crossed[(cell.row, cell.column)])
                canvas.setFillColor(ink)
                canvas.setFont(self.font, size)
                canvas.drawCentredString(cx, cy - self.reach * 0.62, cell.label)
        self._coordinates(canvas, top=True)

    def _coordinates(self, canvas: Canvas, top: bool) -> None:
        if not self.spec.labels or self.font is None:
            return
        # in the stroke's colour (black when it is bound to a field)
        canvas.setFillColor(self.stroke.fixed if self.stroke.fixed is not None else (0, 0, 0))
        canvas.setFont(self.font, self.spec.label_size)
        lift = self.reach * 0.55 if top else -self.spec.label_size * 0.35
        crossed = self._crossed_by_roads() if top else {}
        for row, col, cx, cy, _ in self.hexes:
            name = maps.coordinate(row, col)
            if (row, col) in crossed:   # a road runs through where the coordinate stands: keep it readable
                self._halo(canvas, name, cx, cy + lift, crossed[(row, col)])
            canvas.drawCentredString(cx, cy + lift, name)

    def _crossed_by_roads(self) -> dict[tuple[int, int], Ground]:
        """The cells a road runs through, each with the colour of its ground (its fill, the
        grid's, or white)."""
        grounds = {(cell.row, cell.column): cell.fill for cell in self.cells if cell.fill is not None}
        ground = self.fill.fixed if self.fill.fixed is not None else (1, 1, 1)
        crossed: dict[tuple[int, int], Ground] = {}
        for cell in self.cells:
            for other in cell.road:
                for key in ((cell.row, cell.column), self._key(other)):
                    crossed[key] = grounds.get(key, ground)
        return crossed

    def _halo(self, canvas: Canvas, text: str, cx: float, y: float, ground: Ground) -> None:
        """The text's outline, thick and in its cell's ground colour, under the text itself."""
        from reportlab.pdfbase.pdfmetrics import stringWidth
        size = self.spec.label_size
        canvas.saveState()
        canvas.setStrokeColor(ground)
        canvas.setLineWidth(size * 0.3)
        canvas.setLineJoin(1)
        outline = canvas.beginText(cx - stringWidth(text, self.font, size) / 2, y)
        outline.setFont(self.font, size)
        outline.setTextRenderMode(1)   # stroke only
        outline.textOut(text)
        canvas.drawText(outline)
        canvas.restoreState()


def hex_centres(rect: tuple[float, float, float, float], r: float, rows: int, columns: int,
                orientation: str) -> list[tuple[int, int, float, float, float]]:
    """(row, column, x, y, radius) of every hex, the first touching the box's top-left."""
    x, y, w, h = rect
    top = y + h
    found = []
    for row in range(rows):
        for col in range(columns):
            if orientation == "flat":   # columns of hexes, every other one half a hex lower
                cx = x + r + col * 1.5 * r
                cy = top - math.sqrt(3) / 2 * r * (1 + 2 * row + (col % 2))
            else:                      # rows of hexes, every other one half a hex to the right
                cx = x + math.sqrt(3) / 2 * r * (1 + 2 * col + (row % 2))
                cy = top - r - row * 1.5 * r
            found.append((row, col, cx, cy, r))
    return found
