"""Named facts: each number or name a game's documents state, once, in its facts.yaml, for
rule sheets, layouts, descriptions and translations to print by reference.

    # card_data/big-ten/facts.yaml
    scoring:
      touchdown:
        value: 6
        section: "Scoring Points"
        words: [touchdown]            # what a sentence stating it talks about (regexes)
        unit: ["points?", "pts?"]     # what follows the number, if anything must
        words_de: [Touchdown]         # the same in a translation's language

    # card_data/big-ten/rules.md
    - **Touchdown, {fact:scoring.touchdown} points**: ...

A map with a `value` is a fact; any other map (not a `rule: facts` table) is a group, and
the fact's name is the dotted path to it. A table entry's field is a fact too:
`{fact:card-types.pancake-block.bonus}` (table, the entry's key, the field). A value written
as a range ("1-5") or a list ([3, 6]) is taken apart by position: `{fact:extra-point.good.1}`.
`{title:FIELD}` in a layout prints the title a deck's field declaration gives it.

A reference to a fact that does not exist is an error at its file and line, with the nearest
name. pnp.contents.prose reads the words printed by hand and compares them with the facts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.config.typed import Loaded, Where, convert, load_as, where_of
from pnp.inputs import recently_changed
from pnp.errors import did_you_mean
from pnp.layout.binding import text_of
from pnp.yaml_source import YamlList, YamlMap, display_path, load_yaml, type_name

if TYPE_CHECKING:
    from pnp.config.deck import Card, FieldSpec
    from pnp.config.game import Game

REFERENCE = re.compile(r"\{fact:([^{}]*)\}")
# in a layout's text `{{` and `}}` are braces that print: `{{fact:x}}` prints as written
REFERENCE_OR_BRACES = re.compile(r"\{\{|\}\}|\{fact:([^{}]*)\}")
META = ("value", "section", "reading", "words", "unit", "card", "deck", "near")


@dataclass
class Fact:
    """One stated number or name, where it is written and how a sentence states it."""

    name: str
    value: Any
    section: str
    reading: str
    file: str
    line: int | None
    words: dict[str, list[str]] = field(default_factory=dict)   # language ("" = the game's) -> regexes
    unit: dict[str, list[str]] = field(default_factory=dict)
    card: dict[str, Any] | None = None     # a promise: some card of `deck` has these values
    deck: str | None = None
    near: int = 12               # how many words from `words` a number may stand

    @property
    def cited(self) -> str:
        """How a message names its source: the section, and 'our reading' where it is that."""
        return f'"{self.section}"' + (f" ({self.reading})" if self.reading else "")

    @property
    def shown(self) -> str:
        return shown(self.value)


def shown(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(text_of(v) for v in value)
    return text_of(value)


class Facts:
    """A game's named facts (possibly none), by dotted name."""

    def __init__(self, facts: dict[str, Fact], file: str | None):
        self.by_name = facts
        self.file = file

    def __bool__(self) -> bool:
        return bool(self.by_name)

    def get(self, name: str) -> Fact | None:
        """The fact called `name`, or a position in a range or list fact (`good.1`)."""
        name = name.strip()
        if name in self.by_name:
            return self.by_name[name]
        parent, _, index = name.rpartition(".")
        whole = self.by_name.get(parent)
        if whole is not None and index.isdigit():
            parts = parts_of(whole.value)
            if 1 <= int(index) <= len(parts):
                return Fact(name, parts[int(index) - 1], whole.section, whole.reading, whole.file, whole.line)
        return None

    def value(self, name: str, where: Where) -> str:
        fact = self.get(name)
        if fact is None:
            hint = did_you_mean(name.strip(), self.by_name)
            if not self.by_name:
                hint = "the game has no named facts: add them to its facts.yaml"
            raise where.error(f"'{{fact:{name}}}' names no fact of this game"
                              + (f" ({self.file})" if self.file else ""), hint=hint)
        return fact.shown

    def resolve(self, text: str, where: Where, braces: bool = False) -> str:
        """`text` with every `{fact:NAME}` replaced by the fact's value; with `braces` (a
        layout's text), not one written with doubled braces, which print."""
        if "{fact:" not in text:
            return text
        if braces:
            return REFERENCE_OR_BRACES.sub(
                lambda match: match.group(0) if match.group(1) is None else self.value(match.group(1), where), text)
        return REFERENCE.sub(lambda match: self.value(match.group(1), where), text)

    def resolve_lines(self, text: str, file: str, first_line: int) -> str:
        """The same for a whole file's text (a rule sheet): an unknown fact is told at the
        line it is written on, counting `first_line` for the text's first line."""
        if "{fact:" not in text:
            return text

        def value(match: re.Match[str]) -> str:
            line = first_line + text.count("\n", 0, match.start())
            return self.value(match.group(1), Where(file, line, ""))
        return REFERENCE.sub(value, text)


