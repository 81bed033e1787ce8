"""Card data files: the fields a deck's cards have, and the cards themselves.

    fields:                       # every field a card may have, with its type
      name: {type: text, required: true}
      value: {type: number}
    cards:
      - {name: Coach, value: 12, count: 1}

A card with `count: N` stands for N identical cards. Unknown fields are errors.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pnp.config.typed import Where, convert, load_as, where_of
from pnp.yaml_source import YamlList, YamlMap, display_path, drafting, load_yaml, read_text, type_name
from pnp.errors import ManyProblems, PnpError, did_you_mean, known

MAX_COPIES = 1000      # of one card
MAX_CARDS = 20_000     # in one deck: past this a typo (count: 1000000) is more likely than a game
BUILTIN_FIELDS = {"count": "copies of a card", "copy": "a card's place in the deck, from 1"}


def matches(card: Card, where: dict[str, Any]) -> bool:
    """Whether a card's fields have the values a `where:` filter asks (one of a list's)."""
    for key, wanted in where.items():
        value = card.get(key)
        if isinstance(wanted, list):
            if value not in wanted:
                return False
        elif value != wanted:
            return False
    return True


FIELD_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")   # what a layout's {field} may name


@dataclass
class FieldSpec:
    type: Literal["text", "number", "whole", "flag", "list", "table", "colour"] = "text"
    required: bool = False
    default: Any = None
    description: str = ""
    title: str = ""        # the label printed beside the field's value: {title:FIELD} in a layout
    separator: str = ","   # between a list field's items in a spreadsheet cell
    column: str = ""       # the spreadsheet heading it reads ("Card Name"), where that is not its name


@dataclass
class DeckFile:
    fields: dict[str, FieldSpec]
    cards: list[Any]
    label: str = "name"
    designed: str = ""   # what in this file the project designed, where the rules are silent
    description: str = ""


_NONE_YET: dict[str, Any] = {}   # the item lines and written texts of a card that has none (read-only)


class Card(dict[str, Any]):
    """One card's values; `label` names it in messages, `where` is its place in the file.
    Slots, not a dict of attributes: a 20,000-card deck held two such dicts a card."""

    __slots__ = ("label", "where", "item_lines", "written", "translated_at")
    label: str
    where: Where | None
    item_lines: dict[str, list[int | None]]   # a list or table field's line of each item (read-only while _NONE_YET)
    written: dict[str, str]   # a text field as written, where it took values from fields or facts (likewise)
    translated_at: dict[str, Where] | None   # in a translated edition: where each translated text is written

    def __init__(self, *values: Any, **named: Any) -> None:
        super().__init__(*values, **named)
        self.label, self.where, self.item_lines, self.written = "?", None, _NONE_YET, _NONE_YET
        self.translated_at = None

    def with_values(self, **values: Any) -> "Card":
        """The same card, where it is written and all, with `values` set on the copy."""
        copy = Card(self, **values)
        copy.label, copy.where, copy.item_lines, copy.written = self.label, self.where, self.item_lines, self.written
        copy.translated_at = self.translated_at
        return copy

    def place_of(self, fields: Iterable[str]) -> Where | None:
        """Where the text of `fields` is written: a translation's entry, in a translated
        edition, else the card itself."""
        for name in fields:
            if self.translated_at is not None and name in self.translated_at:
                return self.translated_at[name]
        return self.where

    def own_written(self) -> dict[str, str]:
        """The card's own `written`, made on first use (cards that fill no text share none)."""
        if self.written is _NONE_YET:
            self.written = {}
        return self.written


