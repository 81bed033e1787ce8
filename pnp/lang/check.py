"""What a translation lacks or has let fall behind: every card string without a translation,
every one whose source text changed since it was translated, rule sheets likewise, and the
fixed words (labels) a translated build looked up and did not find. Each is one line with the
file and line to edit."""

from __future__ import annotations

from pathlib import Path

from pnp.config.deck import Deck
from pnp.config.game import Game
from pnp.config.typed import Where

from pnp.lang.file import Translation, data_file_name, data_files, has_words, same_text
from pnp.lang.needs import kept_by_file


def card_problems(game: Game, decks: dict[str, Deck], translation: Translation) -> list[str]:
    problems = []
    into = f"into {translation.called}"
    kept = kept_by_file(Path(game.folder).parent.parent, game, decks, lambda deck: data_file_name(game, deck))
    for file_name, data in data_files(game, decks).items():
        translated = translation.cards.get(file_name, {})
        names = kept.get(file_name, frozenset())
        for label, by_field in translated.items():
            for name in sorted(set(by_field) & names):
                problems.append(str(by_field[name][1].error(
                    f"'{name}' chooses a layout, names a picture or is tested by a when:, so it keeps its "
                    f"value in every language; this translation is not used", hint="remove the entry")))
        for label, card in data["cards"].items():
            for name, spec in data["fields"].items():
                value = card.get(name)
                if spec.type != "text" or not isinstance(value, str) or not has_words(value) or name in names:
                    continue
                found = translated.get(label, {}).get(name)
                if found is None:
                    # a YAML card's field is cards[3].name; a sheet's row has no keys: row 3 (name)
                    card_at = card.where or Where(file_name, None, label)   # a card read from a file has its place
                    field = f"{card_at.field}.{name}" if card_at.line is not None else \
                        f"{card_at.field} ({name})"
                    at = Where(card_at.file, card_at.line, field)
                    problems.append(str(at.error(
                        f"card '{label}' has no translation {into}",
                        hint=f"add to {translation.path} under cards: {file_name}: {label}: {name}: "
                             f"{{source: ..., text: ...}}")))
                elif not found[0].text.strip():
                    problems.append(str(found[1].error(f"card '{label}', {name}: not translated {into} yet; "
                                                       f"write its text (the source: {short(value)!r})")))
                elif not same_text(found[0].source, value):
                    entry, _ = found
                    problems.append(str(entry.where_is("source").error(
                        f"out of date: the source text of card '{label}' changed since this "
                        f"translation; it now reads {short(value)!r}",
                        hint="translate the new text, then copy it into source")))
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
        message = f"'{short(text)}' has no translation into {translation.called}"
        hint = f"add it to {translation.path} under labels"
        problems.append(str(where.error(message, hint=hint)) if where is not None else
                        f"{translation.path}: labels: pnp's own words {message} ({hint})")
    return problems


def short(text: str, most: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= most else text[:most - 1] + "…"