def parts_of(value: object) -> list[Any]:
    """A range's ends or a list's items, each a value of its own."""
    if isinstance(value, list):
        return list(value)
    match = RANGE_VALUE.match(str(value))
    if match:
        return [int(match.group(1)), int(match.group(2))]
    return [value]


RANGE_VALUE = re.compile(r"^\s*(\d+)\s*[-–]\s*(\d+)\s*$")


# Each game folder's facts as last read, with what a save would change (the file's size and
# times, and the folder messages name it from): a game, its translated copies and every
# rebuild of watch and serve read facts.yaml again only when it changed (or was saved in the
# last two seconds, pnp.inputs.recently_changed).
_FACTS: dict[Path, tuple[tuple[object, ...], Facts]] = {}


def facts_of(game: Game) -> Facts:
    """The game's named facts."""
    from pnp.paths import safe_path
    path = game.folder / "facts.yaml"
    if path.exists() or path.is_symlink():   # a link that leads out of the game is refused
        path = safe_path(game.folder, "facts.yaml", Where(str(path), None, ""), "facts")
    try:
        stat = path.stat()
        seen: tuple[object, ...] = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, str(Path.cwd()))
    except OSError:
        seen = ("none", str(Path.cwd()))
    known = _FACTS.get(path)
    if known is not None and known[0] == seen:
        return known[1]
    facts = load_facts(path)
    if not recently_changed(path):   # a save within the clock's tick would keep the times
        _FACTS[path] = (seen, facts)
    return facts


@dataclass
class FactSpec(Loaded):
    """A fact as facts.yaml writes it: a map with a `value`. `words` and `unit` say how a
    sentence states it; `words_de`, `unit_de` ... say the same in a translation's language."""

    value: str | int | float | bool | list[str | int | float]
    section: str = ""
    reading: str = ""
    words: str | list[str] = field(default_factory=list)
    unit: str | list[str] = field(default_factory=list)
    card: dict[str, Any] | None = None   # a promise: some card of `deck` has these values
    deck: str | None = None
    near: int = field(default=12, metadata={"min": 1})   # how many words from `words` a number may stand


@dataclass
class FactTableSpec(Loaded):
    """A table of facts: one entry per thing the documents name, found by its `key` field(s);
    each of an entry's other fields is a fact (`{fact:TABLE.KEY.FIELD}`), and the `facts` rule
    checks a deck against the entries."""

    key: str | list[str]
    entries: list[dict[str, Any]]
    source: str = ""


# a fact's words and unit in a translation's language: words_de, unit_pt-BR
IN_A_LANGUAGE = re.compile(r"(words|unit)_[A-Za-z]{2,3}(-[A-Za-z0-9]+)?")
FACT_KEYS = ("value", "section", "reading", "words", "unit", "card", "deck", "near")


def load_facts(path: Path) -> Facts:
    """A game's facts.yaml: facts, groups of facts (any map with no `value`) and tables (a map
    with `key` and `entries`), every one checked as it loads, like the rest of the game."""
    if not path.is_file():
        return Facts({}, None)
    node = load_yaml(path)
    file = display_path(path)
    if node is None:
        return Facts({}, file)
    where = where_of(node)
    if not isinstance(node, YamlMap):
        raise where.error(f"facts.yaml is a map of facts, groups and tables, not {type_name(node)}")
    found: dict[str, Fact] = {}
    for key, value in node.items():
        if not isinstance(value, YamlMap):
            raise where.key(node, key).error(
                f"'{key}' is {type_name(value)}: at the top of facts.yaml each name is a fact "
                "(a map with a value), a group of facts or a table (key and entries)")
        if "entries" in value or "key" in value:
            _table_facts(str(key), value, Where(file, node.key_line(key), str(key)), found)
        else:
            _member(str(key), value, Where(file, node.key_line(key), str(key)), found)
    return Facts(found, file)


