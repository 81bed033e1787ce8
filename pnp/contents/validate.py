"""Run a game's `contents` rules over its loaded decks."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pnp.config.deck import Deck, check_where
from pnp.config.rules import Rule
from pnp.contents.kinds import CheckRule
from pnp.errors import did_you_mean, known

if TYPE_CHECKING:
    from pnp.config.game import Game

LOCATED = re.compile(r"^[^\s:]+:\d+: ")


def check_rule_fields(rule: Rule, deck: Deck) -> None:
    """The fields a rule names must be the deck's own, or the rule would check nothing."""
    check_where(getattr(rule, "where", None) or {}, deck, rule.where_is("where"))
    for key in ("by", "field", "key", "fields"):
        named = getattr(rule, key, None)
        for name in named if isinstance(named, list) else [named]:   # `fields`: a list of them
            if isinstance(name, str) and name not in deck.fields and name != "count":
                raise rule.where_is(key).error(
                    f"'{name}' is not a field of {deck.path.name}",
                    hint=did_you_mean(name, deck.fields) or f"its fields: {known(deck.fields)}")


def facts_in_options(rule: Rule, game: Game) -> None:
    """A named check's option may take its number from the facts: `max_distance:
    "{fact:field-goal.within}"`, so the rule and the printed words share one source."""
    options = getattr(rule, "options", None)
    if not isinstance(options, dict):
        return
    from pnp.contents.stated import facts_of
    facts = facts_of(game)
    for key, value in options.items():
        if isinstance(value, str) and value.startswith("{fact:") and value.endswith("}"):
            name = value[len("{fact:"):-1]
            facts.value(name, rule.where_is("options"))   # unknown: an error naming the rule
            options[key] = facts.get(name).value   # type: ignore[union-attr]


def validate(game: Game, decks: dict[str, Deck]) -> list[str]:
    """Every discrepancy between the decks and the rules, one sentence each, each beginning
    with a file and line: the card's own when the problem is one card's, else the rule's."""
    problems = []
    for rule in game.contents:
        deck = decks[rule.deck]
        check_rule_fields(rule, deck)
        facts_in_options(rule, game)
        rule.in_game(game.folder)
        found = rule.check(deck, decks) if isinstance(rule, CheckRule) else rule.check(deck)
        where = rule.origin
        for sentence in found:
            if LOCATED.match(sentence):
                problems.append(sentence)
            else:
                problems.append(f'{where.file}:{where.line}: {where.field}: deck "{rule.deck}": {sentence}')
    return problems
