"""A deck whose cards do not all look alike: the front (or back) layout chosen per card.

    front: {by: type, layouts: {captain: crew/captain, mate: crew/mate}, default: crew/card}

Every layout named is compiled once, at the deck's size; each card is drawn with the layout
its field's value names, or the default. Everything else (sheets, backs, shop files, the
preview) sees one layout of one size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pnp.errors import known
from pnp.layout.card import card_error, who

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from pnp.config.typed import Where
    from pnp.layout.card import Card
    from pnp.layout.template import CompiledLayout


class ChosenLayout:
    """Several compiled layouts of one size, drawn one per card by a field's value."""

    def __init__(self, by: str, layouts: dict[str, CompiledLayout], default: CompiledLayout | None, where: Where):
        self.by, self.layouts, self.default, self.where = by, layouts, default, where
        self.every = every = list(layouts.values()) + ([default] if default is not None else [])
        first = every[0]
        for layout in every[1:]:
            if (round(layout.width, 2), round(layout.height, 2)) != (round(first.width, 2), round(first.height, 2)):
                raise where.error(f"layout '{layout.name}' is not the size of '{first.name}': the layouts "
                                  f"a deck chooses between must be the same size")
        self.width, self.height, self.bleed = first.width, first.height, first.bleed
        self.size_name = first.size_name
        self.name = first.name
        self.fields = frozenset({by}).union(*(layout.fields for layout in every))
        self.drawn_fields = frozenset({by}).union(*(layout.drawn_fields for layout in every))

    def pick(self, card: Card) -> CompiledLayout:
        value = card.get(self.by)
        layout = self.layouts.get(str(value), self.default)
        if layout is None:
            raise card_error(card, f"{who(card)}: its {self.by} is '{value}', which names no layout (the "
                                   f"deck has layouts for {known(self.layouts)} and no default)")
        return layout

    def look_of(self, card: Card) -> tuple[object, ...]:
        """The chosen layout's look of the card, and which layout it is."""
        return (card.get(self.by), *self.pick(card).look_of(card))

    def plan(self, cards: Sequence[Card]) -> ChosenLayout:
        for layout in dict.fromkeys(self.every):
            layout.plan([card for card in cards if self.pick(card) is layout])
        return self

    def draw(self, canvas: Canvas, card: Card) -> None:
        self.pick(card).draw(canvas, card)
