"""The distinct cards of a deck, and its distinct backs: what shop files, Tabletop Simulator
sheets, proofs and the preview draw once each."""

from __future__ import annotations

from pnp.config.deck import Card


def first_copies(deck) -> list[Card]:
    """One card for each distinct card, numbered as its first copy in the deck."""
    cards, seen = [], 0
    expanded = deck.expanded()
    for count in deck.counts:
        cards.append(expanded[seen])
        seen += count
    return cards


def back_key(back, card: Card) -> tuple:
    """Backs differ only by the fields their layout uses."""
    return tuple(str(card.get(name)) for name in sorted(back.fields))


def distinct_backs(back, cards: list[Card]) -> list[Card]:
    """One card for each different back."""
    found: dict[tuple, Card] = {}
    for card in cards:
        found.setdefault(back_key(back, card), card)
    return list(found.values())
