"""Where a card is written, to begin a message about it (shared by rule kinds and named checks)."""

from __future__ import annotations


def at(card) -> str:
    """Where a card is written, as `file:line: field: `, to begin a message about it."""
    where = getattr(card, "where", None)
    if where is None:
        return ""
    if where.line is None:
        return f"{where.place}: "
    return f"{where.place}: {where.field}: " if where.field else f"{where.place}: "
