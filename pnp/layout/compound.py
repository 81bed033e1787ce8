"""Elements made of other drawing: a table of cells, and a repeat of elements in a row or at
the points of an arrangement.

Both exist so that boards and cards with regular structure (yard lines every 5 yards, a score
track 0-9, a results table) are a few lines of layout rather than a hundred."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Literal, NoReturn

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.errors import PnpError
from pnp.layout import arrangements
from pnp.layout.arrangements import Spot
from pnp.layout.binding import Binding, text_of
from pnp.layout.card import Card, RepeatScope, card_error, card_place, offset_of, who
from pnp.layout.elements import BIND, Colour, Drawer, Element, PieceContext, printed, words_error, written_at
from pnp.layout.icons import ICON, icons_of, load_icon, with_tokens, without_tokens
from pnp.units import Length, colour_hex

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from pnp.config.typed import Where
    from pnp.fonts import Styled
    from pnp.layout.icons import Icon
    from pnp.layout.runs import StyledLines


# --- table -----------------------------------------------------------------------------------


@dataclass(kw_only=True)
class TableSpec(Element, kind="table"):
    """Rows of cells in a box. Cells may bind fields; `rows_from` takes the rows from a card's
    table field instead. Text shrinks (to 60 %) to fit a narrow cell; past that it is cut off
    at the cell's edge, with a warning naming the card."""

    rows: list[list[str]] | None = field(default=None, metadata=BIND)
    rows_from: str | None = None
    columns: list[Length] | None = None          # widths; the last column takes what is left
    align: list[Literal["left", "center", "right"]] | None = None
    font: str = "text"
    size: float = field(default=8.0, metadata={"min": 2, "max": 200})
    colour: str = field(default="black", metadata=BIND)
    header: bool = False                         # first row drawn as a heading
    head: list[str] | None = None                # a heading row put before the rows
    header_fill: str = field(default="#333333", metadata=BIND)
    header_colour: str = field(default="white", metadata=BIND)
    bold_first_column: bool = False
    stripe: str = field(default="none", metadata=BIND)   # fill of every other row
    rule: str = field(default="none", metadata=BIND)     # line between rows
    padding: Length = Length.mm(1)

    def bindings(self) -> list[Binding]:
        source = [Binding(f"{{{self.rows_from}}}", self.where_is("rows_from"))] if self.rows_from else []
        return Element.bindings(self) + source

    def check_fields(self, piece: PieceContext) -> None:
        if (self.rows is None) == (self.rows_from is None):
            raise self.origin.error("a table needs exactly one of 'rows' or 'rows_from'")
        Element.check_fields(self, piece)

    def compile(self, piece: PieceContext) -> "TableDrawer":
        return TableDrawer(self, piece)


