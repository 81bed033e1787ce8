"""One language of a game: `card_data/<game>/lang/<code>.yaml`, loaded and checked against the
game, so every mistake in it is one sentence naming the file, line and field.

    language: Deutsch                  # the language's own name
    labels:                            # fixed words: layout text, titles, table headings
      THE: DER
    cards:                             # by data file, then card (its label), then field
      cards.yaml:
        Coach:
          name: {source: Coach, text: Trainer}
        Dive:                          # cards that share a name but print different texts:
          run:                         # one entry for each, told apart by its source
            - {source: Loss of 2, text: 2 Yards Verlust}
            - {source: No gain, text: Kein Raumgewinn}
    rules:                             # by rule sheet file
      rules.md:
        translates: 3f2a1b0c9d8e       # the rule sheet it translates (pnp validate prints it)
        text: |
          ...

Each card string keeps the source text it translates, so `pnp validate` can tell a
translation whose source changed since; a rule sheet keeps a short hash of its source instead.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass, field
from typing import Protocol, TypedDict

from pnp.paths import file_error, gate
from pnp.config.deck import Card, Deck, FieldSpec
from pnp.config.game import Game
from pnp.config.typed import Loaded, Where, load_as, where_of
from pnp.errors import PnpError, did_you_mean, in_one_line, known
from pnp.lang import lang_file
from pnp.layout.binding import Binding
from pnp.yaml_source import YamlMap, display_path, load_yaml

# file -> card label -> field -> each translation (one, or one per source text the cards of
# that name print) and where it is written
Entries = list[tuple["CardText", Where]]
CardsByFile = dict[str, dict[str, dict[str, Entries]]]


class RuleSheet(Protocol):
    """What a translation needs of a rule-sheet component (the `rules` kind sits above lang/)."""

    source: str

    def where_is(self, key: str) -> Where: ...


@dataclass
class CardText(Loaded):
    """One field of one card: the source text it was made from, and the translation."""

    source: str
    text: str


@dataclass
class RulesText(Loaded):
    translates: str   # rules_hash() of the rule sheet it translates
    text: str


@dataclass
class LangSpec(Loaded):
    language: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    # by data file, then card (its name as written: a number unquoted names a card too), then
    # field: one text, or a list of them where cards of that name print different texts
    cards: dict[str, dict[str | int, dict[str, CardText | list[CardText]]]] = field(default_factory=dict)
    rules: dict[str, RulesText] = field(default_factory=dict)


def same_text(a: str, b: str) -> bool:
    """Equal but for line breaks and spacing: reflowing a paragraph changes no meaning."""
    return a.split() == b.split()


def text_key(text: str) -> str:
    """A text as `same_text` compares it (its words, one space apart), for looking it up: a
    big deck's cards of one name print thousands of texts, and comparing each with each made
    a translated 5,600-card build take 6 s instead of 1."""
    return " ".join(text.split())


def by_source(entries: Entries) -> dict[str, int]:
    """Each entry's index by its source's `text_key` (the first, where two share one)."""
    index: dict[str, int] = {}
    for at, (entry, _) in enumerate(entries):
        index.setdefault(text_key(entry.source), at)
    return index


def entry_for(entries: Entries, value: str) -> tuple[CardText, Where] | None:
    """The translation of a card's text: the entry made from that very source; else the one
    entry there is (its source changed since: validate says so, the build still uses it);
    else none (cards of one name print several texts and this one has no entry yet)."""
    for entry in entries:
        if same_text(entry[0].source, value):
            return entry
    return entries[0] if len(entries) == 1 else None


def rules_hash(text: str) -> str:
    """A short hash of a rule sheet, blind to reflowed lines."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:12]


@dataclass
class Translation:
    code: str
    name: str
    path: str                                    # as shown in messages
    labels: dict[str, tuple[str, Where]]
    cards: CardsByFile
    rules: dict[str, tuple[RulesText, Where]]    # rule sheet file -> translation
    missing_labels: dict[str, Where | None] = field(default_factory=dict)  # asked for, not found
    rule_sheets: dict[str, tuple[RuleSheet, str]] = field(default_factory=dict)  # drawn: component, source hash

    @property
    def called(self) -> str:
        return f"{self.code} ({self.name})" if self.name else self.code

    def label(self, text: str, where: Where | None = None) -> str:
        """Fixed text in this language; the source text, noted as missing, when the file has
        none. Text without a letter outside its {field} holes (a value, a number) is kept."""
        if not has_words(text):
            return text
        found = self.labels.get(text)
        if found is not None and found[0].strip():
            return found[0]
        own = pnp_words(self.code).get(text)
        if own is not None and found is None:
            return own
        self.missing_labels.setdefault(text, found[1] if found is not None else where)   # empty: not yet
        return text

    def label_at(self, text: str) -> Where | None:
        """Where the label that prints `text` in this language is written; None when the text
        prints as it is or in pnp's own words (`label`)."""
        found = self.labels.get(text) if has_words(text) else None
        return found[1] if found is not None and found[0].strip() else None

    def shared_text(self, text: str) -> tuple[str, Where | None] | None:
        """A card text many cards print, translated once among the labels, and where; None
        when the labels do not hold it (the card's own entry is wanted then)."""
        return (self.label(text), self.labels[text][1]) if text in self.labels else None

    @property
    def right_to_left(self) -> bool:
        """Written in a right-to-left script (as its labels show): tables and columns run
        from the right."""
        from pnp.layout.text import has_rtl
        return any(has_rtl(text) for text, _ in self.labels.values())

    def rules_text(self, component: RuleSheet, source: str) -> str:
        """The rule sheet's Markdown in this language (the source when there is none yet);
        the source's hash is kept to tell a translation that fell behind."""
        self.rule_sheets[component.source] = (component, rules_hash(source))
        found = self.rules.get(component.source)
        return found[0].text if found is not None and found[0].text.strip() else source

    def rules_where(self, component: RuleSheet) -> tuple[str, int] | None:
        """The lang file and the line its translation of the rule sheet starts on (a block
        scalar's text begins on the line after its key), or None when it has none."""
        found = self.rules.get(component.source)
        if found is None:
            return None
        where = found[0].where_is("text")
        return where.file, (where.line or 0) + 1


