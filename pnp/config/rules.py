"""The rules family: what a game's `contents:` list in game.yaml holds, chosen by `rule:`.

The base is schema; each rule kind (pnp.contents.kinds) registers itself by subclassing it,
`class TotalRule(Rule, kind="total")`, so config/ loads rules without knowing their kinds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pnp.config.typed import Tagged

if TYPE_CHECKING:
    from pathlib import Path

    from pnp.config.deck import Deck


@dataclass(kw_only=True)
class Rule(Tagged, family="rule", tag="rule", noun="a map with 'rule' and 'deck'"):
    rule: str
    deck: str
    source: str = ""   # the section of the rules document that states this

    def cited(self) -> str:
        """The rules, naming the section in quotes: a section's name may hold parentheses of
        its own ("MAKING PLAYS (page 2)")."""
        return f'the rules, "{self.source}",' if self.source else "the rules"

    def in_game(self, folder: Path) -> None:
        """Told the game's folder before it checks: a rule that reads a file of the game (a
        facts table) finds it there, wherever the deck's data comes from."""

    def check(self, deck: Deck) -> list[str]:
        raise NotImplementedError