class TableDrawer(Drawer):
    def __init__(self, spec: TableSpec, piece: PieceContext):
        self.spec = spec
        self.rect = spec.box(piece)
        family = piece.fonts.family(spec.font, spec.where_is("font"))
        self.font, self.bold = family.face(), family.face(bold=True)
        where = spec.where_is("rows")
        # fixed cells in a translated build's language, facts and titles filled in
        self.rows = [[Binding(printed(c, piece, where), spec.origin) for c in row] for row in spec.rows or []]
        self.head = [printed(text, piece, spec.where_is("head")) for text in spec.head or []]
        # where each heading's words are written (the layout's line, or its label's): no card holds them
        self.head_at = [written_at(text, piece, spec.where_is("head")) for text in spec.head or []]
        self.icons = icons_of(piece.game_dir) if piece.game_dir is not None else {}
        self._check_fixed_icons(piece)
        self.right_to_left = piece.right_to_left
        palette = piece.palette
        self.palette = palette   # colour names in a cell's spans: [law|+2]
        self.colour = Colour(spec.colour, spec.where_is("colour"), palette)
        self.stripe = Colour(spec.stripe, spec.where_is("stripe"), palette)
        self.rule = Colour(spec.rule, spec.where_is("rule"), palette)
        self.header_fill = Colour(spec.header_fill, spec.where_is("header_fill"), palette)
        self.header_colour = Colour(spec.header_colour, spec.where_is("header_colour"), palette)
        self.padding = spec.padding.of(self.rect[2])
        self.ink_saver = piece.ink_saver
        self.diagnostics = piece.diagnostics

    def _check_fixed_icons(self, piece: PieceContext) -> None:
        """An unknown icon in a cell with no {field} is told where its words are written (the
        layout's line, or a label's), not with the first card drawn, which does not hold it."""
        spec = self.spec

        def refuse(at: Where, message: str) -> NoReturn:
            raise words_error(at, spec.origin, message)
        written = [(text, spec.where_is("rows")) for row in spec.rows or [] for text in row]
        for text, where in written + [(text, spec.where_is("head")) for text in spec.head or []]:
            shown = printed(text, piece, where)
            if ":" in shown and not Binding(text, where).fields:
                with_tokens(shown, self.icons, partial(refuse, written_at(text, piece, where)))

    def _cells(self, card: Card) -> list[list[str]]:
        head = [list(self.head)] if self.spec.head else []
        if self.spec.rows_from:
            return head + [[text_of(c) for c in row] for row in (card.get(self.spec.rows_from) or [])]
        return head + [[b.render(card) for b in row] for row in self.rows]

    def _widths(self, count: int) -> list[float]:
        width = self.rect[2]
        given = [c.of(width) for c in (self.spec.columns or [])][:count]
        rest = count - len(given)
        if rest <= 0:
            return given
        share = max(width - sum(given), 0) / rest
        return given + [share] * rest

    def draw(self, canvas: Canvas, card: Card) -> None:
        rows = self._cells(card)
        if not rows:
            return
        x, y, w, h = self.rect
        count = max(len(r) for r in rows)
        widths = self._widths(count)
        order = list(range(count))
        if self.spec.mirrored:   # in a right-to-left language: from the right
            rows = [(row + [""] * (count - len(row)))[::-1] for row in rows]
            widths, order = widths[::-1], order[::-1]
        row_h = h / len(rows)
        spec = self.spec
        for r, row in enumerate(rows):
            top = y + h - r * row_h
            heading = (spec.header or spec.head) and r == 0
            fill = self.header_fill.of(card) if heading else (self.stripe.of(card) if r % 2 else None)
            if self.ink_saver is not None:
                fill, _ = self.ink_saver.fill(fill, False)
            if fill is not None:
                canvas.setFillColor(fill)
                canvas.rect(x, top - row_h, w, row_h, stroke=0, fill=1)
            rule = self.rule.of(card)
            if rule is not None and r > 0:
                canvas.setStrokeColor(rule)
                canvas.setLineWidth(0.4)
                canvas.line(x, top, x + w, top)
            colour = self.header_colour.of(card) if heading else self.colour.of(card)
            if self.ink_saver is not None:
                colour = self.ink_saver.ink(colour)
            canvas.setFillColor(colour)
            self._ink = colour_hex(colour) if colour is not None else "000000"
            left = x
            for c, text in enumerate(row):
                bold = heading or (spec.bold_first_column and order[c] == 0)
                if not self._cell(canvas, text, left, top - row_h, widths[c], row_h, order[c], bold, card):
                    self._tell_cut_off(text, card, order[c] if spec.head and r == 0 else None)
                left += widths[c]

    def _tell_cut_off(self, text: str, card: Card, heading: int | None) -> None:
        """A cell too wide for its column even at 60 %: told with the card, or where a heading's
        words are written (`heading`: its column), once for every card."""
        cut = f"'{text[:40]}' does not fit its column even at 60 % size; it is cut off at the cell's edge"
        if heading is not None:
            self.diagnostics.warn(str(words_error(self.head_at[heading], self.spec.origin, f"table heading {cut}")))
            return
        where = self.spec.origin
        self.diagnostics.warn(f"{who(card)}: table cell {cut} ({where.file}:{where.line})")

    def _cell(self, canvas: Canvas, text: str, x: float, y: float, w: float, h: float, column: int, bold: bool,
              card: Card) -> bool:
        """Draw one cell's text, shrunk (to 60 % at most) to fit; False when even that is too
        wide, and the text is cut off at the cell's edge rather than run into the next."""
        if not text:
            return True
        font = self.bold if bold else self.font
        if needs_runs(text, font):
            return self._styled_cell(canvas, text, font, x, y, w, h, column, card)
        size = min(self.spec.size, h * 0.8)
        room = w - 2 * self.padding
        natural = stringWidth(text, font, size)
        if natural > room:
            size = max(size * room / natural, size * 0.6)
        fits: bool = stringWidth(text, font, size) <= room + 0.01
        align = (self.spec.align or [])[column] if column < len(self.spec.align or []) else "left"
        baseline = y + (h - size * 0.7) / 2
        if not fits:
            canvas.saveState()
            cell = canvas.beginPath()
            cell.rect(x, y, w, h)
            canvas.clipPath(cell, stroke=0, fill=0)
            align = "left"   # the start of the text shows
        canvas.setFont(font, size)
        if align == "center":
            canvas.drawCentredString(x + w / 2, baseline, text)
        elif align == "right":
            canvas.drawRightString(x + w - self.padding, baseline, text)
        else:
            canvas.drawString(x + self.padding, baseline, text)
        if not fits:
            canvas.restoreState()
        return fits

    def _styled_cell(self, canvas: Canvas, text: str, font: str, x: float, y: float, w: float, h: float,
                     column: int, card: Card) -> bool:
        """A cell with icons, emphasis, a right-to-left script or letters its font lacks: set as
        styled runs (pnp.layout.runs) on one line, shrunk and cut off as a plain cell is."""
        from pnp.fonts import fallbacks_for
        from pnp.layout.elements import has_letters
        from pnp.layout.text import MarkupError, palette_spans, plain, span_markup, to_markup
        where = self.spec.origin

        def fail(message: str) -> NoReturn:
            raise PnpError(f"{card_place(card)}{who(card)}, table cell "
                           f"'{text[:40]}': {message} (drawn by {where.file}:{where.line})")
        names: tuple[tuple[str, float], ...] = ()
        if ":" in text:
            text, names = with_tokens(text, self.icons, fail)
        text = palette_spans(text, self.palette)
        try:
            markup = span_markup(to_markup(text)) if "|" in text else to_markup(text)
        except MarkupError as exc:
            fail(str(exc))
        ink = self._ink
        images = tuple(load_icon(self.icons[name], ink, f"{where.file}:{where.line}", scale) for name, scale in names)
        fallbacks = fallbacks_for(font, without_tokens(plain(text)))
        align = (self.spec.align or [])[column] if column < len(self.spec.align or []) else "left"
        if self.right_to_left and align in ("left", "right") and not has_letters(text):
            align = "right" if align == "left" else "left"   # icons, numbers: start where reading starts
        room = w - 2 * self.padding
        size = min(self.spec.size, h * 0.8)
        unit = one_line(markup, font, fallbacks, images, 1.0, ink, align)
        natural = max(unit.widths) if unit is not None and unit.widths else 0.0
        if natural * size > room:
            size = max(room / natural, size * 0.6)
        lines = one_line(markup, font, fallbacks, images, size, ink, align)
        if lines is None:
            return True
        fits = max(lines.widths) <= room + 0.01
        lines.width = room
        baseline = y + (h - size * 0.7) / 2
        canvas.saveState()
        if not fits:
            cell = canvas.beginPath()
            cell.rect(x, y, w, h)
            canvas.clipPath(cell, stroke=0, fill=0)
        lines.drawOn(canvas, x + self.padding, baseline - lines.height + size)
        canvas.restoreState()
        return fits