def pnp_words(code: str) -> dict[str, str]:
    """pnp's own words (the rule sheet's "page", the print-all cover, the tuck box) in a
    language it ships them in: pnp/bundled/words/CODE.yaml; none for another."""
    return _pnp_words(code.split("-")[0])


@functools.lru_cache(maxsize=16)
def _pnp_words(code: str) -> dict[str, str]:
    from pnp.resources import words_folder
    path = words_folder() / f"{code}.yaml"
    if not path.is_file():
        return {}
    node = load_yaml(path)
    return {str(key): str(value) for key, value in (node.get("words") or {}).items()}


@functools.lru_cache(maxsize=1)
def pnp_word_sources() -> frozenset[str]:
    """Every English text pnp itself may print in a translated build (the words its bundled
    languages translate), whichever print options ask for it."""
    from pnp.resources import words_folder
    return frozenset(source for path in sorted(words_folder().glob("*.yaml"))
                     for source in pnp_words(path.stem))


def has_words(text: str) -> bool:
    """Whether the text has a letter to translate outside its {field} holes and `:icons:`."""
    from pnp.layout.icons import ICON
    text = ICON.sub("", text)
    try:
        parts = Binding(text, Where("", None, "")).parts
    except PnpError:
        return False
    return any(ch.isalpha() for is_field, part in parts if not is_field
               for ch in REFERENCES.sub("", part))


REFERENCES = re.compile(r"\{(?:fact|title):[^{}]*\}")


def load_translation(game: Game, decks: dict[str, Deck], code: str, dropped: list[str] | None = None) -> Translation:
    """The language `code` of `game`, every name in it checked against the game's data files,
    cards, fields and rule sheets. With `dropped` (pnp translate, bringing the file up to date),
    an entry for a file, card, field or rule sheet the game no longer has is left out and its
    translation added to `dropped`, instead of failing."""
    path = lang_file(game.folder, code)
    gate(path, [game.folder], file_error(path), "translation")
    node = load_yaml(path)
    where = where_of(node)
    spec = load_as(LangSpec, node, where)
    labels: dict[str, tuple[str, Where]] = {}
    for source, text in spec.labels.items():
        at = where.key(node, "labels").key(node["labels"], source)
        before, after = Binding(source, at), Binding(text, at)
        if text.strip() and before.fields != after.fields:
            raise at.error(f"the translation must keep the same {{field}} holes as '{in_one_line(source)}'")
        if text.strip() and (before.facts != after.facts or before.titles != after.titles):   # "": not yet
            raise at.error(f"the translation must refer to the same facts as '{in_one_line(source)}' "
                           f"({', '.join(sorted(before.facts | before.titles)) or 'none'}), so it "
                           f"cannot print another number")
        labels[source] = (text, at)
    cards = read_cards(node, where, spec.cards, data_files(game, decks), dropped)
    rules = read_rules(node, where, spec, game, dropped)
    return Translation(code, spec.language, display_path(path), labels, cards, rules)


class DataFile(TypedDict):
    fields: dict[str, FieldSpec]
    cards: dict[str, list[Card]]   # by label: the cards of that name, in the file's order


def data_files(game: Game, decks: dict[str, Deck]) -> dict[str, DataFile]:
    """Each data file the game's decks read, by its name in the game folder: its fields and
    its cards by label (each card once, though two decks pick it)."""
    files: dict[str, DataFile] = {}
    seen: set[object] = set()
    for deck in decks.values():
        name = data_file_name(game, deck)
        entry = files.setdefault(name, {"fields": deck.fields, "cards": {}})
        for card in deck.cards:
            where = card.where
            key = (name, where.line, where.field) if where is not None else id(card)
            if key not in seen:
                seen.add(key)
                entry["cards"].setdefault(card.label, []).append(card)
    return files


