"""Run a game's `contents` rules over its loaded decks."""

from __future__ import annotations

import re

from pnp.contents.kinds import CheckRule

LOCATED = re.compile(r"^[^\s:]+:\d+: ")


def validate(game, decks: dict) -> list[str]:
    """Every discrepancy between the decks and the rules, one sentence each, each beginning
    with a file and line: the card's own when the problem is one card's, else the rule's."""
    problems = []
    for rule in game.contents:
        deck = decks[rule.deck]
        found = rule.check(deck, decks) if isinstance(rule, CheckRule) else rule.check(deck)
        where = rule._where
        for sentence in found:
            if LOCATED.match(sentence):
                problems.append(sentence)
            else:
                problems.append(f'{where.file}:{where.line}: {where.field}: deck "{rule.deck}": {sentence}')
    return problems
