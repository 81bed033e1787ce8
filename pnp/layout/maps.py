"""Grids drawn from data: a hex or square grid's cells listed by coordinate in a file (YAML, CSV,
TSV or XLSX, read by the same readers as card data), each with a fill, a picture, a label,
icons, and rivers (along the side it shares with a neighbour) or roads (to a neighbour's
middle). Every problem in the file is reported at once, each at its row."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal

from pnp.config.sheets import blank, column_letter, combined, is_sheet, read_rows, short, split_sheet
from pnp.config.typed import Where, where_of
from pnp.errors import PnpError, did_you_mean, known
from pnp.units import parse_colour
from pnp.paths import safe_path
from pnp.yaml_source import YamlList, YamlMap, display_path, load_yaml, type_name

if TYPE_CHECKING:
    from reportlab.lib.colors import Color


COLUMNS = {
    "cell": "the cell's coordinate, as the grid labels it: A1 is the first row's first cell",
    "fill": "a colour (a palette name, #rrggbb or a CSS name)",
    "picture": "an image in the game folder, covering the cell",
    "label": "text written in the cell",
    "colour": "the colour of the label and icons (the grid's stroke colour if not given)",
    "icons": "icons from the game's icons/ folder, e.g. ':castle: :tower:'",
    "river": "neighbouring cells a river runs between, along the shared side: 'B4 C4'",
    "road": "neighbouring cells a road leads to, middle to middle: 'B4'",
}
Point = tuple[float, float]
COORDINATE = re.compile(r"^([A-Z]+)([0-9]+)$")
_ICON = re.compile(r":?([A-Za-z0-9_-]+):?")


@dataclass
class Cell:
    """One cell of a grid as its data file describes it."""

    name: str
    row: int
    column: int
    where: Where
    fill: Color | None = None
    picture: Path | None = None
    label: str = ""
    ink: Color | None = None      # the label's and icons' colour
    icons: list[str] = field(default_factory=list)
    river: list[str] = field(default_factory=list)
    road: list[str] = field(default_factory=list)

    def links(self, kind: Link) -> list[str]:
        """The neighbours a river (along the shared side) or a road (middle to middle) joins."""
        return self.river if kind == "river" else self.road


Link = Literal["river", "road"]
LINKS: tuple[Link, ...] = ("river", "road")


def coordinate(row: int, column: int) -> str:
    return f"{column_letter(row)}{column + 1}"


def row_of(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number - 1


def load_cells(game_dir: Path, name: str, where: Where, rows: int, columns: int, palette: dict[str, str],
               icons: dict[str, Path]) -> list[Cell]:
    """The cells a grid's data file lists, checked against the grid (rows x columns)."""
    file, sheet = split_sheet(name) if is_sheet(name) else (name, None)
    path = safe_path(game_dir, file, where, what="map data")
    if not path.is_file():
        raise where.error(f"map data '{name}' not found in the game folder")
    errors: list[PnpError] = []
    records = yaml_records(path) if path.suffix.lower() in (".yaml", ".yml") else sheet_records(path, sheet, errors)
    cells: dict[str, Cell] = {}
    size = f"this grid of {rows} rows ({column_letter(0)}-{column_letter(rows - 1)}) and {columns} columns (1-{columns})"

    def known_cell(text: str, place: Where) -> str | None:
        match = COORDINATE.match(text.strip().upper())
        if not match or not (0 <= row_of(match.group(1)) < rows and 1 <= int(match.group(2)) <= columns):
            errors.append(place.error(f"no cell '{text}' on {size}"))
            return None
        return coordinate(row_of(match.group(1)), int(match.group(2)) - 1)

    for row_where, values, place in records:
        for key in values:
            if key not in COLUMNS:
                errors.append(place(key).error(f"unknown column '{key}'",
                                               hint=did_you_mean(key, COLUMNS) or f"a map's columns: {known(COLUMNS)}"))
        if blank(values.get("cell")):
            errors.append(place("cell").error("every row names its cell, e.g. B3"))
            continue
        name_of = known_cell(str(values["cell"]), place("cell"))
        if name_of is None:
            continue
        if name_of in cells:
            errors.append(place("cell").error(f"cell {name_of} is listed twice (first at {cells[name_of].where.field or cells[name_of].where.line})"))
            continue
        match = COORDINATE.match(name_of)
        assert match is not None
        cell = Cell(name_of, row_of(match.group(1)), int(match.group(2)) - 1, row_where)
        def colour_in(column: str) -> Color | None:
            """The column's colour (a palette name or any colour pnp reads), or None if blank."""
            text = text_value(values.get(column), place(column))
            if not text:
                return None
            try:
                return parse_colour(palette.get(text, text))
            except ValueError as exc:
                raise place(column).error(str(exc)) from None

        try:
            cell.fill = colour_in("fill")
            cell.ink = colour_in("colour")
            picture = text_value(values.get("picture"), place("picture"))
            if picture:
                cell.picture = safe_path(game_dir, picture, place("picture"), what="picture")
                if not cell.picture.is_file():
                    raise place("picture").error(f"picture '{picture}' not found in the game folder")
            cell.label = text_value(values.get("label"), place("label"))
            for icon in _ICON.findall(text_value(values.get("icons"), place("icons"))):
                if icon not in icons:
                    raise place("icons").error(f"no icon '{icon}' in the game's icons/ folder",
                                               hint=did_you_mean(icon, icons) or (f"icons: {known(icons)}" if icons else None))
                cell.icons.append(icon)
        except PnpError as exc:
            errors.append(exc)
        for kind in LINKS:
            for other in re.split(r"[\s,;|]+", text_value(values.get(kind), place(kind)).strip()):
                if other:
                    neighbour = known_cell(other, place(kind))
                    if neighbour is not None:
                        cell.links(kind).append(neighbour)
        cells[name_of] = cell
    if errors:
        raise combined(errors)
    return list(cells.values())