@dataclass
class Deck:
    path: Path
    fields: dict[str, FieldSpec]
    cards: list[Card]            # one entry per distinct card
    counts: list[int]            # copies of each
    designed: str = ""
    label: str = ""              # the field that names each card, as its cards print it

    def shown_name(self, card: Card) -> str:
        """The card's name as printed (a translated edition's, where `label` names it), for
        what lists the cards (a shop's manifest, a virtual table's card names)."""
        value = card.get(self.label) if self.label else None
        return str(value) if isinstance(value, (str, int, float)) and str(value).strip() else card.label

    def copy(self) -> "Deck":
        """The same deck with cards of its own, to be filled in without touching these."""
        cards = []
        for card in self.cards:
            copy = Card(card)
            copy.label, copy.where, copy.item_lines = card.label, card.where, card.item_lines
            copy.translated_at = card.translated_at
            if card.written is not _NONE_YET:
                copy.written = dict(card.written)
            cards.append(copy)
        return Deck(self.path, self.fields, cards, list(self.counts), self.designed, self.label)

    def expanded(self) -> list[Card]:
        """Every physical card, copies included, in data order. Each knows its `copy`: its
        place in the deck from 1, so a layout can name form fields uniquely; and its `count`,
        the copies of it, which a layout may print as any field."""
        cards: list[Card] = []
        for card, count in zip(self.cards, self.counts):
            for _ in range(count):
                cards.append(card.with_values(copy=len(cards) + 1, count=count))
        return cards

    @property
    def total(self) -> int:
        return sum(self.counts)


# Decks already read and checked, by file and the hash of its bytes: `pnp watch` and `pnp
# serve` rebuild after every save, and most saves leave a game's big data file as it was.
# Off in a one-off build, which reads each file once anyway.
_KEPT: dict[Path, tuple[str, Deck]] | None = None


def keep_loaded_decks() -> None:
    """From now on in this process, a deck file read before is not parsed or checked again
    while its bytes are the same (pnp watch, pnp serve)."""
    global _KEPT
    if _KEPT is None:
        _KEPT = {}


def load_deck(path: Path) -> Deck:
    """The deck in a YAML data file, every card checked; each call gives cards of its own
    (the build fills in their text)."""
    if _KEPT is None or drafting():
        return read_deck(path, load_yaml(path))
    shown = display_path(path)
    text = read_text(path, shown)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    key = path.resolve()
    kept = _KEPT.get(key)
    if kept is None or kept[0] != digest:
        _KEPT[key] = kept = (digest, read_deck(path, load_yaml(path, text=text)))
    return kept[1].copy()


def read_deck(path: Path, node: YamlMap) -> Deck:
    where = where_of(node)
    spec = load_as(DeckFile, node, where)
    for name, field_spec in spec.fields.items():
        if field_spec.default is not None:   # a default is a value like any other: check it so
            field_where = where.key(node["fields"], name)
            field_spec.default = field_value(field_spec, field_spec.default,
                                             field_where.key(node["fields"][name], "default"))
    for name, field_spec in spec.fields.items():
        if field_spec.column:
            field_where = where.key(node["fields"], name)
            raise field_where.key(node["fields"][name], "column").error(
                "column: names a spreadsheet's heading, and this deck is written in YAML",
                hint="remove it: a YAML card names its fields by the fields' own names")
    for builtin in BUILTIN_FIELDS:
        if builtin in spec.fields:
            raise where.key(node["fields"], builtin).error(
                f"'{builtin}' is built in ({BUILTIN_FIELDS[builtin]}); name the field something else")
    if spec.label not in spec.fields:
        raise where.key(node, "label").error(f"label field '{spec.label}' is not among the fields",
                                             hint=did_you_mean(spec.label, spec.fields))
    cards_node = node["cards"]
    cards, counts, problems = [], [], []
    cards_where = where.key(node, "cards")
    for i, item in enumerate(cards_node):
        try:
            card, count = read_card(item, spec, cards_where.item(cards_node, i))
        except PnpError as exc:   # go on: every bad card in the file is told at once
            problems.append(exc)
            continue
        if count == 0:
            continue   # switched off while balancing: checked, never printed, counted as 0
        cards.append(card)
        counts.append(count)
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise ManyProblems([str(p) for p in problems], f"{len(problems)} problems in {path.name}")
    total = sum(counts)
    if total == 0:
        raise where.key(node, "cards").error("the deck has no cards")
    if total > MAX_CARDS:
        raise where.key(node, "cards").error(f"{total} cards is more than pnp builds in one deck "
                                             f"({MAX_CARDS}); check the counts")
    return Deck(path, spec.fields, cards, counts, spec.designed, spec.label)