@lru_cache(maxsize=1024)
def one_line(markup: str, font: str, fallbacks: tuple[Styled, ...], images: tuple[Icon, ...], size: float,
             ink: str, align: str) -> StyledLines | None:
    """A styled cell's text set on one line, kept: the cards of a deck repeat their table cells
    ("Card yards" with its icon, on card after card)."""
    from pnp.layout.runs import lay_out
    return lay_out(markup, font, fallbacks, images, size, 1.0, ink, align, 1e9, 1e9, force=True)


def needs_runs(text: str, font: str) -> bool:
    """Whether a table cell needs more than one plain string: icons, emphasis, spans, a
    right-to-left script, or letters its font lacks."""
    from pnp.fonts import missing_glyphs
    from pnp.layout.text import SPAN, has_rtl
    return ("*" in text or (":" in text and ICON.search(text) is not None) or has_rtl(text)
            or ("|" in text and SPAN.search(text) is not None) or bool(missing_glyphs(font, text)))


# --- repeat ----------------------------------------------------------------------------------

REPEAT_FIELDS = ("i", "item")
MAX_REPEAT = 1000


@dataclass(kw_only=True)
class RepeatSpec(Element, kind="repeat"):
    """Its elements drawn `count` times (or once per entry of `items`), each time moved by
    (dx, dy) and offset by (x, y); or, with `at`, once at each point of an arrangement in the
    repeat's box (x, y, w, h). Inside, `{i}` is 1, 2, 3 ... and `{item}` the entry."""

    count: int | str | None = field(default=None, metadata={"min": 1, "max": MAX_REPEAT})  # or "{field}"
    items: list[str | int | float] | None = None
    items_from: str | None = None   # a list field of the card
    dx: Length = Length(0.0)
    dy: Length = Length(0.0)
    at: list[Spot] | str | None = None   # an arrangement's name, points, or "{field}" holding either
    cell: Length | None = None      # each item's box, centred on its point; its elements measured in it
    cell_h: Length | None = None    # the cell's height, when it is not square
    elements: list[Element] = field(default_factory=list)

    def bindings(self) -> list[Binding]:
        found = Element.bindings(self)
        if self.items_from:
            found.append(Binding(f"{{{self.items_from}}}", self.where_is("items_from")))
        if isinstance(self.count, str):
            found.append(self.count_binding())
        if isinstance(self.at, str) and "{" in self.at:
            found.append(self.at_binding())
        return found

    def count_binding(self) -> Binding:
        """`count: "{hull}"`: as many times as the card's whole-number field says."""
        where = self.where_is("count")
        binding = Binding(str(self.count), where)
        if len(binding.parts) != 1 or not binding.fields:
            raise where.error(f"count is a whole number or one field, e.g. \"{{hull}}\", not '{self.count}'")
        return binding

    def at_binding(self) -> Binding:
        """`at: "{spots}"`: the card's list of points, or the name of an arrangement."""
        where = self.where_is("at")
        binding = Binding(str(self.at), where)
        if len(binding.parts) != 1 or not binding.fields:
            raise where.error(f"at is an arrangement's name, a list of points or one field, e.g. "
                              f"\"{{spots}}\", not '{self.at}'")
        return binding

    def fields_as_names(self) -> frozenset[str]:
        """Besides its own keys': a list field whose items its elements use as names (an
        icon, a picture, a colour, a `when:`), and the field `at` takes its points from."""
        found = Element.fields_as_names(self)
        if self.items_from and not items_are_words(self.elements):
            found |= {self.items_from}
        if isinstance(self.at, str) and "{" in self.at:
            found |= self.at_binding().fields
        return found

    def fields_read(self) -> frozenset[str]:
        """Its children's fields, less the ones the repeat itself provides, and its own."""
        inner = frozenset[str]().union(*(child.fields_read() | condition_fields(child) for child in self.elements))
        own = frozenset[str]().union(*(binding.fields for binding in self.bindings()))
        return inner - set(REPEAT_FIELDS) | own

    def draws(self) -> int:
        times = (self.count if isinstance(self.count, int) else 0) or len(self.items or ()) \
            or (len(self.at) if isinstance(self.at, list) else 0) or MAX_LIST_ITEMS
        return times * max(1, sum(child.draws() for child in self.elements))

    def check_fields(self, piece: PieceContext) -> None:
        given = [self.count, self.items, self.items_from].count(None)
        if self.at is None and given != 2:
            raise self.origin.error("a repeat needs exactly one of 'count', 'items' or 'items_from'")
        if self.at is not None and given < 2:
            raise self.origin.error("a repeat at an arrangement takes at most one of 'count', 'items' "
                                    "or 'items_from'")
        if self.at is None and (self.cell is not None or self.cell_h is not None):
            raise self.where_is("cell").error("'cell' is the box of each item at an arrangement's point; "
                                              "give 'at' too")
        if isinstance(self.at, str) and "{" not in self.at:
            arrangements.named(self.at, self.where_is("at"))
            if self.count is None:
                raise self.where_is("at").error(f"the arrangement '{self.at}' has one layout per count: give "
                                                f"'count' (a number or a field, e.g. \"{{rank}}\")")
        Element.check_fields(self, piece)
        kind = getattr((piece.fields or {}).get(self.items_from or ""), "type", None)
        if kind is not None and kind not in ("list", "table"):   # a text's items would be its letters
            raise self.where_is("items_from").error(
                f"'{self.items_from}' is a {kind} field; a repeat takes its items from a list field (a table's "
                f"rows too)", hint=f"declare it {{type: list}} in the deck's fields, or give 'count' or 'items'")
        inner = replace(piece, fields=None if piece.fields is None
                        else {**piece.fields, **{name: None for name in REPEAT_FIELDS}})
        for child in self.elements:
            child.check_fields(inner)

    def compile(self, piece: PieceContext) -> "RepeatDrawer":
        return RepeatDrawer(self, piece)