def cards_printing(files: dict[str, DataFile], kept: dict[str, frozenset[str]]) -> dict[str, list[Where]]:
    """Each card text with words, and where each card that prints it is written (`kept`: the
    fields of each file a translation is not asked for)."""
    printed: dict[str, list[Where]] = {}
    for file_name, data in files.items():
        names = kept.get(file_name, frozenset())
        texts = [name for name, spec in data["fields"].items() if spec.type == "text" and name not in names]
        for label, cards in data["cards"].items():
            for card in cards:
                for name in texts:
                    value = card.get(name)
                    if isinstance(value, str) and has_words(value):
                        printed.setdefault(value, []).append(field_at(card, file_name, label, name))
    return printed


def field_at(card: Card, file_name: str, label: str, name: str) -> Where:
    """Where a card's field is written: a YAML card's is cards[3].name; a sheet's row has no
    keys: row 3 (name)."""
    card_at = card.where or Where(file_name, None, label)
    field = f"{card_at.field}.{name}" if card_at.line is not None else f"{card_at.field} ({name})"
    return Where(card_at.file, card_at.line, field)


def values_of(cards: list[Card], name: str) -> list[str]:
    """The different texts the cards of one name print in a field, in the file's order."""
    values: dict[str, str] = {}   # by text_key
    for card in cards:
        value = card.get(name)
        if isinstance(value, str) and has_words(value):
            values.setdefault(text_key(value), value)
    return list(values.values())


def data_file_name(game: Game, deck: Deck) -> str:
    """How a lang file names a deck's data file: its path in the game folder."""
    path = deck.path
    return path.relative_to(game.folder).as_posix() if path.is_relative_to(game.folder) else path.name


def read_cards(node: YamlMap, where: Where, typed: dict[str, dict[str | int, dict[str, CardText | list[CardText]]]],
               files: dict[str, DataFile], dropped: list[str] | None = None) -> CardsByFile:
    """The cards' texts (`typed`: each checked as it loaded), every name in them checked
    against the game's data files, their cards and text fields, at its line in `node`; with
    `dropped`, what names none of them is left out (see load_translation)."""
    cards: CardsByFile = {}
    by_file = node.get("cards") or {}

    def refuse(at: Where, message: str, hint: str | None, entries: dict[str, CardText | list[CardText]],
               place: str) -> None:
        if dropped is None:
            raise at.error(message, hint=hint)
        for name, entry in entries.items():
            dropped.extend(f"{place}, {name}: {item.text}" for item in (entry if isinstance(entry, list) else [entry])
                           if item.text.strip())

    for file_name, by_card in typed.items():
        file_at = where.key(node, "cards").key(by_file, file_name)
        if file_name not in files:
            for written, by_field in by_card.items():
                refuse(file_at, f"the game has no data file '{file_name}'",
                       did_you_mean(str(file_name), files) or f"its data files: {known(files)}",
                       by_field, f"{file_name}, card '{written}'")
            continue
        data = files[file_name]
        for written, by_field in by_card.items():
            card_at = file_at.key(by_file[file_name], written)
            label = str(written)
            if label not in data["cards"]:
                refuse(card_at, f"unknown card '{label}': {file_name} has no card of that name",
                       did_you_mean(label, data["cards"]), by_field, f"{file_name}, card '{label}'")
                continue
            for name, entry in by_field.items():
                field_at = card_at.key(by_file[file_name][written], name)
                spec = data["fields"].get(name)
                if spec is None or spec.type != "text":
                    refuse(field_at, f"unknown field '{name}'" if spec is None
                           else f"'{name}' is a {spec.type} field; only text fields are translated",
                           (did_you_mean(str(name), data["fields"]) or f"the cards' fields: {known(data['fields'])}")
                           if spec is None else None, {name: entry}, f"{file_name}, card '{label}'")
                    continue
                if isinstance(entry, list):   # one for each text the cards of this name print
                    listed = by_file[file_name][written][name]
                    found = [(item, field_at.item(listed, index)) for index, item in enumerate(entry)]
                else:
                    found = [(entry, field_at)]
                cards.setdefault(file_name, {}).setdefault(label, {})[name] = found   # text "": not yet
    return cards


def read_rules(node: YamlMap, where: Where, spec: LangSpec, game: Game,
               dropped: list[str] | None = None) -> dict[str, tuple[RulesText, Where]]:
    sheets = {c.rule_sheet(): c for c in game.components if c.rule_sheet()}
    rules: dict[str, tuple[RulesText, Where]] = {}
    for name, entry in spec.rules.items():
        at = where.key(node, "rules").key(node["rules"], name)
        if name not in sheets and dropped is not None:
            if entry.text.strip():
                dropped.append(f"rule sheet {name}:\n{entry.text.rstrip()}")
            continue
        if name not in sheets:
            raise at.error(f"the game has no rule sheet '{name}'",
                           hint=did_you_mean(name, sheets) or (f"its rule sheets: {known(sheets)}"
                                                               if sheets else None))
        rules[name] = (entry, at)
    return rules
