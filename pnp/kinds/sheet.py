"""The `sheet` kind (`SheetComponent`): a layout drawn on a whole page (a scoreboard, a roster sheet), one page per card of
its data, or a single page when it has none."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pnp.config.game import Component
from pnp.config.deck import Card
from pnp.config.size import Size

if TYPE_CHECKING:   # drawing code is imported where a piece is drawn: loading a game draws nothing
    from pnp.config.deck import Deck
    from pnp.layout.template import CompiledLayout
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext


@dataclass(kw_only=True)
class SheetComponent(Component, kind="sheet"):
    """One page per card of its data (or one page when it has none), drawn at paper size.
    With `rows`, one page lists every card instead: the layout's table takes `rows_from: rows`,
    one row per card holding these fields."""

    layout: str
    data: str | None = None
    where: dict[str, Any] = field(default_factory=dict)
    rows: list[str] | None = None

    def reads(self) -> str | None:
        return self.data

    def selects(self) -> dict[str, Any]:
        return self.where

    def layout_names(self) -> list[str]:
        return [self.layout]

    def pieces(self, ctx: BuildContext, side: str, bleed: float) -> tuple[CompiledLayout | None, list[Card]]:
        return compile_sheet(ctx, self) if side == "front" else (None, [])

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        return render_sheet(ctx, self)


def render_sheet(ctx: BuildContext, component: SheetComponent) -> list[OutputFile]:
    from pnp.impose import PAPER_SIZES
    from pnp.outputs.pdf import finish, new_canvas
    paper = PAPER_SIZES[ctx.options.paper]
    layout, cards = compile_sheet(ctx, component)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, paper, f"{ctx.game.title}: {component.title or component.id}")
    for card in cards:
        canvas.saveState()
        canvas.translate((paper[0] - layout.width) / 2, (paper[1] - layout.height) / 2)
        layout.draw(canvas, card)
        canvas.restoreState()
        canvas.showPage()
    return [finish(canvas, buffer, f"{component.id}-{ctx.options.paper}{ctx.options.variant}.pdf", role="home")]


def compile_sheet(ctx: BuildContext, component: SheetComponent) -> tuple[CompiledLayout, list[Card]]:
    """The sheet's layout and the card of each of its pages (the preview's editor draws a page
    from the same two)."""
    from pnp.impose import INKJET_MARGIN, PAPER_SIZES, UNPRINTABLE
    from pnp.layout.template import compile_layout
    paper = PAPER_SIZES[ctx.options.paper]
    deck = ctx.decks.get(component.id)
    # The layout fills the page but the strip many inkjets leave blank, unless it names a size
    # of its own (up to what any home printer prints)
    printable = Size(paper[0] - 2 * INKJET_MARGIN, paper[1] - 2 * INKJET_MARGIN)
    layout = compile_layout(ctx.project.root, component.layout, component.origin,
                            ctx.frame_args(deck, listing_rows=bool(component.rows)), default_size=printable)
    if layout.width > paper[0] - 2 * UNPRINTABLE + 0.5 or layout.height > paper[1] - 2 * UNPRINTABLE + 0.5:
        raise component.origin.error(f"layout '{component.layout}' is larger than the printable "
                                     f"area of {ctx.options.paper} paper; make it a board")
    if component.rows and deck is not None:
        headings_name_their_columns(layout, component, deck)
    if deck is None:
        return layout, [blank_card()]
    if component.rows:
        return layout, [listing(deck, component.rows)]
    return layout, deck.expanded()


def headings_name_their_columns(layout: CompiledLayout, component: SheetComponent, deck: Deck) -> None:
    """A listing's heading over each column names the field the component lists there."""
    from pnp.layout.labels import check_heading
    for drawer in layout.drawers:
        spec = getattr(drawer, "spec", None)
        if spec is not None and getattr(spec, "rows_from", None) == "rows" and getattr(spec, "head", None):
            check_heading(spec.head, component.rows or [], deck.fields, spec.where_is("head"),
                          component.where_is("rows"))


def listing(deck: Deck, columns: list[str]) -> Card:
    """One card standing for the whole deck: the first card's fields, plus `rows`."""
    from pnp.layout.binding import text_of
    first = deck.cards[0]
    card = Card(first)
    card.label = first.label
    card["rows"] = [[text_of(c.get(name)) for name in columns] for c in deck.cards]
    return card


def blank_card() -> Card:
    card = Card()
    card.label = "sheet"
    return card
