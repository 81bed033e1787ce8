"""Layout templates: YAML files in layouts/, with `extends` to build on a base.

A template names its size and a list of elements. A template that extends another starts
from the base's elements; an element with the same `id` as one of the base's replaces it in
place, and the rest are drawn on top, in order.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pnp.conditions import set_test_problem
from pnp.config.typed import Where, load_as, where_of
from pnp.yaml_source import YamlMap, display_path, load_yaml, source_text
from pnp.paths import gate
from pnp.errors import did_you_mean
from pnp.layout.labels import check_labels
from pnp.layout.elements import Drawer, PieceContext
from pnp.layout.forms import forms_of
from pnp.layout.kinds import Element
from pnp.config.size import Size
from pnp.resources import BUNDLED, layout_folders
from pnp.units import Length, mm, parse_colour

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from pnp.layout.card import Card


@dataclass
class TemplateSpec:
    extends: str | None = None
    size: Size | None = None
    description: str = ""
    palette: dict[str, str] = field(default_factory=dict)  # colour names for this layout
    mirror: bool | None = None   # in a right-to-left language, every element moves to the other side
    elements: list[Element] = field(default_factory=list)


@dataclass
class Template:
    name: str
    size: Size | None
    elements: list[Element]  # base first
    palette: dict[str, str] = field(default_factory=dict)
    mirror: bool = False
    # the `size:` line that gave the size, in one of the project's layouts (None: no size, or the
    # poker of pnp's own base/card, a default a deck's back leaves to its front's)
    size_at: Where | None = None


def load_template(root: Path, name: str, where: Where, _chain: tuple[str, ...] = ()) -> Template:
    """Load `layouts/<name>.yaml` and everything it extends."""
    path = template_path(root, name, where)
    if name in _chain:
        cycle = " -> ".join(_chain + (name,))
        raise where.error(f"layouts extend each other in a circle: {cycle}")
    spec, node = parsed_layout(path)
    elements = spec.elements
    check_palette(node.get("palette") or {}, where_of(node).key(node, "palette"))
    size_at = where_of(node).key(node, "size") if spec.size is not None and not pnps_own(path) else None
    if spec.extends is None:
        return Template(name, spec.size, elements, spec.palette, bool(spec.mirror), size_at)
    base = load_template(root, spec.extends, where_of(node).key(node, "extends"), _chain + (name,))
    merged = list(base.elements)
    index_by_id = {e.id: i for i, e in enumerate(merged) if e.id}
    for element in elements:
        if element.id and element.id in index_by_id:
            merged[index_by_id[element.id]] = element
        else:
            merged.append(element)
    return Template(name, spec.size or base.size, merged, {**base.palette, **spec.palette},
                    base.mirror if spec.mirror is None else spec.mirror,
                    # the size a layout names, itself or through a layout it extends: not base/card's (the
                    # project's or pnp's), the shared base a back on any front extends
                    size_at if spec.size is not None else None if spec.extends == "base/card" else base.size_at)


def pnps_own(path: Path) -> bool:
    """Whether a layout's file (resolved) is one pnp ships, not the project's."""
    return path.is_relative_to((BUNDLED / "layouts").resolve())


# Layout files as read, by their text: a deck's two sides, each translation and each rebuild of
# watch and serve read the same few files again (validate --all read 23 files 131 times). Keyed
# by the text (and the name messages give the file), so an edit, or an edit's draft, is read
# afresh; what is read is never changed afterwards (a mirrored or bound element is a copy).
_PARSED: dict[tuple[Path, str, str], tuple[TemplateSpec, YamlMap]] = {}
_PARSED_AT_MOST = 256   # a long serve session's edits: then it starts again (one step, safe in threads)


def parsed_layout(path: Path) -> tuple[TemplateSpec, YamlMap]:
    """The layout file at `path`, checked and typed: once for each text it holds."""
    shown = display_path(path)
    text = source_text(path, shown)
    key = (path, shown, text)
    found = _PARSED.get(key)
    if found is None:
        node = load_yaml(path, text=text)
        found = load_as(TemplateSpec, node, where_of(node)), node
        if len(_PARSED) >= _PARSED_AT_MOST:
            _PARSED.clear()
        _PARSED[key] = found
    return found


def check_palette(palette: dict[str, str], where: Where) -> None:
    for name, value in palette.items():
        try:
            parse_colour(value)
        except ValueError as exc:
            raise where.key(palette, name).error(f"palette colour '{name}': {exc}") from None


def template_path(root: Path, name: str, where: Where) -> Path:
    """The file of layout `name`: in the project's layouts/, else among pnp's own (base/card)."""
    if "\0" in name:
        raise where.error("a layout name contains a NUL character; remove it")
    folders = [folder.resolve() for folder in layout_folders(root)]
    for folder in folders:
        path = gate(folder / f"{name}.yaml", [folder], where.error, "layout", shown=name,
                    where_to="the layouts folder")
        if path.is_file():
            return path
    names = sorted({str(p.relative_to(folder).with_suffix("")) for folder in folders if folder.is_dir()
                    for p in folder.rglob("*.yaml")})
    raise where.error(f"no layout '{name}' in {display_path(folders[0])}",
                      hint=did_you_mean(name, names) or (f"layouts: {', '.join(names)}" if names else None))


# A card's value for a field as stamped looks compare it: lists and maps by their repr.
Look = object


class PieceLayout(Protocol):
    """What a component draws its pieces with: a CompiledLayout, or a ChosenLayout (pnp.layout.
    choice) that draws each card with the layout one of its fields names. Either has one size."""

    name: str
    width: float
    height: float
    bleed: float
    size_name: str
    fields: frozenset[str]   # the card fields its look depends on
    drawn_fields: frozenset[str]   # of those, the ones it draws (not only tests with `when:`)

    def look_of(self, card: Card) -> tuple[object, ...]: ...

    def plan(self, cards: Sequence[Card]) -> PieceLayout: ...

    def draw(self, canvas: Canvas, card: Card) -> None: ...


MAX_DRAWS = 20_000   # shapes one piece may draw: a board's grid is a few thousand


class CompiledLayout:
    """A template compiled for one kind of piece: draws a whole piece for any card.

    Runs of elements that look the same on many cards are drawn once into a PDF form (an
    XObject) per look and stamped. Without a plan, that is the runs that do not depend on
    the card at all (a shared piece, a whole back). `plan(cards)` looks at the deck and also
    stamps runs whose fields take few values across it (a background in one of three colours,
    a label per card type), so only what is really different is drawn card by card."""

    size_name = "custom"   # the card size it was compiled at, when that has a name

    def __init__(self, template: Template, piece: PieceContext):
        self.name = template.name
        self.width, self.height, self.bleed = piece.width, piece.height, piece.bleed
        # the size its file names, and where, when one of the project's layouts names it
        self.named_size = (template.size, template.size_at) if template.size and template.size_at else None
        self.diagnostics = piece.diagnostics
        self.drawers: list[Drawer] = []
        work = 0
        for spec in template.elements:
            work += spec.draws()
            if work > MAX_DRAWS:
                raise spec.origin.error(
                    f"this layout would draw more than {MAX_DRAWS:,} shapes on every piece "
                    f"(repeats multiply); that is more than any card needs")
            spec.check_fields(piece)
            if template.mirror if spec.mirror is None else spec.mirror:
                warn_unmirrorable(spec, piece)
                if piece.right_to_left:
                    spec = mirrored(spec, piece)
            self.drawers.append(spec.compiled(piece))
        if piece.fields:
            check_labels(template.elements, piece)
        # the fields its look reads: those drawn, and those a `when:` tests (a back drawn with a
        # mark on some cards is two backs, to a shop too)
        self.drawn_fields = frozenset[str]().union(*(d.fields for d in self.drawers))
        # the `when:`s that test a field it does not draw: the others' outcomes follow from the
        # values drawn, and a look need not count them twice
        self.whens = [d.when for d in self.drawers if d.when is not None and not d.when.fields <= self.drawn_fields]
        self.fields = self.drawn_fields.union(*(when.fields for when in self.whens))
        self._drawn_order = sorted(self.drawn_fields)
        # Each group: (fields its look depends on, or None to draw it directly; its drawers)
        self.groups: list[tuple[tuple[str, ...] | None, list[Drawer]]] = []
        for drawer in self.drawers:
            mode = () if drawer.static else None
            if self.groups and self.groups[-1][0] == mode:
                self.groups[-1][1].append(drawer)
            else:
                self.groups.append((mode, [drawer]))

    def look_of(self, card: Card) -> tuple[object, ...]:
        """What tells one card's look from another's: the values drawn, and what each `when:`
        decides (not the values it tests: two cards its mark leaves off look the same)."""
        drawn = tuple(map(card.get, self._drawn_order))
        return drawn + tuple(when.holds(card) for when in self.whens) if self.whens else drawn

    def plan(self, cards: Sequence[Card]) -> CompiledLayout:
        """Group the elements for these cards: a run is stamped from a form per distinct look
        when its looks are few (at most a quarter of the cards), else drawn card by card."""
        limit = max(2, len(cards) // 4)
        columns: dict[str, list[Look]] = {}   # each field's value on every card, worked out once
        self.check_set_tests(cards)

        def looks(fields: frozenset[str]) -> int:
            for name in fields:
                if name not in columns:
                    columns[name] = [look_of(card, name) for card in cards]
            if not fields:
                return 1
            return len(set(zip(*(columns[name] for name in sorted(fields)))))

        groups: list[tuple[tuple[str, ...] | None, list[Drawer]]] = []
        run: list[Drawer] = []
        run_fields: frozenset[str] = frozenset()

        def close() -> None:
            if run:
                groups.append((tuple(sorted(run_fields)), list(run)))

        for drawer in self.drawers:
            fields = drawer_fields(drawer)
            if not drawer.stampable:
                close()
                run, run_fields = [], frozenset()
                groups.append((None, [drawer]))
            elif looks(run_fields | fields) <= limit:
                run.append(drawer)
                run_fields |= fields
            else:
                close()
                if looks(fields) <= limit:
                    run, run_fields = [drawer], fields
                else:
                    run, run_fields = [], frozenset()
                    groups.append((None, [drawer]))
        close()
        self.groups = groups
        return self

    def draw(self, canvas: Canvas, card: Card) -> None:
        """Draw the piece with its bottom-left trim corner at the canvas origin."""
        for index, (fields, drawers) in enumerate(self.groups):
            if fields is None:
                for drawer in drawers:
                    if drawer.shown_for(card):
                        drawer.draw(canvas, card)
            else:
                look = tuple(look_of(card, name) for name in fields)
                canvas.doForm(self._form(canvas, index, look, drawers, card))

    def check_set_tests(self, cards: Sequence[Card]) -> None:
        """A `when: field` over text some cards write as "no": it holds for them too (the text
        is set), which a yes-or-no column in a spreadsheet seldom means; told at its line."""
        for drawer in self.drawers:
            for name, where in drawer.when.set_tests if drawer.when is not None else ():
                problem = set_test_problem(name, [card.get(name) for card in cards])
                if problem is not None:
                    self.diagnostics.warn(str(where.error(problem)))

    def _form(self, canvas: Canvas, index: int, look: tuple[Look, ...], drawers: list[Drawer], card: Card) -> str:
        drawn = forms_of(canvas)
        forms = drawn.runs
        drawn.layouts[id(self)] = self
        key = (id(self), index, look)
        if key not in forms:
            name = f"pnp{len(forms)}"
            b = self.bleed
            canvas.beginForm(name, lowerx=-b, lowery=-b, upperx=self.width + b, uppery=self.height + b)
            for drawer in drawers:
                if drawer.shown_for(card):
                    drawer.draw(canvas, card)
            canvas.endForm()
            forms[key] = name
        return forms[key]


def drawer_fields(drawer: Drawer) -> frozenset[str]:
    return drawer.fields | (drawer.when.fields if drawer.when else frozenset())


def look_of(card: Card, name: str) -> Look:
    """A card's value for a field, as something that can be compared and hashed."""
    value = card.get(name)
    return repr(value) if isinstance(value, (list, dict)) else value