def text_value(value: object, where: Where) -> str:
    if value is None or blank(value):
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise where.error(f"expected text, found {type_name(value)}")
    return str(value)


# A row of a map file: where it is, its values by column (as the file gives them) and where each is.
Record = tuple[Where, dict[str, Any], Callable[[str], Where]]


def sheet_records(path: Path, sheet: str | None, errors: list[PnpError]) -> list[Record]:
    """The map's rows; a heading that names no column is told once, at the heading, and a
    value past the last heading at its cell (into `errors`), as a card sheet tells them."""
    rows, place = read_rows(path, sheet)
    if not rows:
        raise PnpError("the map is empty: its first row should name the columns (cell, fill, label ...)",
                       file=display_path(path))
    header_row, header = rows[0][0], [str(h).strip() if h is not None else "" for h in rows[0][1]]
    shown = display_path(path)
    for col, name in enumerate(header):
        if name and name not in COLUMNS:
            errors.append(Where(shown, None, f"{place}row {header_row}, column {column_letter(col)} ({name})").error(
                f"unknown column '{name}'", hint=did_you_mean(name, COLUMNS) or f"a map's columns: {known(COLUMNS)}"))
    records: list[Record] = []
    for number, cells in rows[1:]:
        values = {name: cells[col] for col, name in enumerate(header)
                  if name in COLUMNS and col < len(cells) and not blank(cells[col])}
        # a value no heading names (past the last, or under an empty one) would be dropped
        stray = next((col for col in range(len(cells)) if (col >= len(header) or not header[col])
                      and not blank(cells[col])), None)
        if stray is not None:
            lies = "is past the last column the first row names" if stray >= len(header) else \
                "is in a column the first row does not name"
            errors.append(Where(shown, None, f"{place}row {number}, column {column_letter(stray)}").error(
                f"{' '.join(short(cells[stray]).split())!r} {lies}",
                hint="give the column a name in the first row, or check the row for a stray separator"))

        def where(key: str, number: int = number) -> Where:
            col = header.index(key) if key in header else 0
            return Where(display_path(path), None, f"{place}row {number}, column {column_letter(col)} ({key})")
        records.append((Where(display_path(path), None, f"{place}row {number}"), values, where))
    return records


def yaml_records(path: Path) -> list[Record]:
    """A YAML map file: a list of cells, or a map whose `cells:` is that list."""
    node = load_yaml(path, expect=(YamlMap, YamlList))
    top = where_of(node)
    items = node.get("cells") if isinstance(node, dict) else node
    if isinstance(node, dict) and set(node) - {"cells", "description"}:
        extra = sorted(set(node) - {"cells", "description"})[0]
        raise top.key(node, extra).error(f"unknown key '{extra}'; a map file holds 'cells' (and a 'description')")
    if not isinstance(items, list):
        raise top.error(f"a map file is a list of cells (or 'cells:' holding one), found {type_name(items)}")
    records: list[Record] = []
    base = top.key(node, "cells") if isinstance(node, dict) else top
    for index, item in enumerate(items):
        where = base.item(items, index)
        if not isinstance(item, dict):
            raise where.error(f"a cell is a map such as {{cell: B3, fill: forest}}, found {type_name(item)}")
        records.append((where, dict(item), _keys_of(item, where)))
    return records


def _keys_of(item: dict[str, Any], where: Where) -> Callable[[str], Where]:
    return lambda key: where.key(item, key)


# --- geometry ----------------------------------------------------------------------------------

def shared_side(a: list[Point], b: list[Point], size: float) -> list[Point] | None:
    """The two corners two cells share, or None when they are not neighbours."""
    close = [p for p in a if any(math.dist(p, q) < size * 1e-3 for q in b)]
    return close if len(close) == 2 else None