def condition_fields(element: Element, compared_only: bool = False) -> frozenset[str]:
    """The fields the element's `when:` reads; with `compared_only`, those whose value it
    compares (not only whether they are set)."""
    condition = element.condition()
    if condition is None:
        return frozenset()
    return condition.compared if compared_only else condition.fields


MAX_LIST_ITEMS = 100   # `items_from` or a count from a field: counted at this for the work limit


# `{item}` inside an icon's token (:{item}:, :pip-{item}@2:) names the icon; `{item}: ...` is words
ITEM_AS_ICON = re.compile(r"(?<!\\):[a-z0-9_-]*\{item\}[a-z0-9_-]*(?:@[0-9.]+)?:")


def items_are_words(elements: Sequence[Element]) -> bool:
    """Whether a repeat's items are only printed as words by its elements (`{item}` in a
    text), never used as a name: an icon (`:{item}:`), a colour, a picture, a `when:`. Inside
    a repeat within, `{item}` is that repeat's own: only its own keys are looked at."""
    for child in elements:
        if "item" in child.fields_as_names() or "item" in condition_fields(child):
            return False
        text = getattr(child, "text", None)
        if isinstance(text, str) and ITEM_AS_ICON.search(text):
            return False
        nested = getattr(child, "elements", None)
        if nested and not isinstance(child, RepeatSpec) and not items_are_words(nested):
            return False
    return True


