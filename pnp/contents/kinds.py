"""Rule kinds a game declares under `contents:` in game.yaml.

Each kind is generic (a total, counts per value, a count of matching cards, a field that must
follow another, a range, distinct values); `check` names one of the few game-specific checks
in pnp.contents.named. Every rule says where in the rules document it comes from (`source`), and
every failure is one sentence that names the card(s), the rule and that source.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pnp.config.deck import matches
from pnp.config.rules import Rule
from pnp.config.typed import Where, convert_scalar
from pnp.contents.located import at
from pnp.contents.named import NAMED_CHECKS
from pnp.errors import did_you_mean, known

if TYPE_CHECKING:   # config.deck imports `matches` from here
    from pnp.config.deck import Deck


def plural(n: int, word: str = "card") -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


@dataclass(kw_only=True)
class TotalRule(Rule, kind="total"):
    """The deck has exactly this many cards."""

    equals: int

    def check(self, deck: Deck) -> list[str]:
        if deck.total != self.equals:
            return [f"the deck has {plural(deck.total)}; {self.cited()} state {self.equals}"]
        return []


@dataclass(kw_only=True)
class CountsRule(Rule, kind="counts"):
    """How many cards have each value of a field; values not listed are not allowed."""

    by: str
    expect: dict[str, int]
    where: dict[str, Any] = field(default_factory=dict)  # count only the cards that match

    def check(self, deck: Deck) -> list[str]:
        have: Counter[str] = Counter()
        for card, count in zip(deck.cards, deck.counts):
            if matches(card, self.where):
                have[str(card.get(self.by))] += count
        problems = []
        for value, wanted in self.expect.items():
            if have[str(value)] != wanted:
                problems.append(f"{value} has {plural(have[str(value)])}; {self.cited()} state {wanted}")
        listed = {str(v) for v in self.expect}
        for value in sorted(set(have) - listed):
            problems.append(f"{value} ({plural(have[value])}) is not a card {self.cited()} list"
                            + (f"; {did_you_mean(value, listed)}" if did_you_mean(value, listed) else ""))
        return problems


@dataclass(kw_only=True)
class CountRule(Rule, kind="count"):
    """How many cards match `where`: exactly, at least or at most."""

    where: dict[str, Any]
    what: str = ""    # how to name the matching cards in a message, e.g. "KICK RETURN"
    equals: int | None = None
    at_least: int | None = None
    at_most: int | None = None

    def check(self, deck: Deck) -> list[str]:
        n = sum(count for card, count in zip(deck.cards, deck.counts) if matches(card, self.where))
        what = self.what or " and ".join(f"{k} {v}" for k, v in self.where.items())
        if self.equals is not None and n != self.equals:
            return [f"{what}: the deck has {plural(n)}; {self.cited()} state exactly {self.equals}"]
        if self.at_least is not None and n < self.at_least:
            return [f"{what}: the deck has {plural(n)}; {self.cited()} need at least {self.at_least}"]
        if self.at_most is not None and n > self.at_most:
            return [f"{what}: the deck has {plural(n)}; {self.cited()} allow at most {self.at_most}"]
        return []


@dataclass(kw_only=True)
class FollowsRule(Rule, kind="follows"):
    """A field is set by another: every card whose `key` is K has `field` equal to expect[K]."""

    key: str
    field: str
    expect: dict[str, Any]
    where: dict[str, Any] = dataclasses.field(default_factory=dict)

    def check(self, deck: Deck) -> list[str]:
        problems = []
        for card in deck.cards:
            if not matches(card, self.where):
                continue
            key = card.get(self.key)
            if str(key) not in {str(k) for k in self.expect}:
                problems.append(f"{at(card)}card '{card.label}' has {self.key} '{key}', which {self.cited()} "
                                f"do not name")
                continue
            wanted = {str(k): v for k, v in self.expect.items()}[str(key)]
            if card.get(self.field) != wanted:
                problems.append(f"{at(card)}card '{card.label}' ({key}) has {self.field} '{card.get(self.field)}'; "
                                f"{self.cited()} make every {key} card {wanted}")
        return problems


@dataclass(kw_only=True)
class RangeRule(Rule, kind="range"):
    """A numeric field lies within [min, max] on every (matching) card."""

    field: str
    min: float | None = None
    max: float | None = None
    where: dict[str, Any] = dataclasses.field(default_factory=dict)

    def check(self, deck: Deck) -> list[str]:
        problems = []
        for card in deck.cards:
            if not matches(card, self.where):
                continue
            value = card.get(self.field)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                problems.append(f"{at(card)}card '{card.label}' has no {self.field}; {self.cited()} need one")
            elif (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                problems.append(f"{at(card)}card '{card.label}' has {self.field} {value:g}; {self.cited()} "
                                f"allow {span(self.min, self.max)}")
        return problems


def span(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low:g} to {high:g}"
    return f"at least {low:g}" if low is not None else f"at most {high:g}"


@dataclass(kw_only=True)
class RequiredRule(Rule, kind="required"):
    """Every (matching) card has a value for each of these fields."""

    fields: list[str]
    where: dict[str, Any] = field(default_factory=dict)

    def check(self, deck: Deck) -> list[str]:
        return [f"{at(card)}card '{card.label}' has no {name}; {self.cited()} give every card one"
                for card in deck.cards if matches(card, self.where)
                for name in self.fields if card.get(name) in (None, "", [])]


@dataclass(kw_only=True)
class EqualsRule(Rule, kind="equals"):
    """Every (matching) card's field holds exactly this value (a number, a word or a list)."""

    field: str
    value: Any
    where: dict[str, Any] = dataclasses.field(default_factory=dict)

    def check(self, deck: Deck) -> list[str]:
        wanted = self.value
        return [f"{at(card)}card '{card.label}' has {self.field} {_shown(card.get(self.field))}; {self.cited()} "
                f"give {_shown(wanted)}"
                for card in deck.cards if matches(card, self.where) and card.get(self.field) != wanted]


def _shown(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return f"'{value}'"


@dataclass(kw_only=True)
class UniqueRule(Rule, kind="unique"):
    """No two cards share a value of this field."""

    field: str
    where: dict[str, Any] = dataclasses.field(default_factory=dict)

    def check(self, deck: Deck) -> list[str]:
        seen = Counter(str(card.get(self.field)) for card in deck.cards if matches(card, self.where))
        return [f"{self.field} '{value}' appears on {n} different cards; {self.cited()} need each once"
                for value, n in sorted(seen.items()) if n > 1]


class CheckName(str):
    """The name of a check in pnp.contents.named."""

    @classmethod
    def parse(cls, value: object, where: Where) -> "CheckName":
        name = convert_scalar(str, value, where)
        if name not in NAMED_CHECKS:
            raise where.error(f"no named check '{name}'",
                              hint=did_you_mean(name, NAMED_CHECKS) or f"named checks: {known(NAMED_CHECKS)}")
        return cls(name)


@dataclass(kw_only=True)
class CheckRule(Rule, kind="check"):
    """A named, game-specific check from pnp.contents.named, with its options."""

    name: CheckName
    options: dict[str, Any] = field(default_factory=dict)

    def check(self, deck: Deck, decks: dict[str, Deck] | None = None) -> list[str]:
        return NAMED_CHECKS[self.name](deck, self.options, self.cited(), decks or {})
