"""`pnp translate --game ID --lang CODE`: write card_data/ID/lang/CODE.yaml with every string the
game prints that needs a translation, each beside its source text and where that is written,
or bring the file up to date: what it has is kept, what the game now asks for is added with an
empty text, entries for cards, fields, labels or rule sheets the game no longer has are dropped, and
what they said is kept as comments at the file's end (a renamed card's text is not lost).

What needs a translation is found by drawing the game in the language in memory, as a build
would (so every label a layout, the rule sheet, the tuck box or the print-all cover asks for is
found), and by the card data: every text field with words, except values that choose a layout,
name a picture or are compared by a `when:` (pnp.lang.needs), and text that is only icons."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.errors import PnpError
from pnp.lang import CODE, lang_file
from pnp.paths import write_inside
from pnp.lang.file import (Entries, Translation, by_source, cards_printing, data_file_name, data_files, entry_for,
                           load_translation, pnp_word_sources, rules_hash, same_text, text_key, values_of)
from pnp.lang.needs import not_asked_by_file
from pnp.project import Project
from pnp.options import PrintOptions
from pnp.render import BuildContext
from pnp.yaml_source import display_path

if TYPE_CHECKING:
    from pnp.config.deck import Deck
    from pnp.config.game import Component, Game
    from pnp.config.typed import Where


LEFT_OVER = "# No longer in the game:"   # starts the comments that keep what dropped entries said


def translate_game(project: Project, game_id: str, code: str) -> tuple[Path, int, int, int]:
    """Write or update the game's translation into `code`: (its path, strings in it, strings
    still to translate, translations of what the game no longer has, kept as comments)."""
    if not CODE.match(code):
        raise PnpError(f"'{code}' is not a language code; use a code like de, he, ar or pt-BR")
    checked = project.check(game_id)
    game, decks = checked.game, checked.decks
    path = lang_file(game.folder, code)
    temporary = path.with_name(f".{path.name}.part")   # written whole first, then renamed into place
    # a lang/ (or a file in it) that is a link would carry the write out of the game folder
    for written in (path, temporary):
        write_inside(written, game.folder, lambda message: PnpError(message, file=display_path(path)), "translation")
    dropped: list[str] = []
    earlier = ""
    if path.is_file():
        have = load_translation(game, decks, code, dropped)
        earlier = path.read_text(encoding="utf-8")
    else:
        have = Translation(code, "", display_path(path), {}, {}, {})
    asked = labels_asked(project, game, decks, have)
    text = file_text(game, decks, have, asked, code, dropped)
    text += left_over(earlier, dropped)
    path.parent.mkdir(exist_ok=True)
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
    entries = [line for line in text.splitlines() if (line.startswith('  "') and '": ' in line) or "text: " in line]
    to_do = sum(1 for line in entries if line.endswith(('""', 'text: ""}')) or line.endswith(STALE_HINT))
    return path, len(entries), to_do, len(dropped)


def left_over(earlier: str, dropped: list[str]) -> str:
    """The comments at the file's end keeping what dropped entries said: those an earlier run
    kept, then today's."""
    at = earlier.find("\n" + LEFT_OVER)
    kept = [line for line in earlier[at + 1:].splitlines() if line.startswith("#")] if at >= 0 else []
    if not kept and not dropped:
        return ""
    if not kept:
        kept = [LEFT_OVER + " what the entries for a card, field, label or rule sheet the game",
                "# no longer has said, kept so nothing written is lost. Copy what you need, then delete these lines."]
    for entry in dropped:
        first, *rest = entry.split("\n")
        kept += [f"#   {first}"] + [f"#     {line}" for line in rest]
    return "\n" + "\n".join(kept) + "\n"


def labels_asked(project: Project, game: Game, decks: dict[str, Deck], have: Translation) -> dict[str, Where | None]:
    """The fixed words a build in the language asks for (label -> where it is written, None
    for pnp's own words), those the file has too, so each keeps its place beside it: the game
    drawn in memory, its print-all cover too."""
    from pnp.commands.validate import draw_in_language
    from pnp.lang.apply import translated_context
    probe = replace(have, labels={}, missing_labels={}, rule_sheets={})
    options = replace(PrintOptions(), paper=game.spec.paper, lang=have.code)
    draw_in_language(translated_context(BuildContext(project, game, decks, options), probe))
    return probe.missing_labels


def quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's is one)."""
    return json.dumps(text, ensure_ascii=False)


def file_text(game: Game, decks: dict[str, Deck], have: Translation, asked: dict[str, Where | None], code: str,
              dropped: list[str]) -> str:
    """The lang file's text: what `have` translates and what is still `asked`. A label the game
    no longer prints (no build asks for it, no card has it, not one of pnp's own words) is left
    out, its translation added to `dropped`."""
    lines = [f"# {game.spec.title} in {code}: every string it prints that needs a translation,",
             "# each with its source text and where that is written. Fill in each empty text (\"\");",
             "# `pnp validate` lists what is left. Run `pnp translate` again after changing the game:",
             "# what is here is kept and what is new is added. Values that choose a layout or name a",
             "# picture, text that is only icons and numbers need none and are left out.",
             f"language: {quoted(have.name)}   # the language's own name (Français, العربية)", ""]
    root = Path(game.folder).parent.parent
    # not asked for: values kept in every language, and fields no component prints
    kept = not_asked_by_file(root, game, decks, lambda deck: data_file_name(game, deck))
    shared = shared_texts(game, decks, kept, have)
    lines.append("labels:   # fixed words: layout text, titles, table headings, pnp's own words, and card")
    lines.append("          # text that several cards print, translated once for all of them")
    # still printed, though this drawing did not ask: pnp's own words (some print options
    # alone ask for them) and a card's printed text (one card left of those that shared it)
    printed = pnp_word_sources() | set(cards_printing(data_files(game, decks), kept))
    for source, (text, _) in have.labels.items():
        if source not in asked and source not in shared and source not in printed:   # printed no more
            if text.strip():
                dropped.append(f"label {quoted(source)}: {text}")
            continue
        if source in asked:   # where the label is written, as the first run wrote it
            written_at = asked[source]
            lines.append(f"  # {written_at.place}" if written_at is not None else "  # pnp's own words")
        lines.append(f"  {quoted(source)}: {quoted(text)}")
    for source, asked_where in asked.items():
        if source in have.labels:
            continue
        lines.append(f"  # {asked_where.place}" if asked_where is not None else "  # pnp's own words")
        lines.append(f"  {quoted(source)}: \"\"")
    for source, (places, text) in shared.items():
        if source in have.labels or source in asked:
            continue
        lines.append(f"  # on {len(places)} cards: {'; '.join(places[:3])}" + ("; ..." if len(places) > 3 else ""))
        lines.append(f"  {quoted(source)}: {quoted(text)}")
    if len(lines) and lines[-1].startswith("          #"):
        lines[-2:] = ["labels: {}"]
    # what the labels say, each source with its text: a card's own entry saying the same is not missed
    said = {(source, text) for source, (text, _) in have.labels.items()} | \
        {(source, text) for source, (_, text) in shared.items()}
    lines += ["", "cards:    # by data file, then card, then field"]
    any_card = False
    for file_name, data in data_files(game, decks).items():
        names = kept.get(file_name, frozenset())
        file_lines: list[str] = []
        for label, cards in data["cards"].items():
            entries = []
            for name, spec in data["fields"].items():
                own = have.cards.get(file_name, {}).get(label, {}).get(name, [])
                values = values_of(cards, name) if spec.type == "text" and name not in names else []
                values = [value for value in values if value not in shared and not said_by_label(have, value, own)]
                if values:
                    entries += field_lines(name, values, own)
                else:   # printed no more, or by a label: what the labels do not say is kept
                    dropped += [f"{file_name}, card '{label}', {name}: {entry.text}" for entry, _ in own
                                if entry.text.strip() and (entry.source, entry.text) not in said]
            if entries:
                card_where = getattr(cards[0], "where", None)
                if card_where is not None:
                    file_lines.append(f"    # {card_where.place}")
                file_lines.append(f"    {quoted(label)}:")
                file_lines += entries
        if file_lines:
            any_card = True
            lines.append(f"  {quoted(file_name)}:")
            lines += file_lines
    if not any_card:
        lines[-1] = "cards: {}"
    rules = rule_sheets(game)
    lines += ["", "rules:    # by rule sheet: the whole sheet's Markdown, translated" if rules else "rules: {}"]
    for source, component in rules.items():
        sheet = have.rules.get(source)
        now = rules_hash(read_source(game, source, component))
        lines.append(f"  # {display_path(Path(game.folder) / source)}")
        lines.append(f"  {quoted(source)}:")
        lines.append(f"    translates: {quoted(sheet[0].translates if sheet else now)}")
        body = sheet[0].text if sheet else ""
        if body.strip() and not body[0].isspace():
            lines.append("    text: |")
            lines += [f"      {line}" if line.strip() else "" for line in body.rstrip("\n").split("\n")]
        else:
            lines.append(f"    text: {quoted(body)}")
    return "\n".join(lines) + "\n"


