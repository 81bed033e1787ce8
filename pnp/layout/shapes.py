"""Shapes beyond boxes and ellipses: regular polygons (a hexagon is `sides: 6`) or polygons
through given points, stars, and hex grids for boards and tiles. Each fills and strokes like a
box (`fill`, `stroke`, `stroke_width`, `dash`, `opacity`), inside its element box."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from pnp.config.sheets import column_letter   # A, B ... Z, AA: rows named as a spreadsheet names columns
from pnp.layout.elements import PieceContext, ShapeDrawer, ShapeSpec
from pnp.layout.units import Length

MAX_HEXES = 2_000


def regular(cx: float, cy: float, rx: float, ry: float, corners: int, turn: float) -> list[tuple[float, float]]:
    """Corners of a regular polygon in an ellipse of radii (rx, ry), the first at the top,
    turned `turn` degrees anticlockwise."""
    return [(cx + rx * math.cos(math.radians(90 + turn + 360 * i / corners)),
             cy + ry * math.sin(math.radians(90 + turn + 360 * i / corners))) for i in range(corners)]


def filling(x: float, y: float, w: float, h: float, corners: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The corners stretched so that they just touch every side of the box (x, y, w, h)."""
    left, right = min(cx for cx, _ in corners), max(cx for cx, _ in corners)
    bottom, top = min(cy for _, cy in corners), max(cy for _, cy in corners)
    return [(x + (cx - left) / (right - left) * w, y + (cy - bottom) / (top - bottom) * h) for cx, cy in corners]


def closed_path(canvas, points):
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
            raise self._where.error("a polygon needs exactly one of 'sides' (a regular polygon) or 'points'")
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

    def shape(self, canvas, fill: int, stroke: int) -> None:
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

    def shape(self, canvas, fill: int, stroke: int) -> None:
        canvas.drawPath(closed_path(canvas, self.points), fill=fill, stroke=stroke)


@dataclass(kw_only=True)
class HexGridSpec(ShapeSpec, kind="hexgrid"):
    """Hexagons in `rows` x `columns` from the box's top-left, `size` from centre to corner;
    `pointy` hexes stand on a corner (rows offset), `flat` ones on a side (columns offset).
    `labels` writes each hex's coordinate (A1, A2 ... B1) in its middle."""

    size: Length
    rows: int = field(metadata={"min": 1, "max": 200})
    columns: int = field(metadata={"min": 1, "max": 200})
    orientation: Literal["flat", "pointy"] = "flat"
    labels: bool = False
    label_size: float = field(default=6.0, metadata={"min": 2, "max": 72})
    stroke: str = "black"

    def draws(self) -> int:
        return self.rows * self.columns * (2 if self.labels else 1)

    def compile(self, piece: PieceContext) -> "HexGridDrawer":
        if self.rows * self.columns > MAX_HEXES:
            raise self._where.error(f"{self.rows * self.columns:,} hexes is more than a board needs (at most {MAX_HEXES:,})")
        return HexGridDrawer(self, piece)


class HexGridDrawer(ShapeDrawer):
    def __init__(self, spec: HexGridSpec, piece: PieceContext):
        super().__init__(spec, piece)
        self.spec = spec
        self.font = piece.fonts.family("text", spec.where_is("labels")).face() if spec.labels else None
        self.hexes = hex_centres(self.rect, spec.size.of(min(piece.width, piece.height)), spec.rows,
                                 spec.columns, spec.orientation)

    def shape(self, canvas, fill: int, stroke: int) -> None:
        turn = 30 if self.spec.orientation == "flat" else 0
        for _, _, cx, cy, r in self.hexes:
            canvas.drawPath(closed_path(canvas, regular(cx, cy, r, r, 6, turn)), fill=fill, stroke=stroke)
        if self.font:   # in the stroke's colour (black when it is bound to a field)
            canvas.setFillColor(self.stroke.fixed if self.stroke.fixed is not None else (0, 0, 0))
            canvas.setFont(self.font, self.spec.label_size)
            for row, col, cx, cy, _ in self.hexes:
                canvas.drawCentredString(cx, cy - self.spec.label_size * 0.35, f"{column_letter(row)}{col + 1}")


def hex_centres(rect, r: float, rows: int, columns: int, orientation: str) -> list[tuple[int, int, float, float, float]]:
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
