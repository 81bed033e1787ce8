"""Labels cannot drift from the field they describe.

A label is fixed text that names a field: its title in the deck's declaration
(`pass: {type: whole, title: Pass}`, printed with `{title:pass}`) or its name. A layout that
prints a field's label beside another field's value is an error naming the layout's line:

- in a table row, a label cell and the value cells of the same row;
- elsewhere, a label and the value (`{field}` alone) nearest it above or below in the same
  column, or beside it in the same row, a repeat's labels (`{item}` over a list of field
  names) included;
- a sheet's table heading (`head`) and the fields its component lists (`rows`), column by
  column."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pnp.config.typed import Loaded, Where
from pnp.errors import PnpError
from pnp.layout.compound import RepeatSpec, TableSpec
from pnp.layout.elements import Element, PieceContext, TextSpec
from pnp.units import mm

TITLE_REF = re.compile(r"^\{title:([^{}]+)\}$")
ONE_FIELD = re.compile(r"^\{([A-Za-z][A-Za-z0-9_-]*)\}$")
CLOSE = mm(3)   # a label this far from a value, or nearer, is printed beside it


@dataclass
class Placed:
    field: str
    box: tuple[float, float, float, float]   # left, bottom, width, height (points)
    where: str                               # file:line
    shown: str
    when: str | None = None                  # drawn only for cards with this field


def names_of(fields: Mapping[str, object]) -> dict[str, str]:
    """Lower-case label text -> the field it names (its title, and its name)."""
    found: dict[str, str] = {}
    for name, spec in fields.items():
        found.setdefault(name.lower().replace("_", " "), name)
        title = getattr(spec, "title", "") if not isinstance(spec, str) else ""
        if isinstance(title, str) and title:
            found[title.lower()] = name
    return found


def label_field(text: str, labels: dict[str, str]) -> str | None:
    text = text.strip()
    match = TITLE_REF.match(text)
    if match:
        return match.group(1).strip()
    return labels.get(text.lower()) if text and "{" not in text else None


def check_labels(elements: Iterable[Element], piece: PieceContext) -> None:
    """Raise a PnpError at the first label printed beside another field's value."""
    fields = piece.fields or {}
    if not fields:
        return
    labels = names_of({k: v for k, v in fields.items() if v is not None and not isinstance(v, str)})
    found_labels: list[Placed] = []
    values: list[Placed] = []
    for element in elements:
        _collect(element, piece, labels, found_labels, values, (0.0, 0.0), fields)
    for label in found_labels:
        if label.when == label.field:
            continue   # a badge: LEGENDARY drawn for the legendary cards, beside whatever it marks
        near = _nearest(label, values)
        if near is not None and near.field != label.field:
            raise PnpError(f"the label '{label.shown}' names the field '{label.field}' but is printed beside "
                           f"the value of '{near.field}' ({near.where}: {near.shown}); print {{title:{near.field}}} there, "
                           f"or move the label to {{{label.field}}}", file=label.where.rsplit(":", 1)[0],
                           line=int(label.where.rsplit(":", 1)[1]))


def _where(spec: Loaded, key: str) -> str:
    where = spec.where_is(key)
    return f"{where.file}:{where.line}"


def _collect(element: Element, piece: PieceContext, labels: dict[str, str], found_labels: list[Placed],
             values: list[Placed], offset: tuple[float, float], fields: Mapping[str, object]) -> None:
    if isinstance(element, TableSpec) and element.rows:
        _check_table(element, labels, fields)
        return
    if isinstance(element, RepeatSpec) and element.items:
        dx, dy = element.dx.of(piece.width), element.dy.of(piece.height)
        rx, ry = element.x.of(piece.width), element.y.of(piece.height)
        for index, item in enumerate(element.items):
            shift = (offset[0] + rx + index * dx, offset[1] + ry + index * dy)
            for child in element.elements:
                if isinstance(child, TextSpec) and child.text.strip() == "{item}":
                    name = labels.get(str(item).lower())
                    if name is not None:
                        found_labels.append(Placed(name, _box(child, piece, shift), _where(element, "items"),
                                                   str(item).upper() if child.upper else str(item)))
                else:
                    _collect(child, piece, labels, found_labels, values, shift, fields)
        return
    if not isinstance(element, TextSpec) or element.inset is not None:
        return
    text = element.text.strip()
    value = ONE_FIELD.match(text)
    if value and value.group(1) in fields:
        values.append(Placed(value.group(1), _box(element, piece, offset), _where(element, "text"), text,
                             _when(element)))
        return
    name = label_field(text, labels)
    if name is not None:
        found_labels.append(Placed(name, _box(element, piece, offset), _where(element, "text"), text,
                                   _when(element)))


