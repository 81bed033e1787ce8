"""The distinct cards of a deck, and its distinct backs: what shop files, Tabletop Simulator
sheets, proofs and the preview draw once each; and `pictures_of`, the one way they become PNGs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pnp.config.deck import Card
from pnp.outputs.pieces import pieces_pdf
from pnp.outputs.raster import rasterise, rounded

if TYPE_CHECKING:
    from pnp.config.deck import Deck
    from pnp.layout.card import Card as DrawnCard
    from pnp.layout.template import PieceLayout


def first_copies(deck: Deck) -> list[Card]:
    """One card for each distinct card, numbered as its first copy in the deck."""
    cards: list[Card] = []
    seen = 0
    expanded = deck.expanded()
    for count in deck.counts:
        cards.append(expanded[seen])
        seen += count
    return cards


def back_key(back: PieceLayout | None, card: Card) -> str:
    """Backs differ only by how their layout draws each card (and without a back, not at all)."""
    if back is None:
        return ""
    return repr(back.look_of(card))


def distinct_backs(back: PieceLayout, cards: list[Card]) -> list[Card]:
    """One card for each different back."""
    found: dict[str, Card] = {}
    for card in cards:
        found.setdefault(back_key(back, card), card)
    return list(found.values())


def pictures_of(pages: Sequence[tuple[PieceLayout, DrawnCard]], dpi: float, title: str, bleed: float = 0.0,
                radius: float = 0.0, before: Callable[[int], None] | None = None) -> list[bytes]:
    """Each (layout, card) as a PNG: drawn once into a pieces PDF (one piece a page, trim plus
    `bleed`) and rasterised, so a picture is the same drawing as the home sheets. With `radius`
    the corners are cut round as the shop cuts them, the bleed rounding with the trim; `before(i)`
    is called as page i is drawn (the preview files warnings by card). Shop files, Tabletop
    Simulator and Playground sheets, proofs, showcases and the preview all come through here."""
    images = rasterise(pieces_pdf(pages, bleed, title, "pieces.pdf", before).data, dpi)
    if radius:
        images = [rounded(image, (radius + bleed) * dpi / 72) for image in images]
    return images