def _member(name: str, node: object, where: Where, found: dict[str, Fact]) -> None:
    """A fact (a map with a value, or a bare value: `halves: 2`) or a group of them."""
    if not isinstance(node, YamlMap):
        if isinstance(node, (list, dict)):
            raise where.error(f"a group holds facts and groups, not {type_name(node)}",
                              hint="a fact is a map with a value: {value: [3, 6], section: ...}")
        found[name] = Fact(name, node, "", "", where.file, where.line)
        return
    if "value" in node or any(key in node for key in FACT_KEYS):
        found[name] = _fact(name, node, where)
        return
    for key, value in node.items():
        _member(f"{name}.{key}", value, Where(where.file, node.key_line(key), f"{name}.{key}"), found)


_SPECIAL = frozenset(".^$*+?{}[]\\|()")   # what makes a phrase more than plain words


def _fact(name: str, node: YamlMap, where: Where) -> Fact:
    in_languages = {key: value for key, value in node.items() if IN_A_LANGUAGE.fullmatch(str(key))}
    own = YamlMap({key: value for key, value in node.items() if key not in in_languages})
    own.file, own.line, own._key_lines = node.file, node.line, node._key_lines
    spec = load_as(FactSpec, own, where)
    said: dict[str, dict[str, list[str]]] = {"words": {"": phrases(spec.words)}, "unit": {"": phrases(spec.unit)}}
    for key, value in in_languages.items():
        what, _, language = str(key).partition("_")
        said[what][language] = phrases(convert(str | list[str], value, where.key(node, key)))
    for by_language in said.values():
        for patterns in by_language.values():
            for phrase in patterns:
                if not _SPECIAL.intersection(phrase):
                    continue   # plain words: a pattern that cannot be wrong, not compiled here
                try:
                    re.compile(phrase)
                except re.error as exc:
                    raise where.error(f"'{phrase}' is not a pattern pnp can read: {exc}") from None
    words = {language: each for language, each in said["words"].items() if language or "words" in node}
    unit = {language: each for language, each in said["unit"].items() if language or "unit" in node}
    return Fact(name, spec.value, spec.section, spec.reading, where.file, where.line, words, unit,
                spec.card, spec.deck, spec.near)


def phrases(said: str | list[str]) -> list[str]:
    return said if isinstance(said, list) else [said]


def _table_facts(table: str, node: YamlMap, where: Where, found: dict[str, Fact]) -> None:
    spec = load_as(FactTableSpec, node, where)
    keys = spec.key if isinstance(spec.key, list) else [spec.key]
    entries = node["entries"]
    for index, entry in enumerate(spec.entries):
        line = entries.item_line(index) if isinstance(entries, YamlList) else where.line
        missing = [k for k in keys if k not in entry]
        if missing:
            raise Where(where.file, line, f"{table}.entries[{index + 1}]").error(
                f"an entry has no '{missing[0]}', the table's key")
        key = "/".join(str(entry.get(k)) for k in keys)
        for field_name, value in entry.items():
            if field_name in keys or field_name in ("section", "reading"):
                continue
            found[f"{table}.{key}.{field_name}"] = Fact(
                f"{table}.{key}.{field_name}", value, str(entry.get("section", spec.source)),
                str(entry.get("reading", "")), where.file, line)


OWN_FIELD = re.compile(r"\{([A-Za-z][A-Za-z0-9_-]*)\}")


def fill_card_text(card: Card, fields: Mapping[str, FieldSpec], facts: Facts) -> None:
    """A card's text that repeats a value of the same card takes it from the field
    (`gains {bonus} yards`), and a documented number from the facts (`{fact:NAME}`): filled
    in once, when the deck is read. What was written is kept in `card.written` for the
    checks that read it."""
    for name, value in list(card.items()):
        if not isinstance(value, str) or "{" not in value:
            continue
        where = card.where
        at = Where(where.file, where.line, f"{where.field}.{name}" if where.field else name) \
            if where is not None else Where("", None, name)
        filled = facts.resolve(value, at) if "{fact:" in value else value

        def own(match: re.Match[str]) -> str:
            other = match.group(1)
            if other == name or other not in fields:
                return match.group(0)   # not a field of this deck: the braces are the designer's
            return text_of(card.get(other))
        filled = OWN_FIELD.sub(own, filled)
        if filled != value:
            card.own_written()[name] = value
            card[name] = filled
