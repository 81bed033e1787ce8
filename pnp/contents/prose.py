"""The words on the paper checked against the facts: a number written by hand next to the
words a fact is stated with must be the fact's value.

A fact in facts.yaml says how a sentence states it: `words` (what the sentence talks about,
as patterns: `touchdowns?`), optionally `unit` (what must follow the number: `points?`),
and the same per language (`words_de`, `unit_de`). Every number in the printed text (digits,
`1 to 5`, `three`, `double`) is a statement of each fact whose words stand within `near`
words of it in the same sentence and whose unit follows it; it must equal at least one of
them, or it is reported at its own file and line against the nearest. A number no fact's
words stand near is not a statement of any, and is left alone: rewording a sentence, or
writing a correct number by hand, is never refused.

Card text is read the same way, with the card's name as the sentence's subject, and also
against the card's own fields: a number followed by a field's name (`15 more yards` on a card
whose yards, or bonus, is 10) or a multiplier (`triple` on a x2 card) must agree with them.

What is read: each rule sheet and its translations, every text and table cell of the game's
own layouts, component titles and descriptions, deck notes (`designed`) and every text field
of every card (translations included)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from pnp.config.typed import Where
from pnp.contents.stated import Fact, Facts, facts_of, parts_of
from pnp.errors import PnpError
from pnp.paths import safe_path
from pnp.yaml_source import YamlList, YamlMap, display_path, load_yaml

if TYPE_CHECKING:
    from pnp.config.deck import Card, Deck, FieldSpec
    from pnp.config.game import Game

NUMBER_WORDS = {
    "": {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
         "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100},
    "de": {"null": 0, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7,
           "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12, "zwanzig": 20, "dreißig": 30,
           "vierzig": 40, "fünfzig": 50, "hundert": 100},
    "he": {"אפס": 0, "אחד": 1, "אחת": 1, "שניים": 2, "שני": 2, "שתיים": 2, "שתי": 2, "שלושה": 3,
           "שלוש": 3, "ארבעה": 4, "ארבע": 4, "חמישה": 5, "חמש": 5, "שישה": 6, "שש": 6, "שבעה": 7,
           "שבע": 7, "שמונה": 8, "תשעה": 9, "תשע": 9, "עשרה": 10, "עשר": 10},
}
MULTIPLIERS = {
    "": {"double": 2, "doubles": 2, "doubled": 2, "doubling": 2, "twice": 2, "triple": 3, "triples": 3,
         "tripled": 3, "treble": 3, "trebles": 3, "quadruple": 4, "quadruples": 4},
    "de": {"verdoppelt": 2, "verdoppeln": 2, "verdopple": 2, "doppelt": 2, "doppelte": 2,
           "verdreifacht": 3, "verdreifachen": 3, "dreifach": 3, "dreifache": 3},
}
HOLE = "\ue000"   # a {field} or {fact:NAME} hole: a word, never a number
RANGE_LINK = {"": r"to|through", "de": r"bis"}
SENTENCE_END = re.compile(r"[.!?](?=\s|$|\*)|\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.|#+|\|)\s)|\|")
HEADING = re.compile(r"^[ \t]*#+[ \t]+(.*)$", re.MULTILINE)
WORD = re.compile(r"[^\W_]+|" + HOLE + "+")


@dataclass(frozen=True)
class Quantity:
    kind: str        # "n" a number, "range" low-high, "times" a multiplier, "set" any of some numbers
    value: object

    def agrees(self, fact: "Quantity") -> bool | None:
        """True or False when this can state `fact`, None when it is another kind of thing."""
        if fact.kind == "set" and self.kind == "n":
            return self.value in fact.value   # type: ignore[operator]
        if self.kind == "end" and fact.kind == "range":   # one end written by hand, the other a fact
            return self.value in fact.value   # type: ignore[operator]
        if self.kind != fact.kind:
            return None
        return self.value == fact.value


def quantity(value: object) -> Quantity | None:
    """A fact's or a field's value as something a sentence can state: 6, "1-5", "x2",
    "+10", "3 PTS", [3, 6]; None for a name."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return Quantity("n", value)
    if isinstance(value, list):
        numbers = [v for v in value if isinstance(v, (int, float)) and not isinstance(v, bool)]
        return Quantity("set", frozenset(numbers)) if numbers and len(numbers) == len(value) else None
    text = str(value).strip()
    parts = parts_of(text)
    if len(parts) == 2:
        return Quantity("range", (parts[0], parts[1]))
    match = re.fullmatch(r"[x×]\s*(\d+)|(\d+)\s*[x×]", text, re.IGNORECASE)
    if match:
        return Quantity("times", int(match.group(1) or match.group(2)))
    match = re.fullmatch(r"[+]?\s*(\d+)(?:\s+[^\W\d_]+)?", text)
    if match:
        return Quantity("n", int(match.group(1)))
    return None


