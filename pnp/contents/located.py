"""Where a card is written, to begin a message about it (shared by rule kinds and named checks)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:   # config.deck imports the rule kinds, which import this
    from pnp.config.deck import Card


def at(card: Card) -> str:
    """Where a card is written, as `file:line: field: `, to begin a message about it."""
    where = card.where
    if where is None:
        return ""
    if where.line is None:
        return f"{where.place}: "
    return f"{where.place}: {where.field}: " if where.field else f"{where.place}: "
