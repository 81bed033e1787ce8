"""What a translation lacks or has let fall behind: every card string without a translation,
every one whose source text changed since it was translated, rule sheets likewise, and the
fixed words (labels) a translated build looked up and did not find. Each is one line with the
file and line to edit."""

from __future__ import annotations

import json
from pathlib import Path

from pnp.config.deck import Card, Deck
from pnp.config.game import Game
from pnp.config.typed import Where

from pnp.lang.file import (Entries, Translation, by_source, cards_printing, data_file_name, data_files, field_at,
                           same_text, text_key, values_of)
from pnp.lang.needs import kept_by_file, not_asked_by_file


def card_problems(game: Game, decks: dict[str, Deck], translation: Translation) -> list[str]:
    problems = []
    root = Path(game.folder).parent.parent
    kept = kept_by_file(root, game, decks, lambda deck: data_file_name(game, deck))
    not_asked_of = not_asked_by_file(root, game, decks, lambda deck: data_file_name(game, deck))
    files = data_files(game, decks)
    printed_by = cards_printing(files, not_asked_of)
    told: set[str] = set()   # shared texts already told, once for all their cards
    for file_name, data in files.items():
        translated = translation.cards.get(file_name, {})
        names = kept.get(file_name, frozenset())
        for label, by_field in translated.items():
            for name in sorted(set(by_field) & names):
                problems.append(str(by_field[name][0][1].error(
                    f"'{name}' chooses a layout, names a picture or is compared by a when:, so it keeps its "
                    f"value in every language; this translation is not used", hint="remove the entry")))
        not_asked = not_asked_of.get(file_name, frozenset())   # kept, or printed nowhere
        for label, cards in data["cards"].items():
            for name, spec in data["fields"].items():
                if spec.type != "text" or name in not_asked:
                    continue
                values = values_of(cards, name)
                entries = translated.get(label, {}).get(name, [])
                if not entries:   # a text many cards print may be translated once, among the labels
                    values = [value for value in values if value not in translation.labels]
                    for value in [value for value in values if len(printed_by.get(value, ())) > 1]:
                        values.remove(value)
                        if value not in told:
                            told.add(value)
                            problems.append(shared_problem(translation, value, printed_by[value]))
                if values:
                    problems += field_problems(translation, file_name, label, name, cards, values, entries)
    return problems


def shared_problem(translation: Translation, value: str, places: list[Where]) -> str:
    """A text several cards print, with no translation: told once, at the first card, with the
    one place to write it (a label serves them all)."""
    return str(places[0].error(
        f"{short(value)!r}, printed by {len(places)} cards, has no translation into {translation.called}",
        hint=f"add it once to {translation.path} under labels: {json.dumps(value, ensure_ascii=False)}: ..."))


def field_problems(translation: Translation, file_name: str, label: str, name: str, cards: list[Card],
                   values: list[str], entries: Entries) -> list[str]:
    """What one field of the cards of one name lacks: a translation of each text they print
    (`values`), up to date; and entries that no card's text matches any more."""
    into = f"into {translation.called}"
    if not entries:
        return [str(field_at(cards[0], file_name, label, name).error(
            f"card '{label}' has no translation {into}",
            hint=f"add to {translation.path} under cards: {file_name}: {label}: {name}: "
                 f"{{source: ..., text: ...}}" + ("" if len(values) == 1 else
                                                    f", one for each of its {len(values)} texts")))]
    problems = []
    if len(values) == 1 and len(entries) == 1:   # the usual case: one text, one translation
        (entry, at), value = entries[0], values[0]
        if not entry.text.strip():
            problems.append(str(at.error(f"card '{label}', {name}: not translated {into} yet; "
                                         f"write its text (the source: {short(value)!r})")))
        elif not same_text(entry.source, value):
            problems.append(str(entry.where_is("source").error(
                f"out of date: the source text of card '{label}' changed since this "
                f"translation; it now reads {short(value)!r}, which the card prints until it is translated",
                hint="translate the new text, then copy it into source")))
        return problems
    # cards of one name printing different texts: one entry for each, told apart by its source
    matched = set()
    sources = by_source(entries)
    first_printing: dict[str, Card] = {}   # by text_key: the first card that prints a text
    for card in reversed(cards):
        first_printing[text_key(str(card.get(name)))] = card
    for value in values:
        found = sources.get(text_key(value))
        if found is None and value in translation.labels:
            continue   # translated once among the labels, for every card that prints it
        if found is None:
            card = first_printing[text_key(value)]
            problems.append(str(field_at(card, file_name, label, name).error(
                f"card '{label}' prints {short(value)!r}, which has no translation {into}: the "
                f"{len(cards)} cards of that name print {len(values)} different texts in '{name}', each "
                f"translated on its own",
                hint=f"list them in {translation.path} under cards: {file_name}: {label}: {name}: "
                     f"- {{source: ..., text: ...}} (pnp translate writes the list)")))
            continue
        matched.add(found)
        entry, at = entries[found]
        if not entry.text.strip():
            problems.append(str(at.error(f"card '{label}', {name}: {short(value)!r} is not translated "
                                         f"{into} yet; write its text")))
    for index, (entry, at) in enumerate(entries):
        if index not in matched:
            problems.append(str(entry.where_is("source").error(
                f"out of date: no card '{label}' prints this source text any more",
                hint="translate the card's new text in its own entry, then remove this one")))
    return problems


def rules_problems(translation: Translation) -> list[str]:
    """For the rule sheets a translated build drew."""
    problems = []
    for component, now in translation.rule_sheets.values():
        found = translation.rules.get(component.source)
        if found is None:
            problems.append(str(component.where_is("source").error(
                f"rule sheet '{component.source}' has no translation into {translation.called}",
                hint=f"add to {translation.path} under rules: {component.source}: "
                     f"{{translates: {now}, text: |...}}")))
        elif not found[0].text.strip():
            problems.append(str(found[1].error(f"rule sheet '{component.source}' is not translated into "
                                               f"{translation.called} yet; write its text")))
        elif found[0].translates != now:
            entry, _ = found
            problems.append(str(entry.where_is("translates").error(
                f"out of date: {component.source} changed since this translation (it is now "
                f"{now}, the translation says {entry.translates})",
                hint=f"bring the translation up to date, then set translates: {now}")))
    return problems


def translation_problems(game: Game, decks: dict[str, Deck], translation: Translation) -> list[str]:
    """Everything to do in a translation, once a translated build has been drawn (which
    is when the labels and rule sheets it needs are known). `game` and `decks` are the source."""
    return card_problems(game, decks, translation) + rules_problems(translation) + \
        label_problems(translation)


def label_problems(translation: Translation) -> list[str]:
    problems = []
    for text, where in translation.missing_labels.items():
        if text in translation.labels:   # written with an empty text, as pnp translate leaves it
            problems.append(str(translation.labels[text][1].error(
                f"'{short(text)}' is not translated into {translation.called} yet; write its text")))
            continue
        message = f"'{short(text)}' has no translation into {translation.called}"
        hint = f"add it to {translation.path} under labels"
        problems.append(str(where.error(message, hint=hint)) if where is not None else
                        f"{translation.path}: labels: pnp's own words {message} ({hint})")
    return problems


def short(text: str, most: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= most else text[:most - 1] + "…"