def read_card(node: object, spec: DeckFile, where: Where) -> tuple[Card, int]:
    if not isinstance(node, YamlMap):
        raise where.error(f"expected a card (a map of field: value), found {type_name(node)}")
    card = Card()
    card.where = where
    for key in node:
        if key != "count" and key not in spec.fields:
            close = did_you_mean(key, [*spec.fields, "count"])
            fields = f"the deck's fields: {known(spec.fields)}"
            raise where.key(node, key).error(f"unknown field '{key}'", hint=f"{close} {fields}" if close else fields)
    for name, field_spec in spec.fields.items():
        value = node.get(name)
        if value is not None:
            kind = type(value)
            if (kind is str and field_spec.type == "text") or (kind is int and field_spec.type in ("whole", "number")) \
                    or (kind is str and field_spec.type == "colour" and is_colour(value)):
                card[name] = value   # as written: what field_value would give, without its checks' cost
            else:
                card[name] = field_value(field_spec, value, where.key(node, name))
            if field_spec.required and is_empty(card[name]):
                raise where.key(node, name).error(f"required field '{name}' is empty")
        elif field_spec.required:
            raise where.error(f"missing required field '{name}'")
        else:
            card[name] = field_spec.default
    lines = {name: [node[name].item_line(i) for i in range(len(node[name]))]
             for name in node if isinstance(node[name], YamlList)}
    if lines:
        card.item_lines = lines
    count = 1
    if "count" in node:
        count = check_count(convert(int, node["count"], where.key(node, "count")),
                            where.key(node, "count"))
    card.label = str(card.get(spec.label) or f"#{where.field}")
    return card, count


@lru_cache(maxsize=1024)
def is_colour(text: str) -> bool:
    """A deck names a few colours on card after card: each checked once."""
    from pnp.units import colour_problem
    return colour_problem(text) is None


def is_empty(value: object) -> bool:
    """Blank text or an empty list: as good as missing for a required field."""
    return value == [] or (isinstance(value, str) and not value.strip())


def check_count(count: int, where: Where) -> int:
    if not 0 <= count <= MAX_COPIES:
        raise where.error(f"count {count} is out of range: 0 (switched off) to {MAX_COPIES}")
    return count


def field_value(spec: FieldSpec, value: object, where: Where) -> Any:
    kind = spec.type
    if kind == "text":
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise where.error(f"expected text, found {type_name(value)}")
        return str(value) if not isinstance(value, str) else value
    if kind == "number":
        return convert(float, value, where) if not isinstance(value, int) or isinstance(value, bool) \
            else value
    if kind == "whole":
        return convert(int, value, where)
    if kind == "flag":
        return convert(bool, value, where)
    if kind == "list":
        return convert(list[str | int | float], value, where)
    if kind == "table":
        return convert(list[list[str | int | float]], value, where)
    if kind == "colour":
        from pnp.units import colour_problem
        text = convert(str, value, where)
        problem = colour_problem(text)
        if problem is not None:
            raise where.error(problem)
        return text
    raise AssertionError(kind)


def check_where(where_filter: dict[str, Any], deck: Deck, where: Where) -> None:
    """A `where:` key must be one of the deck's fields: a misspelt one would match no card
    (an empty PDF) or every card (a rule that checks nothing)."""
    for key in where_filter:
        if key not in deck.fields:
            raise where.error(f"'{key}' is not a field of {deck.path.name}",
                              hint=did_you_mean(key, deck.fields) or f"its fields: {known(deck.fields)}")


def select(deck: Deck, where: dict[str, Any]) -> Deck:
    if not where:
        return deck
    pairs = [(c, n) for c, n in zip(deck.cards, deck.counts) if matches(c, where)]
    return Deck(deck.path, deck.fields, [c for c, _ in pairs], [n for _, n in pairs], deck.designed, deck.label)
