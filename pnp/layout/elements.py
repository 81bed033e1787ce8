"""The elements a layout is made of, and how each one draws itself.

Each element kind is a config dataclass (what the YAML may say) with a `compile` method that
resolves lengths, fonts and colours once per layout and returns a drawer: an object whose
`draw(canvas, card)` puts it on the page for one card. Positions in layouts are measured
from the top-left corner, as a designer reads a card; drawers convert to PDF coordinates.
"""

from __future__ import annotations

import copy
import dataclasses
from functools import partial
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Literal, NoReturn, Protocol


from pnp.conditions import Condition, expectation_problem, parse_condition
from pnp.config.typed import FromField, Tagged, Where, check_limits, convert, settings_of
from pnp.errors import PnpError, did_you_mean, known
from pnp.layout.binding import Binding, resolve_titles
from pnp.layout.card import Card, CardFields, RepeatScope, card_place, offset_of, who
from pnp.layout.icons import TOKEN, icons_of, load_icon, with_tokens, without_tokens
from pnp.layout.text import (MarkupError, fit_paragraph, palette_spans, plain, simple_characters, span_markup,
                             to_markup)
from pnp.layout.text import Fit, SetText
from pnp.fonts import FontBook, Styled, fallbacks_for, undrawable
from pnp.units import Length, colour_hex, mm, parse_colour

if TYPE_CHECKING:
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

    from pnp.diagnostics import Diagnostics
    from pnp.layout.ink import InkSaver

FULL = Length(percent=100.0)
BIND = {"bind": True}   # field metadata: the key's text may hold {field} holes, filled per card
WORD_KEYS = frozenset({"text", "rows", "tooltip"})   # bindable keys whose holes print words


class FactBook(Protocol):
    """The game's named facts as a layout reads them (pnp.contents.stated.Facts, a floor up)."""

    def resolve(self, text: str, where: Where, braces: bool = False) -> str: ...


@dataclass
class PieceContext:
    """What an element is compiled against: the piece's size and the game around it."""

    width: float
    height: float
    fonts: FontBook
    game_dir: Path
    fields: CardFields | None   # the fields a card may have (None: anything goes)
    diagnostics: Diagnostics
    bleed: float = 0.0
    palette: dict[str, str] = field(default_factory=dict)  # colour names the layout defines
    safe: float | None = None  # for print shops: warn about text closer than this to the trim
    ink_saver: InkSaver | None = None   # when printing with little ink
    labels: Callable[[str, Where], str] | None = None   # fixed text in a translated build's language
    label_at: Callable[[str], Where | None] | None = None   # and where its label is written
    facts: FactBook | None = None   # the game's named facts, for {fact:NAME}
    right_to_left: bool = False   # a build in a right-to-left language: layouts that mirror, mirror


def printed(text: str, piece: PieceContext, where: Where, translate: bool = True) -> str:
    """Fixed text as it prints: in the build's language, `{fact:NAME}` and `{title:FIELD}`
    filled in (an unknown name is an error at `where`)."""
    if translate and piece.labels is not None:
        text = piece.labels(text, where)
    if "{" not in text:
        return text
    if piece.facts is not None:
        text = piece.facts.resolve(text, where, braces=True)
    return resolve_titles(text, piece.fields, where, piece.labels)


def written_at(text: str, piece: PieceContext, where: Where) -> Where:
    """Where fixed text is written as it prints: its label's line in a translated build, else
    `where` (the layout's)."""
    at = piece.label_at(text) if piece.label_at is not None else None
    return at or where


def words_error(at: Where, origin: Where, message: str) -> PnpError:
    """A problem with fixed words, told where they are written (`written_at`): no card holds
    them. A label names the layout that draws it."""
    drawn_by = f" (drawn by {origin.file}:{origin.line})" if at.file != origin.file else ""
    return at.error(message + drawn_by)


class Colour:
    """A colour setting: fixed, or bound to a card field such as '{colour}'. Names in the
    layout's palette come first, then '#rrggbb' and CSS colour names."""

    def __init__(self, text: str, where: Where, palette: dict[str, str]):
        self.binding = Binding(text, where)
        self.where = where
        self.palette = palette
        self.fixed = self._parse(text) if self.binding.static else None
        self._cache: dict[str, Color | None] = {}

    def _parse(self, text: str, card: Card | None = None) -> Color | None:
        try:
            return parse_colour(self.palette.get(text.strip(), text))
        except ValueError as exc:
            who = f" (card {card.label})" if card is not None else ""
            raise self.where.error(str(exc) + who) from None

    def of(self, card: Card) -> Color | None:
        """The colour for this card (None: 'none', nothing drawn)."""
        if self.binding.static:
            return self.fixed
        text = self.binding.render(card)
        if text not in self._cache:
            self._cache[text] = self._parse(text, card)
        return self._cache[text]