def warn_unmirrorable(spec: Element, piece: PieceContext) -> None:
    """An element that mirrors, placed `x` in with no width of its own: its box runs on to
    the whole piece's width past its right edge, so mirrored it lands `x` off the left edge (a
    row of pips half off the card in Arabic). Told in every language, where it can be fixed."""
    if spec.inset is not None or "w" in getattr(spec, "_key_lines", {"w": None}):
        return
    x = spec.x.of(piece.width)
    if x > 0.01 and spec.w.of(piece.width) + x > piece.width + 0.01:
        piece.diagnostics.warn(str(spec.where_is("x").error(
            f"x {x / mm(1):g} mm and no w: the box runs {x / mm(1):g} mm past the piece's right edge, so in a "
            f"right-to-left edition (mirror) it lands that far off the left edge; give it a w")))


def mirrored(spec: Element, piece: PieceContext) -> Element:
    """The element moved to the other side of the piece (its box's left edge where its right
    edge was), for a right-to-left language; what it draws (text aligns from where reading
    starts) is not turned. An element inset on every side stays where it is."""
    if spec.inset is not None:
        return spec
    x, w = spec.x.of(piece.width), spec.w.of(piece.width)
    moved = copy.copy(spec)
    object.__setattr__(moved, "x", Length(piece.width - x - w))
    moved.mirrored = True   # a table's columns run from the right too
    return moved


def compile_layout(root: Path, name: str, where: Where, piece_args: dict[str, Any],
                   size_override: Size | None = None, default_size: Size | None = None) -> CompiledLayout:
    """The layout compiled at the component's size, else its own, else `default_size`."""
    template = load_template(root, name, where)
    size = size_override or template.size or default_size
    if size is None:
        raise where.error(f"layout '{name}' has no size; give the component or the layout a size")
    piece = PieceContext(width=size.width, height=size.height, palette=template.palette, **piece_args)
    layout = CompiledLayout(template, piece)
    layout.size_name = size.name
    return layout
