"""Run a game's `contents` rules over its loaded decks."""

from __future__ import annotations

from pnp.contents.kinds import CheckRule


def validate(game, decks: dict) -> list[str]:
    """Every discrepancy between the decks and the rules, one sentence each."""
    problems = []
    for rule in game.contents:
        deck = decks[rule.deck]
        found = rule.check(deck, decks) if isinstance(rule, CheckRule) else rule.check(deck)
        problems.extend(f'{game.id}: deck "{rule.deck}": {sentence}' for sentence in found)
    return problems
