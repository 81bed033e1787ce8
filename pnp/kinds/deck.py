"""The `deck` kind: its spec (`DeckComponent`), the check of a front or back chosen by a field,
what a shop takes (its cards), and decks on home paper: pages of fronts, each followed by its
page of backs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from pnp.config.game import Component, Game
from pnp.config.layout_ref import LayoutChoice, LayoutName
from pnp.config.size import Size
from pnp.config.typed import lengths
from pnp.units import Length, mm

if TYPE_CHECKING:   # drawing code is imported where a piece is drawn: loading a game draws nothing
    from reportlab.pdfgen.canvas import Canvas

    from pnp.config.deck import Card, Deck
    from pnp.config.typed import Where
    from pnp.impose import FoldSheet, Grid, MarksBetween
    from pnp.layout.template import CompiledLayout
    from pnp.options import PrintOptions
    from pnp.outputs.pdf import OutputFile
    from pnp.outputs.pieces import Piece
    from pnp.render import BuildContext, ShopPieces

    from pnp.sheet_layouts import SlotSheet

    # A side's layout. A ChosenLayout (one layout chosen per card, pnp.layout.choice) measures,
    # plans and draws as a CompiledLayout does, and what takes a side (render/'s ShopPieces and
    # pictures_of) names CompiledLayout, so it passes as one (see deck_layout).
    DeckLayout = CompiledLayout

Sides = tuple[float, float, float, float]   # a piece's (left, bottom, right, top) bleed on the sheet
Notch = tuple[float, float, float, float]   # a window (x, y, width, height) cut out of a piece's bleed


@dataclass(kw_only=True)
class DeckComponent(Component, kind="deck"):
    """Cards (or tokens, end zones, roster cards): pieces imposed many to a sheet, with backs."""

    data: str
    front: LayoutName | LayoutChoice       # a layout name, or {by: field, layouts: {value: layout}, default: layout}
    back: LayoutName | LayoutChoice | None = None
    size: Size | None = None
    where: dict[str, Any] = field(default_factory=dict)  # only the cards whose fields match
    gap: Length | None = field(default=None, metadata=lengths(  # None: touching, or twice the bleed
        0, None, "gap '{value}' must be a length of 0 or more (not a percentage), e.g. '3mm'"))
    sheet: str | None = None  # a sheet layout in sheets/ (see pnp.sheet_layouts); None: fit the paper
    # the cut cards' rounded corners, shown in proofs and shop PNGs
    radius: Length | None = field(default=None, metadata=lengths(
        0, mm(20), "a corner radius is a length from 0 to 20mm, e.g. 3mm"))
    orientation: Literal["any", "upright", "turned"] = "any"  # on home sheets: turned a quarter round where more fit

    is_deck = True

    def reads(self) -> str | None:
        return self.data

    def selects(self) -> dict[str, Any]:
        return self.where

    def layout_names(self) -> list[str]:
        return [name for side in (self.front, self.back) if side for name in
                (side.names() if isinstance(side, LayoutChoice) else [str(side)])]

    def pieces(self, ctx: BuildContext, side: str, bleed: float) -> tuple[DeckLayout | None, list[Card]]:
        from pnp.render.distinct import first_copies
        front, back = compile_deck_layouts(ctx, self, bleed)
        return front if side == "front" else back, first_copies(ctx.decks[self.id])

    def check(self, game: Game, decks: dict[str, Deck]) -> None:
        for side in (self.front, self.back):
            if isinstance(side, LayoutChoice):
                side.check(decks[self.id].fields)

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        return render_deck(ctx, self)

    def shop_pieces(self, ctx: BuildContext, bleed: float, safe: float) -> ShopPieces:
        from pnp.render import ShopPieces
        front, back = compile_deck_layouts(ctx, self, bleed, safe)
        return ShopPieces(self, front, back, ctx.decks[self.id], radius=corner_radius(self))

    def printed_double(self, duplex: str) -> bool:
        return bool(self.back) and duplex in ("long-edge", "short-edge")

    def cutting(self, duplex: str) -> str:
        if duplex == "fold" and self.back:   # a deck without backs is laid out as usual
            return "fold along the dashed line, glue, then cut on the marks"
        return "cut on the marks"


def compile_deck_layouts(ctx: BuildContext, component: DeckComponent, bleed: float,
                         safe: float | None = None) -> tuple[DeckLayout, Any]:
    # the back is a DeckLayout or None; Any until serve/pictures.py narrows it where it draws backs
    """The front and back layouts of a deck component, compiled once per build; either may be
    chosen per card (pnp.layout.choice)."""
    deck = ctx.decks[component.id]
    args = ctx.frame_args(deck, bleed, safe=safe)
    front = deck_layout(ctx, component.front, component.where_is("front"), args, component.size, deck)
    back = None
    if component.back:
        size = component.size or Size(front.width, front.height)
        back = deck_layout(ctx, component.back, component.where_is("back"), args, size, deck)
        if component.size is None:   # a deck's size is both sides' whatever their layouts name
            check_back_size(front, back)
    return front, back


def check_back_size(front: DeckLayout, back: DeckLayout) -> None:
    """A back layout that names a size names its front's: a back is drawn at its front's size, so
    another was lost without a word (a mini back printed poker)."""
    from pnp.layout.choice import ChosenLayout
    for layout in back.every if isinstance(back, ChosenLayout) else [back]:
        if layout.named_size is None:
            continue
        size, where = layout.named_size
        if (round(size.width, 2), round(size.height, 2)) != (round(front.width, 2), round(front.height, 2)):
            raise where.error(f"layout '{layout.name}' is not the size of '{front.name}': a deck's back must be "
                              f"the size of its front", hint="a back that names no size is drawn at its front's")


def deck_layout(ctx: BuildContext, name: str | LayoutChoice, where: Where, args: dict[str, Any], size: Size | None,
                deck: Deck) -> DeckLayout:
    """One layout by name, or a ChosenLayout when `name` is a LayoutChoice (checked against
    the deck's fields when the game was checked)."""
    from pnp.layout.template import compile_layout
    if isinstance(name, str):
        return compile_layout(ctx.project.root, name, where, args, size)
    from pnp.layout.choice import ChosenLayout
    layouts = {str(value): compile_layout(ctx.project.root, layout, layout.where, args, size)
               for value, layout in name.layouts.items()}
    default = compile_layout(ctx.project.root, name.default, name.default.where, args, size) \
        if name.default else None
    return cast("CompiledLayout", ChosenLayout(name.by, layouts, default, where))   # see DeckLayout


def corner_radius(component: DeckComponent) -> float:
    """The deck's rounded-corner radius in points (0: square corners); checked as it loaded."""
    return component.radius.points if component.radius is not None else 0.0


def deck_gap(component: DeckComponent) -> float | None:
    """The layout's own gap between pieces, or None to let the sheet choose."""
    return component.gap.points if component.gap is not None else None


def render_deck(ctx: BuildContext, component: DeckComponent) -> list[OutputFile]:
    from pnp.impose import PAPER_SIZES, draw_cut_marks, grid_for
    options = ctx.options
    front, back = compile_deck_layouts(ctx, component, options.bleed)
    ctx.compiled[component.id] = (front, back)
    cards = ctx.decks[component.id].expanded()
    front.plan(cards)
    if back is not None:
        back.plan(cards)
    paper = PAPER_SIZES[options.paper]
    if options.duplex == "fold" and back is not None:
        if component.sheet:
            ctx.project.diagnostics.warn(f"{component.id}: --duplex fold lays out its own sheets; "
                                         f"the sheet layout '{component.sheet}' is not used")
        return [fold_deck(ctx, component, front, back, cards, paper)]
    laid_for = ctx.laid_out_for.get(component.id, len(cards))
    grid = sheet_for(ctx, component, (front.width, front.height), laid_for)
    if options.bleed > 0 and not component.sheet:
        plain = grid_for(paper, (front.width, front.height), deck_gap(component), orientation=component.orientation,
                         count=laid_for)
        tell_bleed_cost(ctx, component, laid_for, grid.per_sheet, plain.per_sheet)
    note = tell_marks_and_bleed(ctx, component, grid)
    if back is not None and options.back_offset != (0.0, 0.0):
        check_back_offset(ctx, component, grid, options)
    placers = Placers(front, back)

    def draw_sheet(canvas: Canvas, index: int) -> int:
        fronts, backs = placers.on(canvas)
        sheet = cards[index * grid.per_sheet:(index + 1) * grid.per_sheet]
        for slot, card in enumerate(sheet):
            x, y = grid.slot(slot)
            sides, notches = grid.slot_bleeds[slot]
            fronts.place(card, x, y, options.bleed, sides, notches=notches, quarter=1 if grid.turned else 0)
        draw_cut_marks(canvas, grid, range(len(sheet)))
        canvas.showPage()
        if backs is not None:
            draw_backs(backs, sheet, grid, options)
            canvas.showPage()
        return len(sheet)

    from pnp.render.parts import drawn_in_parts
    finished = drawn_in_parts(f"{component.id}-{options.paper}{options.variant}.pdf", "home", paper,
                              f"{ctx.game.title}: {component.title or component.id}",
                              -(-len(cards) // grid.per_sheet), draw_sheet, ctx.project.diagnostics, ctx.tick, ctx.jobs,
                              ctx.stop)
    finished.note = note
    return [finished]


def sheet_for(ctx: BuildContext, component: DeckComponent, piece: tuple[float, float],
              count: int | None = None) -> Grid | SlotSheet:
    """Where the pieces go: the deck's own sheet layout, else as many as fit the paper."""
    from pnp.impose import PAPER_SIZES, grid_for
    options = ctx.options
    if component.sheet:
        from pnp.sheet_layouts import slot_sheet
        return slot_sheet(ctx.project.root, component.sheet, component.where_is("sheet"),
                          options.paper, piece, options.bleed)
    return grid_for(PAPER_SIZES[options.paper], piece, deck_gap(component), options.bleed, component.orientation,
                    options.full_bleed, count)


def tell_marks_and_bleed(ctx: BuildContext, component: DeckComponent, grid: MarksBetween) -> str:
    """Say in the build's summary which cut lines have no mark an inkjet prints and why, and
    which edges get less bleed than asked; the bleed words also go on the print-all cover,
    in the build's language."""
    for problem in grid.unmarked_lines():
        ctx.project.diagnostics.warn(f"{component.id}: {problem}; cut it by the pieces' own edges")
    summary = grid.bleed_summary()
    if summary:
        ctx.project.diagnostics.warn(f"{component.id}: {summary}")
    return grid.bleed_summary(ctx.translation.label) if summary and ctx.translation is not None else summary


def tell_bleed_cost(ctx: BuildContext, component: DeckComponent, count: int, per_sheet: int,
                    per_sheet_plain: int) -> None:
    """Say so in the build's summary when the bleed costs sheets (a fold sheet with its gutters
    of bleed holds fewer pieces), so the choice is the printer's to make."""
    sheets, plain = -(-count // per_sheet), -(-count // per_sheet_plain)
    if sheets > plain:
        bleed = f"{ctx.options.bleed * 25.4 / 72:.3g} mm"
        ctx.project.diagnostics.warn(f"{component.id}: the {bleed} bleed costs sheets: {sheets} instead of "
                                     f"{plain} ({per_sheet} pieces a sheet, not {per_sheet_plain})")


def check_back_offset(ctx: BuildContext, component: DeckComponent, grid: Grid | SlotSheet,
                      options: PrintOptions) -> None:
    """Warn when the offset moves a back off the sheet, which no printer's shift brings back.
    Into the 5 mm margin is as it should be: the printer shifts its backs the other way by as
    much (what `pnp calibrate` measured), so on paper they land inside it again."""
    width, height = grid.paper
    pw, ph = grid.piece
    for index in range(grid.per_sheet):
        x, y = grid.back_slot(index, options.duplex, options.back_offset)
        if x < -0.01 or y < -0.01 or x + pw > width + 0.01 or y + ph > height + 0.01:
            ctx.project.diagnostics.warn(f"{component.id}: --back-offset moves backs off the sheet, farther than a "
                                         f"printer shifts its backs; check the offset pnp calibrate gave")
            return


def fold_deck(ctx: BuildContext, component: DeckComponent, front: DeckLayout, back: DeckLayout,
              cards: list[Card], paper: tuple[float, float]) -> OutputFile:
    """Gutter-fold sheets: each sheet holds fronts and their backs, mirrored across a fold."""
    from pnp.impose import back_quarter, draw_cut_marks, fold_sheet
    options = ctx.options
    gap = deck_gap(component)
    laid_for = ctx.laid_out_for.get(component.id, len(cards))
    plan = fold_sheet(paper, (front.width, front.height), gap, options.bleed, component.orientation,
                      options.full_bleed, laid_for)
    if options.bleed > 0:
        plain = fold_sheet(paper, (front.width, front.height), gap, orientation=component.orientation,
                           count=laid_for)
        tell_bleed_cost(ctx, component, laid_for, plan.per_sheet, plain.per_sheet)
    note = tell_marks_and_bleed(ctx, component, plan.fronts)
    tell_marks_and_bleed(ctx, component, plan.backs)   # across a fold down the sheet, other lines
    quarter = 1 if plan.fronts.turned else 0
    placers = Placers(front, back)

    def draw_sheet(canvas: Canvas, index: int) -> int:
        fronts, backs = placers.on(canvas)
        assert backs is not None   # a fold deck has backs
        sheet = cards[index * plan.per_sheet:(index + 1) * plan.per_sheet]
        for slot, card in enumerate(sheet):
            sides, notches = plan.fronts.slot_bleeds[slot]
            fronts.place(card, *plan.fronts.slot(slot), options.bleed, sides, notches=notches, quarter=quarter)
            sides, notches = plan.backs.slot_bleeds[plan.back_index(slot)]
            backs.place(card, *plan.back_slot(slot), options.bleed, sides, notches=notches,
                        quarter=back_quarter(quarter, "fold", plan.across))
        draw_cut_marks(canvas, plan.fronts, range(len(sheet)))
        draw_cut_marks(canvas, plan.backs, [plan.back_index(slot) for slot in range(len(sheet))])
        draw_fold_line(canvas, plan)
        canvas.showPage()
        return len(sheet)

    from pnp.render.parts import drawn_in_parts
    finished = drawn_in_parts(f"{component.id}-{options.paper}{options.variant}.pdf", "home", plan.paper,
                              f"{ctx.game.title}: {component.title or component.id} (fold)",
                              -(-len(cards) // plan.per_sheet), draw_sheet, ctx.project.diagnostics, ctx.tick, ctx.jobs,
                              ctx.stop)
    finished.note = note
    return finished


def draw_fold_line(canvas: Canvas, plan: FoldSheet) -> None:
    from pnp.impose import UNPRINTABLE
    canvas.saveState()
    canvas.setStrokeGray(0.45)
    canvas.setLineWidth(0.5)
    canvas.setDash([4, 3])
    x1, y1, x2, y2 = plan.fold_line
    inset = UNPRINTABLE
    if plan.across:
        canvas.line(x1 + inset, y1, x2 - inset, y2)
    else:
        canvas.line(x1, y1 + inset, x2, y2 - inset)
    canvas.restoreState()


def draw_backs(backs: Placer, sheet: list[Card], grid: Grid | SlotSheet, options: PrintOptions) -> None:
    from pnp.impose import back_quarter
    quarter = back_quarter(1 if grid.turned else 0, options.duplex)
    for index, card in enumerate(sheet):
        x, y = grid.back_slot(index, options.duplex, options.back_offset)
        sides, notches = grid.slot_bleeds[grid.back_index(index, options.duplex)]
        backs.place(card, x, y, options.bleed, sides, notches=notches, quarter=quarter)


class Placers:
    """The fronts' and the backs' Placer for the canvas being drawn on: each part of a long
    deck (pnp.render.parts) is a canvas of its own."""

    def __init__(self, front: Piece, back: Piece | None) -> None:
        self.front, self.back = front, back
        self.current: tuple[Placer, Placer | None] | None = None

    def on(self, canvas: Canvas) -> tuple[Placer, Placer | None]:
        if self.current is None or self.current[0].canvas is not canvas:
            self.current = (Placer(canvas, self.front), Placer(canvas, self.back) if self.back is not None else None)
        return self.current


class Placer:
    """Places the pieces of one layout on one file's sheets. Every piece in the same slot clips
    alike, so each slot's clipping operators are made once and kept here, for this file only."""

    def __init__(self, canvas: Canvas, layout: Piece) -> None:
        self.canvas, self.layout = canvas, layout
        self.clips: dict[tuple[float, Sides | None, int, tuple[Notch, ...], int], list[str]] = {}

    def place(self, card: Card, x: float, y: float, bleed: float, sides: Sides | None = None, quarter: int = 0,
              notches: Sequence[Notch] = ()) -> None:
        """Draw one piece turned `quarter` quarter turns anticlockwise (2: upside down) with the
        bottom-left corner of its trim, as it lies on the sheet, at (x, y); clipped to its trim plus
        `bleed`, and further to the (left, bottom, right, top) bleed `sides` on the sheet where
        neighbours or the margin leave less, less the `notches` (x, y, width, height from the
        trim's corner, as on the sheet) where marks run between pieces."""
        canvas, layout = self.canvas, self.layout
        w, h = layout.width, layout.height
        canvas.saveState()
        canvas.transform(*((1, 0, 0, 1, x, y), (0, 1, -1, 0, x + h, y),
                           (-1, 0, 0, -1, x + w, y + h), (0, -1, 1, 0, x, y + w))[quarter])
        key = (bleed, sides, quarter, tuple(notches), canvas._fillMode)
        clip = self.clips.get(key)
        if clip is None:
            code, canvas._code = canvas._code, []
            try:
                clip_piece(canvas, layout, bleed, sides, quarter, notches)
            finally:
                clip, canvas._code = canvas._code, code
            self.clips[key] = clip
        canvas._code.extend(clip)
        layout.draw(canvas, card)
        canvas.restoreState()


def clip_piece(canvas: Canvas, layout: Piece, bleed: float, sides: Sides | None, quarter: int,
               notches: Sequence[Notch]) -> None:
    """Clip to the piece's trim plus bleed, less what its neighbours and marks need (see `place`)."""
    w, h = layout.width, layout.height
    clip_bleed(canvas, layout, -bleed, -bleed, bleed, bleed)
    left, bottom, right, top = sides if sides is not None else (bleed,) * 4
    # the sheet's sides, in the turned piece's own coordinates
    left, bottom, right, top = ((left, bottom, right, top), (bottom, right, top, left),
                                (right, top, left, bottom), (top, left, bottom, right))[quarter]
    if (left, bottom, right, top) != (bleed,) * 4:
        clip_bleed(canvas, layout, -left, -bottom, right, top)
    if notches:
        clip = canvas.beginPath()   # even-odd: the bleed box less each (disjoint) window in it
        clip.rect(-left, -bottom, w + left + right, h + bottom + top)
        for nx, ny, nw, nh in notches:   # the sheet's window, in the turned piece's own coordinates
            clip.rect(*((nx, ny, nw, nh), (ny, h - nx - nw, nh, nw),
                        (w - nx - nw, h - ny - nh, nw, nh), (w - ny - nh, nx, nh, nw))[quarter])
        canvas.clipPath(clip, stroke=0, fill=0)


def clip_bleed(canvas: Canvas, layout: Piece, left: float, bottom: float, right: float, top: float) -> None:
    clip = canvas.beginPath()
    clip.rect(left, bottom, layout.width + right - left, layout.height + top - bottom)
    canvas.clipPath(clip, stroke=0, fill=0)