@dataclass(kw_only=True)
class Element(Tagged, family="element"):
    kind: str
    id: str | None = None
    x: Length = Length(0.0)
    y: Length = Length(0.0)
    w: Length = field(default=FULL, metadata={"min": 0})   # a negative width or height is a typo
    h: Length = field(default=FULL, metadata={"min": 0})
    inset: Length | None = None  # instead of x/y/w/h: the whole piece, inset on every side
    mirror: bool | None = None   # in a right-to-left language, move to the other side (None: as the layout says)
    when: Any = None  # draw only for the cards it holds for: a field name or a comparison (pnp.conditions)
    # moved to the other side for a right-to-left language (layout.template.mirrored); not a key
    mirrored: bool = field(default=False, init=False, repr=False, compare=False)

    # any length, number or turn may be written "{field}": looked up per card (BoundDrawer)
    values_from_fields: ClassVar[bool] = True
    # keys that take the place of others: both given, one would be ignored without a word
    instead_of: ClassVar[dict[str, tuple[str, ...]]] = {"inset": ("x", "y", "w", "h")}

    def bound_values(self) -> dict[str, FromField]:
        """The keys written as one card field, "{size}", by key name."""
        return {spec_field.name: value for spec_field in dataclasses.fields(self)
                if isinstance(value := getattr(self, spec_field.name, None), FromField)}

    def box(self, piece: PieceContext) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) in PDF points within the piece."""
        if self.inset is not None:
            i = self.inset.of(min(piece.width, piece.height))
            return i, i, piece.width - 2 * i, piece.height - 2 * i
        x, w = self.x.of(piece.width), self.w.of(piece.width)
        y, h = self.y.of(piece.height), self.h.of(piece.height)
        return x, piece.height - y - h, w, h

    def bindings(self) -> list[Binding]:
        """Every {field} hole in the keys this element declares bindable (metadata BIND): the
        one list that both the check of field names and the drawer's stamping go by."""
        found: list[Binding] = []
        for spec_field in dataclasses.fields(self):
            if spec_field.metadata.get("bind"):
                where = self.where_is(spec_field.name)
                found += [Binding(text, where) for text in _texts(getattr(self, spec_field.name))]
        found += [Binding(value.text, self.where_is(key)) for key, value in self.bound_values().items()]
        return found

    def fields_read(self) -> frozenset[str]:
        """The card fields that change how this element looks (besides `when`)."""
        return _fields(*self.bindings())

    def fields_as_names(self) -> frozenset[str]:
        """The card fields it reads as names, not words: a colour ("{type}" through the
        palette), a picture, a form field's name, a length or a number. A translation must
        leave their values as they are."""
        found: list[Binding] = []
        for spec_field in dataclasses.fields(self):
            if spec_field.metadata.get("bind") and spec_field.name not in WORD_KEYS:
                where = self.where_is(spec_field.name)
                found += [Binding(text, where) for text in _texts(getattr(self, spec_field.name))]
        found += [Binding(value.text, self.where_is(key)) for key, value in self.bound_values().items()]
        return _fields(*found)

    def condition(self) -> Condition | None:
        """`when:` parsed, once."""
        if self.when is None:
            return None
        if "_condition" not in self.__dict__:
            self._condition = parse_condition(self.when, self.where_is("when"))
        return self._condition

    def compile(self, piece: PieceContext) -> "Drawer":
        """Lengths, fonts and colours resolved once for a piece: the drawer. Each kind has one."""
        raise NotImplementedError

    def compiled(self, piece: PieceContext) -> "Drawer":
        """The drawer, told which fields its look depends on from this spec alone, so the
        check and the drawing can never disagree."""
        drawer = BoundDrawer(self, piece) if self.bound_values() else self.compile(piece)
        drawer.fields = self.fields_read()
        drawer.when = self.condition()
        return drawer

    def draws(self) -> int:
        """How many shapes drawing this element makes on one piece (a repeat multiplies)."""
        return 1

    def check_fields(self, piece: PieceContext) -> None:
        """Every field a bindable key or `when` names must be one the cards have; the error
        points at the key that names it."""
        if piece.fields is None:
            return
        used = [(name, binding.where) for binding in self.bindings() for name in sorted(binding.fields)]
        condition = self.condition()
        if condition is not None:
            used += condition.uses
        for name, where in used:
            if name not in piece.fields:
                raise where.error(f"the layout uses the field '{name}', which the cards do not have",
                                  hint=did_you_mean(name, piece.fields)
                                  or f"the cards' fields: {known(piece.fields)}")
        for field_name, wants, operand, at in condition.expects if condition is not None else ():
            problem = expectation_problem(field_name, getattr(piece.fields.get(field_name), "type", None), wants, operand)
            if problem is not None:   # drawn on no card of this deck, or on every one
                piece.diagnostics.warn(str(at.error(problem)))
        for key, value in self.bound_values().items():
            kind = getattr(piece.fields.get(value.name), "type", None)
            if kind in ("flag", "list", "table", "colour"):
                raise self.where_is(key).error(f"{key} comes from the field '{value.name}', a {kind} field; "
                                               f"a {key} is a number or a length")