def _when(element: Element) -> str | None:
    return element.when if isinstance(element.when, str) else None


def _box(element: Element, piece: PieceContext, offset: tuple[float, float]) -> tuple[float, float, float, float]:
    left, bottom, width, height = element.box(piece)
    return left + offset[0], bottom - offset[1], width, height


def _nearest(label: Placed, values: list[Placed]) -> Placed | None:
    """The value printed right above, below or beside the label, if any."""
    lx, lb, lw, lh = label.box
    best, best_gap = None, CLOSE
    for value in values:
        if label.when and value.when and label.when != value.when:
            continue   # never on the same card
        vx, vb, vw, vh = value.box
        column = vx <= lx + lw / 2 <= vx + vw or lx <= vx + vw / 2 <= lx + lw
        row = vb <= lb + lh / 2 <= vb + vh or lb <= vb + vh / 2 <= lb + lh
        if column:
            gap = max(vb - (lb + lh), lb - (vb + vh), 0.0)
        elif row:
            gap = max(vx - (lx + lw), lx - (vx + vw), 0.0)
        else:
            continue
        if gap < best_gap or (gap == best_gap and (best is None or value.field == label.field)):
            best, best_gap = value, gap
    return best


def _check_table(table: TableSpec, labels: dict[str, str], fields: Mapping[str, object]) -> None:
    rows_where = table.where_is("rows")
    for index, row in enumerate(table.rows or []):
        named = [label_field(str(cell), labels) for cell in row]
        bound = {name for cell in row if (name := value_field(str(cell))) is not None and name in fields}
        for cell, name in zip(row, named):
            if name is not None and bound and name not in bound:
                line = _row_line(table, index, rows_where.line)
                raise PnpError(f"row {index + 1} prints the label '{cell}' (the field '{name}') beside the "
                               f"value of '{', '.join(sorted(bound))}'; print {{title:{sorted(bound)[0]}}} "
                               f"there, so the label comes with its field", file=rows_where.file, line=line)


def value_field(cell: str) -> str | None:
    """The field a cell prints the value of: `{run}` alone, or with icons and spans round it
    (`[#555555|:run:] {run}`, the Big Ten defense card's result); None for any other cell."""
    from pnp.layout.icons import ICON
    from pnp.layout.text import SPAN
    match = ONE_FIELD.match(ICON.sub("", SPAN.sub(r"\2", cell)).strip())
    return match.group(1) if match else None


def _row_line(table: TableSpec, index: int, first: int | None) -> int | None:
    """The line of a table's row: rows in block style are one a line after the key."""
    rows = getattr(table, "rows", None)
    line_of = getattr(rows, "item_line", None)
    if callable(line_of):
        return line_of(index) or first
    return (first + 1 + index) if first else None


def check_heading(head: list[str], columns: list[str], fields: Mapping[str, object], where_head: Where,
                  where_rows: Where) -> None:
    """A sheet's table heading names, column by column, the fields its component lists."""
    labels = names_of({k: v for k, v in fields.items() if v is not None and not isinstance(v, str)})
    for index, (heading, column) in enumerate(zip(head, columns)):
        name = label_field(str(heading), labels)
        if name is not None and name != column:
            raise PnpError(f"column {index + 1} is headed '{heading}' (the field '{name}') but lists "
                           f"'{column}' ({where_rows.file}:{where_rows.line}: rows); the heading and the "
                           f"column must name the same field", file=where_head.file, line=where_head.line)