class RepeatDrawer(Drawer):
    def __init__(self, spec: RepeatSpec, piece: PieceContext):
        self.spec = spec
        self.items_from = spec.items_from
        self.count_from = next(iter(spec.count_binding().fields)) if isinstance(spec.count, str) else None
        self.items = spec.items if spec.items is not None else \
            list(range(1, spec.count + 1)) if isinstance(spec.count, int) else []
        if spec.items is not None and piece.labels is not None and items_are_words(spec.elements):
            # a translated build: the board's 1ST 2ND 3RD, its HOME and AWAY, in its language
            say, where = piece.labels, spec.where_is("items")
            self.items = [say(item, where) if isinstance(item, str) else item for item in self.items]
        self.offset = (spec.x.of(piece.width), spec.y.of(piece.height))
        self.step = (spec.dx.of(piece.width), spec.dy.of(piece.height))
        self.piece_height = piece.height
        self.edges = (piece.width, piece.height)   # the piece's, unless this repeat is in a cell
        left, bottom, width, height = spec.box(piece)
        self.area = (left, bottom + height, width, height)   # the arrangement's box, from its top-left
        self.cell: tuple[float, float] | None = None
        if spec.cell is not None:
            side = min(piece.width, piece.height)
            self.cell = (spec.cell.of(side), (spec.cell_h or spec.cell).of(side))
            # the cell is the children's piece: their lengths and percentages are measured in it
            piece = replace(piece, width=self.cell[0], height=self.cell[1], safe=None)
        self.children = [child.compiled(piece) for child in spec.elements]
        self.spots: list[Spot] | None = spec.at if isinstance(spec.at, list) else None
        self.family = arrangements.named(spec.at, spec.where_is("at")) \
            if isinstance(spec.at, str) and "{" not in spec.at else None
        self.at_from = next(iter(spec.at_binding().fields)) if isinstance(spec.at, str) and "{" in spec.at else None
        if self.family is not None and isinstance(spec.count, int) and spec.count not in self.family:
            raise spec.where_is("count").error(self._no_layout(spec.count))
        if self.spots is not None and spec.items is not None and len(spec.items) > len(self.spots):
            raise spec.where_is("items").error(f"{len(spec.items)} items but only {len(self.spots)} points")

    def draw(self, canvas: Canvas, card: Card) -> None:
        items: Sequence[Any]
        if self.items_from:
            items = card.get(self.items_from) or []
        elif self.count_from:
            items = range(1, self._count(card, self.count_from) + 1)
        else:
            items = self.items
        if self.spec.at is None:
            self._in_a_line(canvas, card, items)
        else:
            self._at_points(canvas, card, items)

    def _in_a_line(self, canvas: Canvas, card: Card, items: Sequence[Any]) -> None:
        base = offset_of(card)
        for index, item in enumerate(items):
            dx = self.offset[0] + index * self.step[0]
            dy = -(self.offset[1] + index * self.step[1])
            scope = RepeatScope(card, {"i": index + 1, "item": item}, (base[0] + dx, base[1] + dy), self._edges(card))
            canvas.saveState()
            canvas.translate(dx, dy)
            self._children(canvas, scope)
            canvas.restoreState()

    def _at_points(self, canvas: Canvas, card: Card, items: Sequence[Any]) -> None:
        spots = self._spots(card, items)
        if not items and not self.count_from and not self.items_from and self.spec.count is None:
            items = range(1, len(spots) + 1)   # points alone: one item at each
        if len(items) > len(spots):
            raise self._card_error(card, f"{len(items)} items but only {len(spots)} points to put them at")
        base = offset_of(card)
        left, top, width, height = self.area
        for index, item in enumerate(items):
            spot = spots[index]
            x, y = left + spot.x.of(width), top - spot.y.of(height)   # the point, in PDF coordinates
            canvas.saveState()
            canvas.translate(x, y)
            if spot.turn:
                canvas.rotate(spot.turn)
            if spot.scale != 1:
                canvas.scale(spot.scale, spot.scale)
            if self.cell is not None:
                canvas.translate(-self.cell[0] / 2, -self.cell[1] / 2)
                offset = (base[0] + x - self.cell[0] / 2, base[1] + y - self.cell[1] / 2)
            else:   # the children keep the piece's coordinates, with the point as their top-left
                canvas.translate(0, -self.piece_height)
                offset = (base[0] + x, base[1] + y - self.piece_height)
            edges = self._edges(card) if not spot.turn and spot.scale == 1 else None
            self._children(canvas, RepeatScope(card, {"i": index + 1, "item": item}, offset, edges))
            canvas.restoreState()

    def _edges(self, card: Card) -> tuple[float, float] | None:
        """The piece's size as the repeats around this one see it (None: a point turned them)."""
        return card.edges if isinstance(card, RepeatScope) else self.edges

    def _spots(self, card: Card, items: Sequence[Any]) -> list[Spot]:
        if self.spots is not None:
            return self.spots
        family = self.family
        if self.at_from is not None:
            value = card.get(self.at_from)
            if isinstance(value, list):
                return [self._spot(card, text) for text in value]
            if value in (None, ""):
                return []
            try:
                family = arrangements.named(str(value), self.spec.where_is("at"))
            except PnpError as exc:
                raise self._card_error(card, f"at comes from {self.at_from}: {exc.message}"
                                       + (f" ({exc.hint})" if exc.hint else "")) from None
        assert family is not None
        count = len(items)
        if count and count not in family:
            raise self._card_error(card, self._no_layout(count))
        return family.get(count, [])

    def _spot(self, card: Card, text: object) -> Spot:
        try:
            return Spot.parse(text, self.spec.where_is("at"))
        except PnpError as exc:
            raise self._card_error(card, f"at comes from {self.at_from}, whose point {text!r} is wrong: "
                                         f"{exc.message}") from None

    def _no_layout(self, count: int) -> str:
        have = sorted(self.family or {})
        return f"the arrangement '{self.spec.at}' has layouts for {have[0]} to {have[-1]} items, not {count}" \
            if have else f"the arrangement '{self.spec.at}' is empty"

    def _card_error(self, card: Card, message: str) -> PnpError:
        """A problem with this card's items or points, told where the card is written (its
        line, or its sheet's row), else at the layout's line."""
        layout = self.spec.origin
        return card_error(card, f"{who(card)}: {message} (drawn by {layout.file}:{layout.line})", layout)

    def _children(self, canvas: Canvas, scope: RepeatScope) -> None:
        for child in self.children:
            if child.shown_for(scope):
                child.draw(canvas, scope)

    def _count(self, card: Card, count_from: str) -> int:
        value = card.get(count_from)
        if value in (None, ""):
            return 0
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) \
                or not 0 <= value <= MAX_LIST_ITEMS:
            raise card_error(card, f"{who(card)}: a repeat takes its count from {count_from}, which must "
                                   f"be a whole number from 0 to {MAX_LIST_ITEMS}, not {value!r}")
        return int(value)