class Drawer:
    """Base of compiled elements: knows whether its look depends on the card."""

    fields: frozenset[str] = frozenset()
    when: Condition | None = None

    stampable = True   # may be drawn once into a form and stamped (see CompiledLayout)

    @property
    def static(self) -> bool:
        return self.stampable and not self.fields and not self.when

    def shown_for(self, card: Card) -> bool:
        return self.when is None or self.when.holds(card)

    def draw(self, canvas: Canvas, card: Card) -> None:
        raise NotImplementedError


class BoundDrawer(Drawer):
    """An element some of whose lengths, numbers or turns come from the card ("{size}"): for
    each card the values are read, checked as if written in the layout, and the element is
    compiled once per distinct set of values and drawn as usual."""

    def __init__(self, spec: Element, piece: PieceContext):
        self.spec, self.piece = spec, piece
        self.bound = spec.bound_values()
        self.hints, self.settings = settings_of(type(spec))  # type: ignore[arg-type]  # a class is hashable
        self.drawers: dict[tuple[str, ...], Drawer] = {}
        # see-through drawing is done on the page (ShapeDrawer, ImageDrawer), form fields belong to it
        self.stampable = "opacity" not in self.bound and getattr(spec, "opacity", 1.0) >= 1 and spec.kind != "field"

    def draw(self, canvas: Canvas, card: Card) -> None:
        values = tuple(card.get(value.name) for value in self.bound.values())
        key = tuple(repr(v) for v in values)
        drawer = self.drawers.get(key)
        if drawer is None:
            drawer = self.drawers[key] = self._resolved(values, card).compile(self.piece)
        drawer.draw(canvas, card)

    def _resolved(self, values: tuple[Any, ...], card: Card) -> Element:
        resolved = copy.copy(self.spec)
        for (key, bound), value in zip(self.bound.items(), values):
            where = self.spec.where_is(key)
            setting = self.settings[key]
            if value is None or value == "":
                if setting.default is dataclasses.MISSING:
                    raise self._fail(card, key, bound, value, "it is empty")
                setattr(resolved, key, setting.default)
                continue
            try:
                converted = convert(self.hints[key], value, where)
                check_limits(setting, converted, where)
            except PnpError as exc:
                raise self._fail(card, key, bound, value, exc.message) from None
            setattr(resolved, key, converted)
        return resolved

    def _fail(self, card: Card, key: str, bound: FromField, value: Any, message: str) -> PnpError:
        where = card.where
        layout = self.spec.where_is(key)
        return PnpError(f"{who(card)}: {key} comes from {bound.name}, which holds {value!r}: {message} "
                        f"(drawn by {layout.file}:{layout.line})",
                        file=where.file if where else layout.file,
                        line=where.line if where else layout.line, field=where.field if where else key)


