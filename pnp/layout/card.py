"""What a layout draws from: one card's values, and its name and place for messages.

Drawers see a card only through `Card`, so anything with these members can be drawn (a deck's
card from pnp.config.deck, a board's lone piece, a card seen from inside a repeat)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from pnp.conditions import CardValues
from pnp.errors import PnpError

if TYPE_CHECKING:
    from pnp.config.deck import FieldSpec
    from pnp.config.typed import Where

NO_OFFSET = (0.0, 0.0)

# The fields a layout is compiled against, by name: each one's declaration in the deck, a
# built-in field's description (`count`, `copy`), or None for one a kind adds (a sheet's `rows`).
CardFields: TypeAlias = "Mapping[str, FieldSpec | str | None]"


class Card(CardValues, Protocol):
    """A card's values by field name (`get`), the label messages name it by, and where it is
    written (None: a piece with no data of its own, such as a board)."""

    @property
    def label(self) -> str: ...

    @property
    def where(self) -> Where | None: ...


class RepeatScope(dict[str, Any]):
    """A card seen from inside a repeat: `i` and `item` first, then the card's own fields; and
    where the repeat has moved the origin, so checks stay in the piece's space: `edges`, the
    piece's width and height, or None where a point turns or scales what it draws (its place
    on the piece is then more than a move)."""

    def __init__(self, card: Card, extra: dict[str, Any], offset: tuple[float, float],
                 edges: tuple[float, float] | None):
        super().__init__(extra)
        self.card = card
        self.label = card.label
        self.where = card.where
        self.offset = offset
        self.edges = edges

    def get(self, key: str, default: Any = None, /) -> Any:
        if dict.__contains__(self, key):
            return dict.get(self, key)
        return self.card.get(key, default)

    def place_of(self, fields: Iterable[str]) -> Where | None:
        place_of = getattr(self.card, "place_of", None)
        return place_of(fields) if place_of is not None else self.where


def offset_of(card: Card) -> tuple[float, float]:
    """How far the repeats around this drawing have moved its origin (none outside a repeat)."""
    return card.offset if isinstance(card, RepeatScope) else NO_OFFSET


def who(card: Card) -> str:
    return f"card '{card.label}'"


def card_error(card: Card, message: str, instead: Where | None = None) -> PnpError:
    """A problem with a card, told where it is written: its line, or its sheet's row (which has
    none); at `instead` (a layout's line) for a piece written nowhere, such as a board."""
    where = card.where or instead
    if where is None:
        return PnpError(message)
    return PnpError(message, file=where.file, line=where.line, field=where.field if where.line is None else None)


def card_place(card: Card, fields: Iterable[str] = ()) -> str:
    """Where the card is written, to begin a message: `cards.yaml:12: ` or, for a spreadsheet's
    row, `cards.xlsx, sheet Cards, row 7: `; nothing for a layout's own piece (a board). A
    message about the text of `fields` in a translated edition names the translation's line
    (`lang/de.yaml:29: `), where that text is written."""
    place_of = getattr(card, "place_of", None)   # a deck's card; a board's piece has none
    where = place_of(fields) if place_of is not None else card.where
    return f"{where.place}: " if where is not None else ""
