"""Exact odds of a hand drawn from a deck, from its counts alone (nothing is sampled).

    at least k matching cards in a hand of n: the hypergeometric distribution
    the sum of a numeric field over a hand: counted by convolution over the deck's kinds of
    card (a kind: the cards with one value), each kind taking 0..min(copies, n) cards

Both are fractions of whole numbers of hands, so the figures are exact; `pnp odds` prints
them, and `pnp serve`'s table view asks for the same numbers (GET /api/odds)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from pnp.config.deck import Card, Deck
from pnp.errors import PnpError, did_you_mean, known
from pnp.playtest.record import card_keys

MAX_HAND = 60
CONDITION = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(>=|<=|!=|=|>|<)\s*(.*?)\s*$")


@dataclass(frozen=True)
class Where:
    """`field=value` (text compared without regard to case; a list field holds the value),
    `field!=value`, or a number compared with >=, <=, >, <."""

    field: str
    op: str
    value: str

    def holds(self, card: Card) -> bool:
        value = card.get(self.field)
        if self.op in ("=", "!="):
            found = same(value, self.value)
            return found if self.op == "=" else not found
        number = as_number(value)
        wanted = as_number(self.value)
        if number is None or wanted is None:
            return False   # a card without the number is not "at least 8"
        return {">=": number >= wanted, "<=": number <= wanted, ">": number > wanted, "<": number < wanted}[self.op]

    def __str__(self) -> str:
        return f"{self.field}{self.op}{self.value}"


def same(value: Any, wanted: str) -> bool:
    if isinstance(value, list):
        return any(same(item, wanted) for item in value)
    if value is None:
        return wanted == ""
    if isinstance(value, bool):
        return wanted.lower() in (("true", "yes", "1") if value else ("false", "no", "0"))
    number, target = as_number(value), as_number(wanted)
    if number is not None and target is not None:
        return number == target
    return str(value).strip().casefold() == wanted.strip().casefold()


def as_number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        return None


def parse_where(text: str, deck: Deck, option: str = "--where ") -> Where:
    """A condition as written on the command line (`option` names it there: the table view's
    page has no options, and passes "")."""
    match = CONDITION.match(text)
    if not match:
        raise PnpError(f"{option}'{text}': write field=value, field!=value or a number comparison "
                       f"such as yards>=8")
    name, op, value = match.groups()
    if name not in deck.fields:
        raise PnpError(f"{option}'{text}': '{name}' is not a field of {deck.path.name}",
                       hint=did_you_mean(name, deck.fields) or f"its fields: {known(deck.fields)}")
    if op not in ("=", "!=") and as_number(value) is None:
        raise PnpError(f"{option}'{text}': {op} compares numbers; '{value}' is not one")
    return Where(name, op, value)


def with_counts(deck: Deck, changes: dict[str, int], option: str = "--count ") -> Deck:
    """The deck with some cards' counts tried at other values (by card key: its label, `RUN (2)`
    for the second card of that label); nothing is written."""
    keys = card_keys([card.label for card in deck.cards])
    for key, count in changes.items():
        if key not in keys:
            raise PnpError(f"{option}'{key}={count}': no card '{key}' in {deck.path.name}",
                           hint=did_you_mean(key, keys) or f"its cards: {known(dict.fromkeys(keys))}")
        if not 0 <= count <= 1000:
            raise PnpError(f"{option}'{key}={count}': a count is 0 to 1000")
    counts = [changes.get(key, count) for key, count in zip(keys, deck.counts)]
    return Deck(deck.path, deck.fields, deck.cards, counts, deck.designed, deck.label)


def parse_count(text: str, option: str = "--count ") -> tuple[str, int]:
    name, sep, count = text.rpartition("=")
    if not sep or not name.strip() or not count.strip().isdigit():
        raise PnpError(f"{option}'{text}': write a card and its count, CARD=N, e.g. {option}\"PASS=3\"")
    return name.strip(), int(count)


@dataclass
class Odds:
    total: int                       # cards in the deck
    hand: int
    matching: int                    # cards that meet every condition
    exactly: list[Fraction]          # P(exactly k matching), k = 0..hand
    sums: list[tuple[Fraction, Fraction]] | None = None   # (sum, P(sum)), sums in order
    field: str | None = None
    missing: int = 0                 # cards without a number in the summed field (counted as 0)

    def at_least(self, k: int) -> Fraction:
        return sum(self.exactly[k:], Fraction(0))

    @property
    def mean_sum(self) -> Fraction | None:
        return sum((s * p for s, p in self.sums), Fraction(0)) if self.sums is not None else None

    def as_json(self) -> dict[str, Any]:
        exact = [float(p) for p in self.exactly]
        return dict(total=self.total, hand=self.hand, matching=self.matching, exactly=exact,
                    at_least=[float(self.at_least(k)) for k in range(len(exact))],
                    field=self.field, missing=self.missing,
                    sums=[[float(s), float(p)] for s, p in self.sums] if self.sums is not None else None,
                    mean=float(self.mean_sum) if self.sums is not None and self.mean_sum is not None else None)


def hand_odds(deck: Deck, hand: int, where: list[Where], sum_field: str | None = None, option: str = "--sum ") -> Odds:
    total = sum(deck.counts)
    if not 1 <= hand <= min(total, MAX_HAND):
        raise PnpError(f"a hand of {hand} from a deck of {total}: choose 1 to {min(total, MAX_HAND)} cards")
    matching = sum(count for card, count in zip(deck.cards, deck.counts) if all(w.holds(card) for w in where))
    hands = comb(total, hand)
    exactly = [Fraction(comb(matching, k) * comb(total - matching, hand - k), hands) for k in range(hand + 1)]
    odds = Odds(total, hand, matching, exactly)
    if sum_field is not None:
        if sum_field not in deck.fields:
            raise PnpError(f"{option}'{sum_field}' is not a field of {deck.path.name}",
                           hint=did_you_mean(sum_field, deck.fields) or f"its fields: {known(deck.fields)}")
        kinds: dict[Fraction, int] = {}
        for card, count in zip(deck.cards, deck.counts):
            value = as_number(card.get(sum_field))
            if value is None:
                odds.missing += count
            kinds[value or Fraction(0)] = kinds.get(value or Fraction(0), 0) + count
        odds.sums = [(s, Fraction(ways, hands)) for s, ways in sorted(sum_ways(kinds, hand).items())]
        odds.field = sum_field
    return odds


def sum_ways(kinds: dict[Fraction, int], hand: int) -> dict[Fraction, int]:
    """How many hands of `hand` cards give each sum, the deck holding `kinds[value]` cards of
    each value: the coefficient of x^hand in the product over kinds of sum_j C(m, j) x^j y^(j*value)."""
    ways: dict[tuple[int, Fraction], int] = {(0, Fraction(0)): 1}   # (cards taken, sum) -> hands
    for value, copies in sorted(kinds.items()):
        grown: dict[tuple[int, Fraction], int] = {}
        for (taken, total), count in ways.items():
            for j in range(min(copies, hand - taken) + 1):
                key = (taken + j, total + j * value)
                grown[key] = grown.get(key, 0) + count * comb(copies, j)
        ways = grown
    return {total: count for (taken, total), count in ways.items() if taken == hand}


def percent(p: Fraction) -> str:
    value = float(p) * 100
    if p and value < 0.01:
        return "<0.01 %"
    return f"{value:.2f} %"


def number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def odds_lines(deck_id: str, odds: Odds, where: list[Where], at_least: int | None,
               tried: dict[str, int]) -> list[str]:
    """The tables as the terminal shows them."""
    lines = [f"{deck_id}: {odds.total} cards, hands of {odds.hand}"
             + (f" (counts tried: {', '.join(f'{k}={n}' for k, n in tried.items())})" if tried else "")]
    if where:
        condition = " and ".join(str(w) for w in where)
        lines.append(f"{odds.matching} of the {odds.total} cards have {condition}")
        if at_least is not None:
            lines.append(f"P(at least {at_least} with {condition} in {odds.hand} cards) = "
                         f"{percent(odds.at_least(at_least))}")
        lines.append(f"{'cards':>6}  {'exactly':>10}  {'at least':>10}")
        for k in range(min(odds.hand, odds.matching) + 1):
            lines.append(f"{k:>6}  {percent(odds.exactly[k]):>10}  {percent(odds.at_least(k)):>10}")
    if odds.sums is not None:
        lines.append(f"sum of {odds.field} over {odds.hand} cards (mean {float(odds.mean_sum or 0):.2f})"
                     + (f"; {odds.missing} cards have no {odds.field} and count 0" if odds.missing else ""))
        lines.append(f"{'sum':>6}  {'exactly':>10}  {'at least':>10}")
        rest = Fraction(1)
        for value, p in odds.sums:
            lines.append(f"{number(value):>6}  {percent(p):>10}  {percent(rest):>10}")
            rest -= p
    return lines