ONE = Quantity("n", 1)


@dataclass(frozen=True)
class Said:
    """A number written in a text: what it says, where, and as written."""

    quantity: Quantity
    start: int
    end: int
    text: str


@lru_cache(maxsize=None)
def number_pattern(language: str, with_words: bool = True) -> re.Pattern[str]:
    """Digits, ranges, multipliers and number words of a language, compiled once; without
    the words (`with_words` False) for a text that has none, which it reads twice as fast."""
    words = NUMBER_WORDS.get(language, {}) if with_words else {}
    times = MULTIPLIERS.get(language, {}) if with_words else {}
    link = RANGE_LINK.get(language, RANGE_LINK[""])
    # every branch starts with a digit, an x or a word's first letter: looking ahead for one
    # skips the other places at once, where trying each branch there read a text half as fast
    first = re.escape("".join(sorted({word[0] for word in (*words, *times)})))
    return re.compile(
        rf"(?=[\dx×{first}])(?:"
        rf"(?<![\w.])(?P<low>\d+)\s*(?:[-–—]|\b(?:{link})\b)\s*(?P<high>\d+)(?![\w.]|-\w)"
        rf"|(?<![\w+])[x×](?P<x>\d+)\b|(?<![\w.])(?P<xn>\d+)[x×](?!\w)"
        r"|(?<![\w.])(?P<n>\d+(?:\.\d+)?)(?!\w|\.\d)"
        + (rf"|\b(?P<word>{'|'.join(sorted(words, key=len, reverse=True))})\b" if words else "")
        + (rf"|\b(?P<mult>{'|'.join(sorted(times, key=len, reverse=True))})\b" if times else "") + ")",
        re.IGNORECASE)


DIGIT = re.compile(r"\d")


@lru_cache(maxsize=None)
def number_word(language: str) -> re.Pattern[str]:
    """Any word that says a number or a multiple in a language, as a whole word, in a text
    in lower case: one search, where splitting every text into its words cost a card more."""
    words = sorted({*NUMBER_WORDS.get(language, {}), *MULTIPLIERS.get(language, {})}, key=len, reverse=True)
    return re.compile(r"(?<![^\W\d_])(?:" + "|".join(words) + r")(?![^\W\d_])" if words else r"(?!)")


@lru_cache(maxsize=4096)
def said_in(text: str, language: str) -> tuple[Said, ...]:
    """Every number the text writes: ranges first, then multipliers, digits and words.
    Cached: a deck repeats its short texts (types, sides, bonuses) on card after card."""
    words = NUMBER_WORDS.get(language, {})
    times = MULTIPLIERS.get(language, {})
    worded = number_word(language).search(text.lower()) is not None
    if not worded and DIGIT.search(text) is None:
        return ()
    pattern = number_pattern(language, worded)
    found = []
    for match in pattern.finditer(text):
        if match.group("low"):
            q = Quantity("range", (int(match.group("low")), int(match.group("high"))))
        elif match.group("x") or match.group("xn"):
            q = Quantity("times", int(match.group("x") or match.group("xn")))
        elif match.group("n"):
            number = float(match.group("n"))
            value = int(number) if number.is_integer() else number
            # "20 to {fact:...}": one end of a range whose other end is a fact
            link = RANGE_LINK.get(language, RANGE_LINK[""])
            end = HOLE in text and (
                re.match(rf"\s*(?:[-–—]|(?:{link})\b)\s*{HOLE}", text[match.end():], re.IGNORECASE)
                or re.search(rf"{HOLE}\s*(?:[-–—]|\b(?:{link}))\s*$", text[max(0, match.start() - 12):match.start()],
                             re.IGNORECASE))
            q = Quantity("end" if end else "n", value)
        elif match.groupdict().get("word"):
            q = Quantity("n", words[match.group("word").lower()])
        else:
            q = Quantity("times", times[match.group("mult").lower()])
        found.append(Said(q, match.start(), match.end(), match.group(0)))
    return tuple(found)