def said_by_label(have: Translation, source: str, own: Entries) -> bool:
    """Whether a label translates `source` as the card's own entries do (or they say nothing
    yet): the card needs no entry of its own for it."""
    label = have.labels.get(source)
    return label is not None and all(entry.text in ("", label[0]) for entry, _ in own if entry.source == source)


def shared_texts(game: Game, decks: dict[str, Deck], kept: dict[str, frozenset[str]],
                 have: Translation) -> dict[str, tuple[list[str], str]]:
    """The card texts that several cards print (a result, a kind, a field's default), each
    with the cards that print it and the translation the file already gives it: asked once,
    among the labels, rather than once for every card. A text the file translates in more
    than one way on its cards stays with each card."""
    translations: dict[str, set[str]] = {}   # what the file already makes of each source
    for by_card in have.cards.values():
        for by_field in by_card.values():
            for entries in by_field.values():
                for entry, _ in entries:
                    if entry.text.strip():
                        translations.setdefault(entry.source, set()).add(entry.text)
    places = {value: [where.place for where in printed]
              for value, printed in cards_printing(data_files(game, decks), kept).items()}
    shared = {}
    for value, printing in places.items():
        given = translations.get(value, set())
        if len(printing) > 1 and len(given) <= 1:
            shared[value] = (printing, next(iter(given), ""))
    return shared


STALE_HINT = "translate it, then copy it into source"


def field_lines(name: str, values: list[str], have: Entries) -> list[str]:
    """A card field's entry: {source, text} for the one text the cards of that name print, a
    list of them, one for each, where they print several. A translation is kept with the
    source it was made from (validate names it if that is out of date); one not yet written
    shows today's source; one that no card's text matches any more is kept at the list's end,
    so no translated words are lost."""
    def entry(source: str, text: str) -> str:
        return f"{{source: {quoted(source)}, text: {quoted(text)}}}"
    if len(values) == 1 and len(have) <= 1:
        found = entry_for(have, values[0])
        source, text = (found[0].source, found[0].text) if found is not None and found[0].text else (values[0], "")
        if text and not same_text(source, values[0]):   # the card's text changed since: it prints the new source
            return [f"      {name}: {entry(source, text)}   # out of date: the card now reads {quoted(values[0])}; "
                    f"{STALE_HINT}"]
        return [f"      {name}: {entry(source, text)}"]
    lines = [f"      {name}:   # the cards of this name print {len(values)} different texts: one entry each"
             if len(values) > 1 else f"      {name}:"]
    used = set()
    sources = by_source(have)
    for value in values:
        index = sources.get(text_key(value))
        text = "" if index is None else have[index][0].text
        used.add(index)
        lines.append(f"        - {entry(value, text)}")
    for index, (old, _) in enumerate(have):
        if index not in used and old.text.strip():
            lines.append(f"        - {entry(old.source, old.text)}   # no card prints this source now: "
                         f"move its words to the new entry, then remove it")
    return lines


def rule_sheets(game: Game) -> dict[str, Component]:
    """The components that print a rule sheet, by its Markdown file."""
    return {sheet: c for c in game.components if (sheet := c.rule_sheet())}


def read_source(game: Game, source: str, component: Component) -> str:
    from pnp.paths import safe_path
    from pnp.kinds.rules import RulesComponent
    from pnp.kinds.rule_sheet import read_rules_text
    assert isinstance(component, RulesComponent)   # the rule sheets' sources only
    return read_rules_text(safe_path(game.folder, source, component.origin, what="rule sheet"), component)