# --- form field ------------------------------------------------------------------------------

@dataclass(kw_only=True)
class FormFieldSpec(Element, kind="field"):
    """A fillable text box (an AcroForm field) that a PDF viewer lets people type into.
    `name` must be unique in the file: bind `{copy}` to tell copies of a card apart. Viewers
    draw typed text in the game's `text` font, embedded whole (see pnp.outputs.form_font)."""

    name: str = field(metadata=BIND)
    size: float = field(default=10.0, metadata={"min": 0, "max": 72})  # 0: the viewer fits it
    multiline: bool = False
    border: str = field(default="#9e9e9e", metadata=BIND)
    fill: str = field(default="#ffffff", metadata=BIND)   # viewers tint unfilled fields; white prints clean
    tooltip: str = field(default="", metadata=BIND)

    def compile(self, piece: PieceContext) -> "FormFieldDrawer":
        return FormFieldDrawer(self, piece)


class FormFieldDrawer(Drawer):
    static = False      # a form field belongs to the page, never inside a shared drawing
    stampable = False

    def __init__(self, spec: FormFieldSpec, piece: PieceContext):
        self.spec = spec
        self.rect = spec.box(piece)
        self.name = Binding(spec.name, spec.origin)
        self.tooltip = Binding(spec.tooltip, spec.origin)
        self.border = Colour(spec.border, spec.where_is("border"), piece.palette)
        self.fill = Colour(spec.fill, spec.where_is("fill"), piece.palette)
        self.font = piece.fonts.family("text", spec.origin).face()

    def draw(self, canvas: Canvas, card: Card) -> None:
        from pnp.outputs.form_font import use_for_fields
        x, y, w, h = self.rect
        border, fill = self.border.of(card), self.fill.of(card)
        options: dict[str, Any] = dict(name=self.name.render(card), tooltip=self.tooltip.render(card) or None,
                       x=x, y=y, width=w, height=h, fontName=use_for_fields(canvas, self.font),
                       fontSize=self.spec.size,
                       borderWidth=0.5 if border is not None else 0, relative=True,
                       fieldFlags="multiline" if self.spec.multiline else "")
        if border is not None:
            options["borderColor"] = border
        if fill is not None:
            options["fillColor"] = fill
        canvas.acroForm.textfield(**options)