@dataclass
class Text:
    """A printed text to read: where its first line is, its language, and (for a card) the
    subject every sentence in it is about."""

    text: str
    file: str
    line: int | None
    language: str = ""
    subject: str = ""
    card: Card | None = None
    fields: Mapping[str, FieldSpec] | None = None
    one_line: bool = False   # a YAML value: every problem is told at its key's line


def masked(text: str) -> str:
    """`{field}` and `{fact:NAME}` holes as placeholder words of the same length."""
    if "{" not in text:
        return text
    return re.sub(r"\{[^{}\n]*\}", lambda m: HOLE * len(m.group(0)), text)


# compiled once a process: validate reads every edition, watch and serve every rebuild
@lru_cache(maxsize=None)
def words_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """What a sentence stating a fact talks about: any of its words."""
    return re.compile(r"(?<!\w)(?:" + "|".join(words) + r")(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=None)
def unit_pattern(unit: tuple[str, ...]) -> re.Pattern[str]:
    """What follows a fact's number, a word or two after it at most."""
    return re.compile(r"^[\s\-–*]*(?:[^\W\d_]+[\s\-–]+){0,2}?(?:" + "|".join(unit) + r")(?!\w)", re.IGNORECASE)


class Reader:
    """Reads texts against one game's facts."""

    def __init__(self, facts: list[Fact]):
        self.facts: list[tuple[Fact, Quantity]] = []
        for fact in facts:
            said = quantity(fact.value)
            if said is not None and fact.words:
                self.facts.append((fact, said))
        self._patterns: dict[tuple[str, str], tuple[re.Pattern[str] | None, re.Pattern[str] | None]] = {}
        self._field_words: dict[int, FieldWords] = {}   # by the fields' id: a reader lives while its decks do

    def field_words(self, item: Text) -> FieldWords:
        fields = item.fields or NO_FIELDS
        known = self._field_words.get(id(fields))
        if known is None:
            known = self._field_words[id(fields)] = field_words(fields)
        return known

    def patterns(self, fact: Fact, language: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
        key = (fact.name, language)
        if key not in self._patterns:
            words = fact.words.get(language) if language in fact.words else fact.words.get("")
            if language and language not in fact.words:
                words = None   # not said how this language states it: not read in it
            unit = fact.unit.get(language, fact.unit.get("")) if fact.unit else None
            self._patterns[key] = (words_pattern(tuple(words)) if words else None,
                                   unit_pattern(tuple(unit)) if unit else None)   # a unit "" makes it optional
        return self._patterns[key]

    def read(self, item: Text) -> list[str]:
        text = masked(item.text)
        said = said_in(text, item.language)
        if not said:
            return []
        if not self.facts:   # nothing to state: only a card's own values can be contradicted
            if item.card is None:
                return []
            known = self.field_words(item)
            return [problem for each in said for problem in card_disagrees(item, text, each, known)]
        ends = [m.end() for m in SENTENCE_END.finditer(text)]
        starts = [m.start() for m in WORD.finditer(text)]

        def sentence(position: int) -> int:
            return bisect_right(ends, position)

        def word_index(position: int) -> int:
            return bisect_right(starts, position)

        headings = [(m.start(), m.group(1)) for m in HEADING.finditer(text)] if not item.one_line else []
        heading_starts = [start for start, _ in headings]

        def subject_of(position: int) -> str:
            """What the text at `position` is about: the card, or the heading above it."""
            index = bisect_right(heading_starts, position) - 1
            return " ".join(filter(None, [item.subject, headings[index][1] if index >= 0 else ""]))

        mentions = []   # (fact, its quantity, unit pattern, [(sentence, word index)], words)
        for fact, fact_q in self.facts:
            words, unit = self.patterns(fact, item.language)
            if words is None:
                continue
            places = [(sentence(m.start()), word_index(m.start()), word_index(max(m.end() - 1, m.start())))
                      for m in words.finditer(text)]
            if places or item.subject or headings:
                mentions.append((fact, fact_q, unit, places, words))
        problems = []
        for each in said:
            where_said, at = sentence(each.start), word_index(each.start)
            after = text[each.end:each.end + 60]
            candidates = []
            subject = subject_of(each.start)
            for fact, fact_q, unit, places, words in mentions:
                if unit is not None and not unit.match(after):
                    continue
                if each.quantity == ONE and fact_q != ONE and (unit is not None or not each.text.isdigit()):
                    continue   # "one yard apart", "one time out card": an article, not a wrong count
                agrees = each.quantity.agrees(fact_q)
                if agrees is None:
                    continue
                gaps = [max(first - at, at - last, 0) for s, first, last in places if s == where_said]
                gap = min(gaps, default=None)
                if gap is None or gap > fact.near:
                    # the card or the section is about it: only a number with the fact's unit
                    if unit is None or not (subject and words.search(subject)):
                        continue
                    gap = fact.near   # the card or the section is about it: as far as a fact may be
                candidates.append((gap, agrees, fact, unit is not None))
            if any(has_unit for *_, has_unit in candidates):
                # "3 points": the facts measured in points decide, not a die roll nearby
                candidates = [c for c in candidates if c[3]]
            if candidates and not any(agrees for _, agrees, _, _ in candidates):
                _, _, fact, _ = min(candidates, key=lambda c: c[0])
                problems.append(self.tell(item, text, each, fact))
            elif not candidates and item.card is not None:
                problems += card_disagrees(item, text, each, self.field_words(item))
        return problems

    def tell(self, item: Text, text: str, each: Said, fact: Fact) -> str:
        line = line_of(item, text, each)
        place = f"{item.file}:{line}: " if line else f"{item.file}: "
        who = f"card '{item.card.label}': " if item.card is not None else ""
        return (f"{place}{who}'{excerpt(item.text, each)}' says {each.text}; {fact.name} is {fact.shown} "
                f"({fact.cited}, {fact.file}:{fact.line}); print it with {{fact:{fact.name}}}")


def line_of(item: Text, text: str, each: Said) -> int | None:
    """The line a number is written on. A YAML value may run over several lines (a folded
    block, a card's map): its file is searched from the key's line for the words round it."""
    if item.line is None:
        return None
    if not item.one_line:
        return item.line + text.count("\n", 0, each.start)
    lines = _file_lines(item.file)
    start = item.line - 1
    words = item.text[each.start:each.end + 12].split()
    wanted = [" ".join(words[:n]) for n in range(min(len(words), 3), 0, -1)]
    for probe in wanted:
        for number in range(start, min(start + 40, len(lines))):
            if probe and probe in lines[number]:
                return number + 1
    return item.line


def _file_lines(file: str) -> list[str]:
    """Read again for each problem told (there are few), so an edited file is never stale."""
    try:
        return Path(file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def excerpt(text: str, each: Said) -> str:
    """The words round a number, on its line; never from or to the middle of a `{fact:...}`."""
    line_start = text.rfind("\n", 0, each.start) + 1
    start = max(line_start, each.start - 40)
    end = text.find("\n", each.end)
    line_end = end if end >= 0 else len(text)
    end = min(line_end, each.end + 30)
    closing, opening = text.find("}", start, each.start), text.find("{", start, each.start)
    if closing >= 0 and (opening < 0 or closing < opening):   # cut inside a reference: take it whole
        start = max(text.rfind("{", line_start, start), line_start)
    opening, closing = text.rfind("{", each.end, end), text.rfind("}", each.end, end)
    if opening > closing:
        whole = text.find("}", end, line_end)
        end = whole + 1 if whole >= 0 else opening
    return " ".join(text[start:end].split())


WORD_AFTER = re.compile(r"[\s\-–]*((?:more|extra|additional|further)\s+)?([^\W\d_]+)")   # a number's unit
# "gains 1 power", "loses 2 yards", "by 3": a number that changes a value, not the card's own
CHANGE_BEFORE = re.compile(r"(?<![^\W\d_])(?:gain|lose|add|give|get|take|move|draw|pay|spend|deal|heal|raise|lower|"
                           r"reduce|increase|cost|gains|loses|lost|adds|added|gives|gave|gets|got|takes|took|moves|"
                           r"draws|pays|spends|deals|heals|raises|lowers|reduces|increases|costs|by|plus|minus)"
                           r"\s+(?:up\s+to\s+|only\s+|another\s+)?$", re.IGNORECASE)


# "less than 2 attack", "at least 3 power", "2 speed or more": a bound, most often one other cards
# are held to ("destroy a unit that has at least 5 power"), never read as the card's own value
COMPARED_BEFORE = re.compile(r"(?<![^\W\d_])(?:(?:less|more|fewer|greater|higher|lower)\s+than|at\s+(?:least|most)|"
                             r"up\s+to|under|over|below|above)\s+$", re.IGNORECASE)
COMPARED_AFTER = re.compile(r"\s+or\s+(?:more|less|fewer|higher|lower|greater|above|below|better|worse)(?![^\W\d_])",
                            re.IGNORECASE)


@dataclass(frozen=True)
class FieldWords:
    """What a deck's fields are called and described with, worked out once a deck: a card's
    number is compared with a field only when the word after it could name one."""

    names: dict[str, tuple[frozenset[str], frozenset[str]]]   # field: (its names, their stems)
    described: dict[str, frozenset[str]]   # field: the words of its description
    words: frozenset[str]   # every name, stem and description word: any other word names none


NO_FIELDS: Mapping[str, FieldSpec] = {}


def field_words(fields: Mapping[str, FieldSpec]) -> FieldWords:
    names, described = {}, {}
    for name, spec in fields.items():
        if name == "count":
            continue
        called = frozenset(n for n in (name.lower(), getattr(spec, "title", "").lower()) if n)
        names[name] = (called, frozenset(n.rstrip("s") for n in called))
        described[name] = frozenset(getattr(spec, "description", "").lower().split())
    return FieldWords(names, described, frozenset().union(*(a | b for a, b in names.values()), *described.values()))


# "+1", "+ 1", "-1", "−1", "− 1": a change; "x-2" is a hyphen, and "Scout - 9" a dash before a value
SIGNED = re.compile(r"(?:^|[\s(\[])(?:[+−]\s?|-)$")


def card_disagrees(item: Text, text: str, each: Said, known: FieldWords) -> list[str]:
    """A number in a card's text that repeats one of the card's own values (followed by the
    field's name, or a multiplier against a multiplier) must be that value; `known` is what
    the card's deck calls its fields."""
    card = item.card
    if card is None:   # only a card's text is read against its own values
        return []
    related = []
    if each.quantity.kind == "times":
        for name in known.names:
            value = quantity(card.get(name))
            if value is not None and value.kind == "times":
                related.append((name, value))
    else:
        unit = WORD_AFTER.match(text, each.end)
        if unit is None:
            return []   # no word after the number
        word = unit.group(2).lower()
        if word not in known.words and word.rstrip("s") not in known.words:
            return []   # a word no field is called or described by
        if COMPARED_BEFORE.search(text, max(each.start - 16, 0), each.start) or COMPARED_AFTER.match(text, unit.end()):
            return []   # a bound: "heroes with less than 2 attack", "a unit that has at least 5 power"
        # "10 more yards", "+10 yards": a bonus, which a field described as one may hold
        bonus = bool(unit.group(1)) or SIGNED.search(text, max(each.start - 3, 0), each.start) is not None
        # "gains 1 power": a change, which only such a field may hold, never the card's power
        change = CHANGE_BEFORE.search(text, max(each.start - 24, 0), each.start) is not None
        for name, (called, stems) in known.names.items():
            named = word in called or word.rstrip("s") in stems
            # "+1 speed", "10 more yards": never the card's own speed or yards
            if (named and not change and not bonus) or ((bonus or change) and word in known.described[name]):
                value = quantity(card.get(name))
                if value is not None:
                    related.append((name, value))
    if not related or any(each.quantity.agrees(value) for _, value in related):
        return []
    name, value = related[0]
    told = (f"card '{card.label}': its text says '{excerpt(item.text, each)}' ({each.text}), but its {name} "
            f"is {card.get(name)}; write {{{name}}} to print the card's own value")
    where = card.where
    if where is None:
        return [told]
    # at the card's line, or its sheet row (which has none)
    return [str(PnpError(told, file=where.file, line=line_of(item, text, each), field=where.field))]


# --- what is printed --------------------------------------------------------------------------

def printed_texts(game: Game, decks: dict[str, Deck]) -> Iterator[Text]:
    """Every text of the game that ends up on paper, with its file and line."""
    manifest = display_path(game.manifest)
    layouts: list[str] = []
    for component in game.components:
        for key in ("title", "description"):
            value = getattr(component, key, None)
            if isinstance(value, str) and value:
                yield Text(value, manifest, component.where_is(key).line, one_line=True,
                           subject=component.title if key == "description" else "")
        sheet = component.rule_sheet()
        if sheet:
            # through the read gate: a rule sheet that leads out of the game is refused, not read
            path = safe_path(game.folder, sheet, component.where_is("source"), "rule sheet")
            if path.is_file():
                try:
                    yield Text(path.read_text(encoding="utf-8-sig"), display_path(path), 1)
                except (OSError, UnicodeDecodeError):
                    pass   # the rule sheet's own reading tells the user
        for key in ("front", "back", "layout"):
            value = getattr(component, key, None)
            if isinstance(value, str):
                layouts.append(value)
            elif isinstance(value, dict):
                layouts += [v for v in value.get("layouts", {}).values() if isinstance(v, str)]
            elif value is not None and hasattr(value, "layouts"):
                layouts += [v for v in value.layouts.values() if isinstance(v, str)]
    seen_files = set()
    for deck in decks.values():
        if id(deck.path) not in seen_files and deck.designed:
            seen_files.add(id(deck.path))
            yield Text(deck.designed, display_path(deck.path), key_line(deck.path, "designed"), one_line=True)
        texts = [name for name, spec in deck.fields.items() if spec.type == "text"]
        for card in deck.cards:
            for name in texts:
                value = card.get(name)
                if not isinstance(value, str) or value == card.label:   # a card's name is a name, not a statement
                    continue
                written = card.written.get(name, value)
                if not said_in(masked(written), ""):   # no number in it: nothing to read (most short texts)
                    continue
                where = card.where
                yield Text(written, where.file if where else display_path(deck.path),
                           where.line if where else None, subject=card.label, card=card,
                           fields=deck.fields, one_line=True)
    yield from layout_texts(game, dict.fromkeys(layouts))
    yield from translation_texts(game)


def key_line(path: Path, key: str) -> int | None:
    """The line a top-level key is written on (a deck's notes), for messages."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return next((n for n, line in enumerate(lines, 1) if line.startswith(f"{key}:")), None)


def layout_texts(game: Game, names: Iterable[str]) -> Iterator[Text]:
    """The fixed text of the game's own layouts (not pnp's base layouts)."""
    from pnp.layout.template import template_path
    from pnp.config.typed import Where
    root = game.folder.parent.parent
    for name in names:
        try:
            path = template_path(root, name, Where(str(game.manifest), None, ""))
        except Exception:   # a missing layout is told when it is drawn
            continue
        if (root / "layouts").resolve() not in path.parents:
            continue
        node = load_yaml(path)
        yield from _texts_in(node, display_path(path), [""])


def _texts_in(node: object, file: str, heading: list[str]) -> Iterator[Text]:
    """A layout's texts; each is about the last short text before it (a panel's heading,
    the card's title), as a rule sheet's paragraph is about its heading."""
    if isinstance(node, YamlMap):
        for key, value in node.items():
            if key == "text" and isinstance(value, str):
                yield Text(value, file, node.key_line(key), one_line=True, subject=heading[0])
                if len(value.split()) <= 4 and not any(ch.isdigit() for ch in value):
                    heading[0] = value
            elif key == "rows" and isinstance(value, YamlList):
                for index, row in enumerate(value):
                    if isinstance(row, list):
                        yield Text(" | ".join(str(c) for c in row), file, value.item_line(index), one_line=True,
                                   subject=heading[0])
            elif isinstance(value, (YamlMap, YamlList)):
                yield from _texts_in(value, file, heading)
    elif isinstance(node, YamlList):
        for value in node:
            yield from _texts_in(value, file, heading)


def translation_texts(game: Game) -> Iterator[Text]:
    """A translation's rule sheets, labels and card texts, read in its language."""
    folder = game.folder / "lang"
    if not folder.is_dir():
        return
    for found in sorted(folder.glob("*.yaml")):
        code = found.stem
        try:
            path = safe_path(game.folder, f"lang/{found.name}", Where(display_path(found), None, ""), "translation")
            node = load_yaml(path)
        except Exception:   # told by the translation's own loading
            continue
        file = display_path(path)
        labels = node.get("labels")
        if isinstance(labels, YamlMap):
            for source, text in labels.items():
                if isinstance(text, str):
                    yield Text(text, file, labels.key_line(source), code, one_line=True)
        rules = node.get("rules")
        if isinstance(rules, YamlMap):
            for entry in rules.values():
                if isinstance(entry, YamlMap) and isinstance(entry.get("text"), str):
                    yield Text(entry["text"], file, (entry.key_line("text") or 0) + 1, code)
        cards = node.get("cards")
        if isinstance(cards, YamlMap):
            for by_card in cards.values():
                for by_field in (by_card.values() if isinstance(by_card, YamlMap) else []):
                    for entry in (by_field.values() if isinstance(by_field, YamlMap) else []):
                        if isinstance(entry, YamlMap) and isinstance(entry.get("text"), str):
                            yield Text(entry["text"], file, entry.key_line("text"), code, one_line=True)


def prose_problems(game: Game, decks: dict[str, Deck]) -> list[str]:
    """Every hand-written statement of a fact that disagrees with it, at its file and line,
    and every promise (a fact with a `card`) no card keeps."""
    facts = facts_of(game)
    problems = promises_broken(facts, decks, game)
    reader = Reader(list(facts.by_name.values()))
    for item in printed_texts(game, decks):
        if not reader.facts and item.card is None:
            continue
        problems += reader.read(item)
    return list(dict.fromkeys(problems))


def promised(value: object, wanted: object) -> object:
    """A promise's field value: as written, or the fact's own (`value`, or `value.1` for a
    range's low end)."""
    if wanted == "value":
        return value
    if isinstance(wanted, str) and wanted.startswith("value."):
        parts = parts_of(value)
        index = wanted[len("value."):]
        if index.isdigit() and 1 <= int(index) <= len(parts):
            return parts[int(index) - 1]
    return wanted


def promises_broken(facts: Facts, decks: dict[str, Deck], game: Game) -> list[str]:
    """A fact the data notes promise to keep (`card: {type: run, yards: 15}`, `deck: cards`)
    holds when some card of that deck has those values."""
    problems = []
    for fact in facts.by_name.values():
        if fact.card is None:
            continue
        deck = decks.get(fact.deck) if fact.deck else next(iter(decks.values()), None)
        if deck is None:
            problems.append(f"{fact.file}:{fact.line}: {fact.name}: names the deck '{fact.deck}', which "
                            f"the game does not have (decks: {', '.join(decks)})")
            continue
        wanted = {k: promised(fact.value, v) for k, v in fact.card.items()}
        if not any(all(card.get(k) == v for k, v in wanted.items()) for card in deck.cards):
            shown = ", ".join(f"{k} {v}" for k, v in wanted.items())
            # told at the deck's notes, which promise it: that is the file an edit broke it in
            data = display_path(Path(deck.path))
            line = key_line(deck.path, "designed")
            place = f"{data}:{line}: designed" if line else data
            problems.append(f"{place}: no card has {shown}; the data promises to keep it ({fact.name}: "
                            f"{fact.cited}, {fact.file}:{fact.line})")
    return problems