def _texts(value: object) -> list[str]:
    """The strings in a bindable key's value: text, a list of them, or rows of them."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    return []


def _fields(*bindings: Binding | None) -> frozenset[str]:
    return frozenset(n for b in bindings if b is not None for n in b.fields)


# --- box and ellipse ------------------------------------------------------------------------

@dataclass(kw_only=True)
class ShapeSpec(Element):
    fill: str = field(default="none", metadata=BIND)
    stroke: str = field(default="none", metadata=BIND)
    stroke_width: Length = Length(0.75)
    dash: list[float] | None = None   # the stroke's on and off lengths in points, e.g. [4, 2]
    opacity: float = field(default=1.0, metadata={"min": 0, "max": 1})   # of fill and stroke


def checked_dash(spec: ShapeSpec | LineSpec) -> list[float] | None:
    dash = spec.dash
    if dash is not None and (not 0 < len(dash) <= 16 or sum(dash) <= 0 or any(d < 0 or d > 1000 for d in dash)):
        raise spec.where_is("dash").error(
            "a dash is a list of on and off lengths in points, none negative and not all 0, e.g. [4, 2]")
    return dash


class ShapeDrawer(Drawer):
    """What boxes, ellipses, polygons, stars and hex grids share: a fill and a stroke, either
    of which may be bound, a dash and an opacity. Subclasses draw the outline (`shape`)."""

    full_bleed = False

    def __init__(self, spec: ShapeSpec, piece: PieceContext):
        self.rect = spec.box(piece)
        self.fill = Colour(spec.fill, spec.where_is("fill"), piece.palette)
        self.stroke = Colour(spec.stroke, spec.where_is("stroke"), piece.palette)
        self.stroke_width = spec.stroke_width.of(min(piece.width, piece.height))
        self.ink_saver = piece.ink_saver
        self.dash = checked_dash(spec)
        self.opacity = spec.opacity
        # reportlab leaves a form's transparency out of its resources: see-through is drawn on the page
        self.stampable = spec.opacity >= 1

    def draw(self, canvas: Canvas, card: Card) -> None:
        styled = bool(self.dash) or self.opacity < 1
        if styled:
            canvas.saveState()
            if self.dash:
                canvas.setDash(self.dash)
        fill, stroke = self.paint(canvas, card)
        if self.opacity < 1:   # after the colours: setting a colour sets its own (full) alpha
            canvas.setFillAlpha(self.opacity)
            canvas.setStrokeAlpha(self.opacity)
        if fill is not None or stroke is not None:
            self.shape(canvas, int(fill is not None), int(stroke is not None))
        if styled:
            canvas.restoreState()

    def shape(self, canvas: Canvas, fill: int, stroke: int) -> None:
        raise NotImplementedError

    def paint(self, canvas: Canvas, card: Card) -> tuple[Color | None, Color | None]:
        """Set the canvas's colours for this card; (fill, stroke) to use, either may be None.
        With the ink saver, a dark or full-bleed fill becomes an outline in its colour."""
        fill, stroke = self.fill.of(card), self.stroke.of(card)
        if self.ink_saver is not None:
            fill, outline = self.ink_saver.fill(fill, self.full_bleed)
            if outline is not None:
                self.outline(canvas, outline)
            if stroke is not None and fill is None:
                stroke = self.ink_saver.ink(stroke)
        if fill is not None:
            canvas.setFillColor(fill)
        if stroke is not None:
            canvas.setStrokeColor(stroke)
            canvas.setLineWidth(self.stroke_width)
        return fill, stroke

    def outline(self, canvas: Canvas, colour: Color) -> None:
        """A saved fill's outline: the shape itself, stroked in the fill's colour."""
        canvas.setStrokeColor(colour)
        canvas.setLineWidth(1.2)
        self.shape(canvas, fill=0, stroke=1)


@dataclass(kw_only=True)
class BoxSpec(ShapeSpec, kind="box"):
    radius: Length = Length(0.0)
    bleed: bool = False  # reach past the cut line on edges that lie on the piece's edge

    def compile(self, piece: PieceContext) -> "BoxDrawer":
        return BoxDrawer(self, piece)


class BoxDrawer(ShapeDrawer):
    def __init__(self, spec: BoxSpec, piece: PieceContext):
        super().__init__(spec, piece)
        x, y, w, h = self.rect
        if spec.bleed and piece.bleed:
            b, eps = piece.bleed, 0.01
            left = x - b if x <= eps else x
            bottom = y - b if y <= eps else y
            right = x + w + b if x + w >= piece.width - eps else x + w
            top = y + h + b if y + h >= piece.height - eps else y + h
            self.rect = (left, bottom, right - left, top - bottom)
        self.radius = spec.radius.of(min(piece.width, piece.height))
        self.full_bleed = spec.bleed
        inset = 1.5 * 72 / 25.4   # a saved background's outline stays inside the trim
        self.outline_rect = (inset, inset, piece.width - 2 * inset, piece.height - 2 * inset) \
            if spec.bleed else self.rect

    def outline(self, canvas: Canvas, colour: Color) -> None:
        canvas.setStrokeColor(colour)
        canvas.setLineWidth(1.2)
        canvas.roundRect(*self.outline_rect, self.radius or 4, stroke=1, fill=0)

    def shape(self, canvas: Canvas, fill: int, stroke: int) -> None:
        x, y, w, h = self.rect
        if self.radius:
            canvas.roundRect(x, y, w, h, self.radius, stroke=stroke, fill=fill)
        else:
            canvas.rect(x, y, w, h, stroke=stroke, fill=fill)


@dataclass(kw_only=True)
class EllipseSpec(ShapeSpec, kind="ellipse"):
    def compile(self, piece: PieceContext) -> "EllipseDrawer":
        return EllipseDrawer(self, piece)


class EllipseDrawer(ShapeDrawer):
    def shape(self, canvas: Canvas, fill: int, stroke: int) -> None:
        x, y, w, h = self.rect
        canvas.ellipse(x, y, x + w, y + h, stroke=stroke, fill=fill)


# --- line ------------------------------------------------------------------------------------

@dataclass(kw_only=True)
class LineSpec(Element, kind="line"):
    """A straight line from (x, y) to (x + w, y + h)."""

    w: Length = Length(0.0)
    h: Length = Length(0.0)
    stroke: str = field(default="black", metadata=BIND)
    stroke_width: Length = Length(0.75)
    dash: list[float] | None = None

    def compile(self, piece: PieceContext) -> "LineDrawer":
        return LineDrawer(self, piece)


class LineDrawer(Drawer):
    def __init__(self, spec: LineSpec, piece: PieceContext):
        x = spec.x.of(piece.width)
        y = piece.height - spec.y.of(piece.height)
        self.points = (x, y, x + spec.w.of(piece.width), y - spec.h.of(piece.height))
        self.stroke = Colour(spec.stroke, spec.where_is("stroke"), piece.palette)
        self.stroke_width = spec.stroke_width.of(min(piece.width, piece.height))
        self.dash = checked_dash(spec)
        self.ink_saver = piece.ink_saver

    def draw(self, canvas: Canvas, card: Card) -> None:
        stroke = self.stroke.of(card)
        if self.ink_saver is not None:
            stroke = self.ink_saver.ink(stroke)
        if stroke is None:
            return
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(self.stroke_width)
        if self.dash:
            canvas.setDash(self.dash)
        canvas.line(*self.points)
        if self.dash:
            canvas.setDash()


# --- text ------------------------------------------------------------------------------------

@dataclass(kw_only=True)
class TextSpec(Element, kind="text"):
    text: str = field(metadata=BIND)
    font: str = "text"
    size: float = field(default=10.0, metadata={"min": 1, "max": 2000})
    min_size: float = field(default=5.0, metadata={"min": 1, "max": 2000})
    colour: str = field(default="black", metadata=BIND)
    align: Literal["left", "center", "right", "justify"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    leading: float = field(default=1.2, metadata={"min": 0.5, "max": 5})
    bold: bool = False
    italic: bool = False
    rotate: Literal[0, 90, 180, 270] = 0
    upper: bool = False  # print in capitals whatever the data says
    overflow: Literal["clip", "ellipsis"] = "clip"   # text too long even at min_size: cut at the box, or end in …

    def compile(self, piece: PieceContext) -> "TextDrawer":
        return TextDrawer(self, piece)


def turned(a: float, b: float, quarter_turns: int) -> tuple[float, float]:
    """A point turned anticlockwise by 90, 180 or 270 degrees about the origin, as reportlab's
    `canvas.rotate` turns what is drawn after it."""
    return {90: (-b, a), 180: (-a, -b), 270: (b, -a)}[quarter_turns]


class TextDrawer(Drawer):
    def __init__(self, spec: TextSpec, piece: PieceContext):
        self.spec = spec
        if "min_size" in getattr(spec, "_key_lines", {}) and isinstance(spec.size, (int, float)) \
                and isinstance(spec.min_size, (int, float)) and spec.min_size > spec.size:   # as written
            raise spec.where_is("min_size").error(
                f"min_size {spec.min_size:g} is larger than size {spec.size:g}: text is set at size and shrunk "
                f"down to min_size to fit", hint="give a min_size at most the size")
        self.rect = spec.box(piece)
        if self.rect[2] <= 0 or self.rect[3] <= 0:
            key = "inset" if spec.inset is not None else ("w" if self.rect[2] <= 0 else "h")
            raise spec.where_is(key).error("a text box needs a width and a height above 0")
        self.family = piece.fonts.family(spec.font, spec.where_is("font"))
        self.font = self.family.face(bold=spec.bold, italic=spec.italic)
        where = spec.where_is("text")
        self.text = Binding(printed(spec.text, piece, where), spec.origin)
        # text with no {field} is the layout's words (or its label's): its problems are told there
        self.words_at = written_at(spec.text, piece, where) if not self.text.fields else None
        self.colour = Colour(spec.colour, spec.where_is("colour"), piece.palette)
        self.palette = piece.palette   # colour names in spans: [law|+2]
        self.diagnostics = piece.diagnostics
        self.safe = piece.safe
        # a box past the piece's edge, turned as drawn: its lines are checked as they print (and
        # in a repeat, which may move the box past it)
        left, right, bottom, top = self.turned_box()
        self.spills = left < -0.01 or bottom < -0.01 or right > piece.width + 0.01 or top > piece.height + 0.01
        self.piece = (piece.width, piece.height)
        self.ink_saver = piece.ink_saver
        self.icons = icons_of(piece.game_dir) if piece.game_dir is not None else {}
        self.right_to_left = piece.right_to_left
        self.simple = simple_characters(self.font)   # text of only these takes the short way

    def draw(self, canvas: Canvas, card: Card) -> None:
        written = self.text.render(card).strip()
        if not written:
            return
        spec = self.spec
        text = written.upper() if spec.upper else written
        x, y, w, h = self.rect
        if spec.rotate in (90, 270):
            w, h = h, w
        if self.simple.issuperset(text):   # most card text: none of the work below applies
            colour = self.colour.of(card)
            if self.ink_saver is not None:
                colour = self.ink_saver.ink(colour)
            fit: Fit = partial(fit_paragraph, font=self.font, size=spec.size, min_size=spec.min_size,
                          leading=spec.leading, colour_hex=colour_hex(colour) if colour else "000000",
                          align=self._align(text), width=w, height=h, simple=True)
        else:
            text, fit = self._prepared(written, card, w, h)
        para, used, fits = fit(text)
        if not fits:
            shortened = spec.overflow == "ellipsis" and shortened_to_fit(text, fit)
            if shortened:
                para, used, fits = fit(shortened)
            fields = ", ".join(sorted(self.text.fields)) or "text"
            self.diagnostics.warn(f"{card_place(card, self.text.fields)}{who(card)}, {fields}: text '{_short(written)}' does not fit its box even "
                                  f"at {spec.min_size:g} pt; "
                                  + ("shortened with '…'" if shortened else "the rest is cut off at the box's edge")
                                  + f" ({spec.origin.file}:{spec.origin.line})")
        valign = spec.valign if fits else "top"   # too long: the first lines show, the rest is cut off
        offset = {"top": h - used, "middle": (h - used) / 2, "bottom": 0.0}[valign]
        if self.safe is not None:
            self._check_safe_zone(para, written, card, x, y + offset, w, used)
        if self.spills or type(card) is RepeatScope:
            self._check_inside(para, written, card, x, y + offset, w, used)
        if spec.rotate == 0 and fits:
            para.drawOn(canvas, x, y + offset)
            return
        canvas.saveState()
        cx, cy = self.rect[0] + self.rect[2] / 2, self.rect[1] + self.rect[3] / 2
        canvas.translate(cx, cy)
        canvas.rotate(spec.rotate)
        if not fits:   # nothing past the box: the card's other elements stay readable
            box = canvas.beginPath()
            box.rect(-w / 2, -h / 2, w, h)
            canvas.clipPath(box, stroke=0, fill=0)
        para.drawOn(canvas, -w / 2, -h / 2 + offset)
        canvas.restoreState()

    def _prepared(self, text: str, card: Card, w: float, h: float) -> tuple[str, Fit]:
        """The text as it will be set (icons as tokens, capitals, palette names in spans) and
        how to fit it, for text that may hold markup, icons, right-to-left script or
        characters the face lacks."""
        spec = self.spec
        icon_names: tuple[tuple[str, float], ...] = ()
        if ":" in text:
            text, icon_names = with_tokens(text, self.icons, lambda message: self._fail(card, message))
        if spec.upper:   # after the icons are found: their names are not the text's to change
            text = text.upper()
        colour = self.colour.of(card)
        if self.ink_saver is not None:
            colour = self.ink_saver.ink(colour)
        text = palette_spans(text, self.palette)
        if "*" in text or "|" in text:
            self.family.with_markup()
            self.check_markup(card, text)
            self._warn_bold_lacking(card, text)
        fallbacks = self._fallbacks(text, card)
        ink = colour_hex(colour) if colour else "000000"
        where_text = f"{self.spec.origin.file}:{self.spec.origin.line}"
        images = tuple(load_icon(self.icons[name], ink, where_text, scale) for name, scale in icon_names)
        return text, partial(fit_paragraph, font=self.font, size=spec.size, min_size=spec.min_size,
                             leading=spec.leading, colour_hex=ink, align=self._align(text), width=w, height=h,
                             fallbacks=fallbacks, images=images)

    def _align(self, text: str) -> str:
        align = self.spec.align
        if self.right_to_left and align in ("left", "right") and not has_letters(text):
            align = "right" if align == "left" else "left"   # icons, numbers: start where reading starts
        return align

    def _fail(self, card: Card, message: str) -> NoReturn:
        """A problem with this card's text: told with the card's line, its field and the layout's;
        with no field in it, where its words are written (the layout's line, or a label's)."""
        origin = self.spec.origin
        if self.words_at is not None:
            raise words_error(self.words_at, origin, message)
        fields = ", ".join(sorted(self.text.fields))
        raise PnpError(f"{card_place(card, self.text.fields)}{who(card)}, {fields}: {message} (drawn by "
                       f"{origin.file}:{origin.line})")

    def check_markup(self, card: Card, text: str | None = None) -> None:
        """Refuse emphasis that can't be drawn, naming the card, its field and the layout line."""
        text = self.text.render(card) if text is None else text
        if "*" not in text and "|" not in text:
            return
        try:
            span_markup(to_markup(text))
        except MarkupError as exc:
            self._fail(card, str(exc))

    def _warn_bold_lacking(self, card: Card, text: str) -> None:
        """Bold the family has no face for prints in its regular face, and is warned about
        (italic without a face is drawn slanted)."""
        if "bold" not in self.family.faces and "<b>" in to_markup(text):
            fields = ", ".join(sorted(self.text.fields)) or "text"
            self.diagnostics.warn(f"{card_place(card, self.text.fields)}{who(card)}, {fields}: the font family "
                                  f"'{self.family.name}' has no bold face; **bold** prints in its regular "
                                  f"face ({self.spec.origin.file}:{self.spec.origin.line})")

    def _check_inside(self, para: SetText, text: str, card: Card, x: float, y: float, w: float, used: float) -> None:
        """Warn when the printed lines of a box that runs past the piece's edge do too: what
        prints there is cut off with the card. In a repeat, where the repeat has put them."""
        dx, dy = offset_of(card)
        width, height = self.piece
        if isinstance(card, RepeatScope):
            if card.edges is None:
                return   # turned or scaled at a point: not told
            width, height = card.edges
        left, right, bottom, top = self._printed_extent(para, x, y, w, used)
        box_left, box_right, box_bottom, box_top = self.turned_box()   # lines past their box are cut off at it
        left, right, bottom, top = (max(left, box_left) + dx, min(right, box_right) + dx,
                                    max(bottom, box_bottom) + dy, min(top, box_top) + dy)
        past = {"left": -left, "right": right - width, "bottom": -bottom, "top": top - height}
        side, distance = max(past.items(), key=lambda item: item[1])
        if distance > 0.5:   # half a point: what a line's side bearing may lend
            fields = ", ".join(sorted(self.text.fields)) or "text"
            self.diagnostics.warn(f"{card_place(card, self.text.fields)}{who(card)}, {fields}: text '{_short(text)}' "
                                  f"prints {distance / mm(1):.1f} mm past the piece's {side} edge, where it is cut "
                                  f"off ({self.spec.origin.file}:{self.spec.origin.line})")

    def _check_safe_zone(self, para: SetText, text: str, card: Card, x: float, y: float, w: float,
                         used: float) -> None:
        """Warn when the printed lines (not the box) come closer to the trim than `safe`."""
        if isinstance(card, RepeatScope) and card.edges is None:
            return   # turned or scaled at a point: where its lines print is not told
        left, right, bottom, top = self._printed_extent(para, x, y, w, used)
        dx, dy = offset_of(card)   # inside a repeat
        left, right, bottom, top = left + dx, right + dx, bottom + dy, top + dy
        safe, (width, height) = self.safe, self.piece
        assert safe is not None   # only called for a piece with a safe zone
        if left < safe - 0.01 or bottom < safe - 0.01 or right > width - safe + 0.01 or top > height - safe + 0.01:
            where = self.spec.origin
            self.diagnostics.warn(f"{where.file}:{where.line}: text '{_short(text)}' comes closer than "
                                  f"{safe / mm(1):.1f} mm to the trim, outside the print shop's "
                                  f"safe zone")

    def turned_box(self) -> tuple[float, float, float, float]:
        """The box (left, right, bottom, top) as its text is turned about its centre."""
        x, y, w, h = self.rect
        half_w, half_h = (h / 2, w / 2) if self.spec.rotate in (90, 270) else (w / 2, h / 2)
        return x + w / 2 - half_w, x + w / 2 + half_w, y + h / 2 - half_h, y + h / 2 + half_h

    def _printed_extent(self, para: SetText, x: float, y: float, w: float,
                        used: float) -> tuple[float, float, float, float]:
        """Where the lines print (left, right, bottom, top), from where `draw` sets them (`x`,
        `y` the lines' bottom left, `w` the width they are set in); a turned text's lines turned
        as `draw` turns them, about its box's centre."""
        widest = max(para.getActualLineWidths0() or [0])
        shift = {"center": (w - widest) / 2, "right": w - widest}.get(para.align, 0.0)   # as set: right to left too
        left, right, bottom, top = x + shift, x + shift + widest, y, y + used
        if self.spec.rotate:
            box_x, box_y, box_w, box_h = self.rect
            centre_x, centre_y = box_x + box_w / 2, box_y + box_h / 2
            h = box_w if self.spec.rotate in (90, 270) else box_h   # the turned box's height
            # the lines in the turned frame, whose origin is the box's centre
            lines_x, lines_y = (left - x - w / 2, right - x - w / 2), (bottom - box_y - h / 2, top - box_y - h / 2)
            corners = [turned(a, b, self.spec.rotate) for a in lines_x for b in lines_y]
            left, right = centre_x + min(a for a, _ in corners), centre_x + max(a for a, _ in corners)
            bottom, top = centre_y + min(b for _, b in corners), centre_y + max(b for _, b in corners)
        return left, right, bottom, top

    def _fallbacks(self, text: str, card: Card) -> tuple[Styled, ...]:
        """The family's fallback fonts when the text has characters its own face lacks (none
        for most text: it keeps the fast path); one warning for what no font can draw."""
        shown = without_tokens(plain(text))
        fallbacks = fallbacks_for(self.font, shown)
        lost = undrawable(self.font, fallbacks, shown)
        if lost:
            fields = ", ".join(sorted(self.text.fields)) or "text"
            chars = ", ".join(f"'{char}' (U+{ord(char):04X})" for char in lost)
            self.diagnostics.warn(f"{card_place(card, self.text.fields)}{who(card)}, {fields}: no font in fonts.yaml (nor the fallbacks of "
                                  f"'{self.family.name}') has {chars}; they print as blank space "
                                  f"({self.spec.origin.file}:{self.spec.origin.line})")
        return fallbacks


def has_letters(text: str) -> bool:
    """Whether the text has a letter of some direction (icons, digits and marks have none)."""
    import unicodedata
    return any(unicodedata.bidirectional(char) in ("L", "R", "AL") and not TOKEN.fullmatch(char) for char in text)


def shortened_to_fit(text: str, fit: Fit) -> str | None:
    """The most words of `text` that fit, followed by '…' (found by bisection), or None when
    not even the first word does."""
    words = text.split()
    low, high, best = 1, len(words) - 1, None
    while low <= high:
        middle = (low + high) // 2
        candidate = " ".join(words[:middle]).rstrip(",.;:") + "…"
        if fit(candidate)[2]:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    return best


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."
