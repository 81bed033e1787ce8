"""`pnp translate` starts (and keeps up) a translation: every string to translate beside its
source and line, nothing that needs none; once its texts are filled in it validates and builds.
`--shop` works with `--lang`; pnp's own words come from a translation too."""

from __future__ import annotations

import pytest
import yaml

from conftest import REPO, pdf, run
from test_every_edition import babel_root


def filled_babel(tmp_path):
    """The babel game with its French file written by `pnp translate` and filled: (root, file)."""
    root = babel_root(tmp_path / "root")
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    path = root / "card_data/babel/lang/fr.yaml"
    filled(path)
    return root, path


def filled_mini(path):
    """filled() for the mini game, whose rule sheet has no icons to print."""
    filled(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for entry in data["rules"].values():
        entry["text"] = "## Règles\n\n{{contents}}\n"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def filled(path):
    """The file with every empty text filled in (as a translator would), holes kept."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["language"] = "Français"
    data["labels"] = {source: text or f"FR {source}" for source, text in data["labels"].items()}
    for cards in data["cards"].values():
        for fields in cards.values():
            for value in fields.values():
                for entry in value if isinstance(value, list) else [value]:   # a list: one per text
                    entry["text"] = entry["text"] or f"FR {entry['source']}"
    for entry in data["rules"].values():
        entry["text"] = entry["text"] or "## Règles\n\n{{contents}}\n\nOn joue :lantern:.\n"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")



def finished_and_built(root, game, labels, rules, out):
    """The game's German file finished (filled(), then `labels`, and `rules` as each rule
    sheet's text), validated clean and built in German into `out`."""
    path = root / f"card_data/{game}/lang/de.yaml"
    filled(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["labels"].update(labels)
    for entry in data["rules"].values():
        entry["text"] = rules
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    checked = run("validate", "--game", game, root=root)
    assert checked.exit_code == 0, checked.stderr
    assert run("build", "--game", game, "--lang", "de", "--out", str(out), "-q", root=root).exit_code == 0

def test_translate_writes_every_string_to_translate_and_nothing_else(tmp_path):
    root = babel_root(tmp_path / "root")
    result = run("translate", "--game", "babel", "--lang", "fr", root=root)
    assert result.exit_code == 0, result.output + (result.stderr or "")
    path = root / "card_data/babel/lang/fr.yaml"
    assert "fr.yaml: " in result.output and "to translate" in result.output
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    lamplighter = data["cards"]["cards.yaml"]["Lamplighter"]
    assert set(lamplighter) == {"name", "text"}   # kind chooses a layout, art names a picture, cost is icons
    assert lamplighter["text"] == {"source": "Gain 1 :lantern: and **2** :gem:.", "text": ""}
    assert "cards.yaml:9" in text   # beside the line the source is written on
    for label in ("ROAD", "EVENT", "Start here :lantern:", "Road cards", "Card", "how to play", "double-sided"):
        assert data["labels"][label] == "", label
    assert ":lantern@3:" not in data["labels"]   # the back's icon-only text
    assert "layouts/babel/card.yaml:7" in text   # the ROAD label
    assert data["rules"]["rules.md"]["translates"]


def test_a_written_file_validates_once_filled_in_and_builds(tmp_path):
    root = babel_root(tmp_path / "root")
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    path = root / "card_data/babel/lang/fr.yaml"
    before = run("validate", "--game", "babel", root=root)
    assert before.exit_code == 1 and "not translated into fr yet" in before.stderr
    filled(path)
    after = run("validate", "--game", "babel", root=root)
    assert after.exit_code == 0, after.stderr
    assert "fr" not in (after.stderr or "")
    out = tmp_path / "out"
    build = run("build", "--game", "babel", "--lang", "fr", "--out", str(out), "--quiet", root=root)
    assert build.exit_code == 0 and not build.stderr, build.stderr
    assert (out / "babel/cards-a4-fr.pdf").is_file()


def test_translate_again_keeps_what_is_translated_and_adds_what_is_new(tmp_path):
    root, path = filled_babel(tmp_path)
    cards = root / "card_data/babel/cards.yaml"
    cards.write_text(cards.read_text() + "  - name: Ferry\n    count: 1\n    text: Cross the river.\n")
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["language"] == "Français"
    assert data["cards"]["cards.yaml"]["Lamplighter"]["name"]["text"] == "FR Lamplighter"
    assert data["cards"]["cards.yaml"]["Ferry"]["text"] == {"source": "Cross the river.", "text": ""}
    assert data["labels"]["ROAD"] == "FR ROAD"
    lines = path.read_text(encoding="utf-8").splitlines()   # a translated label keeps its place beside it
    assert lines[lines.index('  "ROAD": "FR ROAD"') - 1].endswith("layouts/babel/card.yaml:7")


def test_translate_again_with_nothing_changed_writes_the_same_file(tmp_path):
    """Every comment the first run wrote stays, pnp's own words' included (the second review
    found sixteen `# pnp's own words` lines dropped by a second run)."""
    root = babel_root(tmp_path / "root")
    path = root / "card_data/babel/lang/fr.yaml"
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    first = path.read_text(encoding="utf-8")
    assert "  # pnp's own words" in first
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    assert path.read_text(encoding="utf-8") == first


def test_translate_again_after_a_card_is_renamed_keeps_what_its_entry_said_as_comments(tmp_path):
    """The old name's entry is dropped (validate would refuse it), and what it said is kept at
    the file's end, through later runs too, so a translator's work is never lost."""
    root, path = filled_babel(tmp_path)
    cards = root / "card_data/babel/cards.yaml"
    cards.write_text(cards.read_text().replace("name: Lamplighter", "name: Lamp Keeper"))
    again = run("translate", "--game", "babel", "--lang", "fr", root=root)
    assert again.exit_code == 0, again.stderr
    assert "2 for what the game no longer has, kept as comments" in again.output
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert "Lamplighter" not in data["cards"]["cards.yaml"]
    assert data["cards"]["cards.yaml"]["Lamp Keeper"]["name"] == {"source": "Lamp Keeper", "text": ""}
    kept = "#   cards.yaml, card 'Lamplighter', text: FR Gain 1 :lantern: and **2** :gem:."
    assert kept in path.read_text(encoding="utf-8").splitlines()
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    assert path.read_text(encoding="utf-8").splitlines().count(kept) == 1   # kept, not repeated
    told = run("validate", "--game", "babel", root=root).stderr.splitlines()
    assert [line for line in told if "fr.yaml" in line and "Lamp Keeper" in line]   # its texts to write
    assert not [line for line in told if "fr.yaml" in line and "Lamplighter" in line]


def test_a_component_without_a_title_is_asked_for_by_the_id_printed_for_it(tmp_path):
    """The contents list and the print-all cover print a component's id when it has no title:
    the trial's French rule sheet listed "board" in English, and translate never asked."""
    root = babel_root(tmp_path / "root")
    game = root / "card_data/babel/game.yaml"
    game.write_text(game.read_text().replace("    title: Road board\n", ""))
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    path = root / "card_data/babel/lang/fr.yaml"
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["labels"]["board"] == ""
    assert "card_data/babel/game.yaml:" in path.read_text(encoding="utf-8")   # beside where the id is written
    filled(path)
    assert run("build", "--game", "babel", "--lang", "fr", "--out", str(tmp_path / "out"), "-q", root=root).exit_code == 0
    rules = " ".join(page.extract_text() for page in pdf(tmp_path / "out/babel/rules-a4-fr.pdf").pages)
    assert "FR board" in rules


def test_translate_again_shows_todays_source_beside_a_text_not_yet_written(tmp_path):
    """A card changed since the file was written: an entry still empty shows the card's text
    as it is now (a translator works from it); a translated one keeps the source it was made
    from, for validate to name as out of date."""
    root = babel_root(tmp_path / "root")
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    path = root / "card_data/babel/lang/fr.yaml"
    cards = root / "card_data/babel/cards.yaml"
    cards.write_text(cards.read_text() + "  - name: Ferry\n    count: 1\n    text: Cross the river.\n")
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    filled(path)
    cards.write_text(cards.read_text().replace("text: Cross the river.", "text: Cross the wide river."))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["cards"]["cards.yaml"]["Ferry"]["text"]["text"] = ""   # left to translate
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    old_lamp = data["cards"]["cards.yaml"]["Lamplighter"]["name"]
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["cards"]["cards.yaml"]["Ferry"]["text"] == {"source": "Cross the wide river.", "text": ""}
    assert data["cards"]["cards.yaml"]["Lamplighter"]["name"] == old_lamp


def test_translate_again_marks_a_translation_gone_stale_and_counts_it(tmp_path):
    """A translated card whose text changed since: the entry keeps its words and source, says
    beside it what the card reads now, and counts among the strings to translate."""
    root = babel_root(tmp_path / "root")
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    path = root / "card_data/babel/lang/fr.yaml"
    filled(path)
    cards = root / "card_data/babel/cards.yaml"
    cards.write_text(cards.read_text().replace('name: Lamplighter', 'name: Lamplighter', 1)
                     .replace("Gain 1 :lantern: and **2** :gem:.", "Gain 2 :lantern: and **2** :gem:."))
    result = run("translate", "--game", "babel", "--lang", "fr", root=root)
    assert result.exit_code == 0 and ", 1 to translate" in result.output, result.output
    line = next(line for line in path.read_text(encoding="utf-8").splitlines() if "Gain 1 :lantern:" in line)
    assert "# out of date: the card now reads \"Gain 2 :lantern: and **2** :gem:.\"" in line, line
    kept = yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]["cards.yaml"]["Lamplighter"]["text"]
    assert kept["source"] == "Gain 1 :lantern: and **2** :gem:." and kept["text"]   # the words, kept


def test_the_shipped_translations_need_no_layout_or_picture_values(tmp_path):
    """Translating the fixture's German again changes no string and asks for none."""
    root = babel_root(tmp_path / "root")
    result = run("translate", "--game", "babel", "--lang", "de", root=root)
    assert result.exit_code == 0 and ", 0 to translate" in result.output, result.output
    assert run("validate", "--game", "babel", root=root).exit_code == 0


def test_a_language_code_that_is_no_code_is_refused(tmp_path):
    root = babel_root(tmp_path / "root")
    result = run("translate", "--game", "babel", "--lang", "../x", root=root)
    assert result.exit_code == 1 and "is not a language code" in result.stderr
    assert not (root / "card_data/babel/lang/../x.yaml").exists()


def test_shop_tgc_with_lang_all_writes_each_editions_shop_files(tmp_path):
    from PIL import Image, ImageChops
    root = babel_root(tmp_path / "root")
    out = tmp_path / "out"
    for extra in ((), ("--lang", "all")):
        result = run("build", "--game", "babel", "--shop", "tgc", "--out", str(out), "--quiet", *extra, root=root)
        assert result.exit_code == 0, result.output + (result.stderr or "")
    folders = {code: out / "babel" / (f"tgc-{code}" if code else "tgc") for code in ("", "de", "he", "ar")}
    names = {code: sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
             for code, folder in folders.items()}
    assert names[""] and all(names[code] == names[""] for code in names), names
    first = sorted((folders[""] / "cards").glob("*front*.png"))[0].relative_to(folders[""])
    pictures = {code: Image.open(folders[code] / first).convert("RGB") for code in folders}
    for code in ("de", "he", "ar"):   # the same card, in its own words
        assert ImageChops.difference(pictures[code], pictures[""]).getbbox() is not None, code


def test_pnps_own_words_come_from_its_bundled_languages_and_missing_ones_are_named(tmp_path):
    import pypdfium2
    from conftest import REPO
    out = tmp_path / "out"
    result = run("build", "--game", "12th-player", "--lang", "de", "--lang", "he", "--out", str(out), "--quiet",
                 root=REPO)
    assert result.exit_code == 0, result.stderr

    def text(name, page=0):
        return pypdfium2.PdfDocument(str(out / "12th-player" / name))[page].get_textpage().get_text_range()
    assert "alles zum Drucken" in text("12th-player-print-all-letter-de.pdf")
    assert "beidseitig" in text("12th-player-print-all-letter-de.pdf")
    assert "KLEBEN" in text("tuck-boxes-letter-de.pdf")
    assert "כל מה שצריך להדפיס" in " ".join(text("12th-player-print-all-letter-he.pdf").split())
    root = babel_root(tmp_path / "root")
    (root / "card_data/babel/lang/fr.yaml").write_text("language: Français\n", encoding="utf-8")
    result = run("validate", "--game", "babel", root=root)
    assert result.exit_code == 1
    assert "pnp's own words 'double-sided' has no translation into fr (Français)" in result.stderr
    assert "pnp's own words 'double-sided' has no translation into de" not in result.stderr


def test_a_translated_layout_choosing_value_is_not_used_and_named(tmp_path):
    """Translating `kind` (it picks the front) would lose the card its layout: the build keeps
    the value, draws the same pictures, and validate names the entry."""
    from edition_checks import pages_drawn
    root = babel_root(tmp_path / "root")
    de = root / "card_data/babel/lang/de.yaml"
    de.write_text(de.read_text(encoding="utf-8").replace(
        '      name: {source: "Storm", text: "Sturm"}',
        '      name: {source: "Storm", text: "Sturm"}\n      kind: {source: "event", text: "Ereignis"}'), encoding="utf-8")
    out = tmp_path / "out"
    for extra in ((), ("--lang", "de")):
        assert run("build", "--game", "babel", "--out", str(out), "--quiet", *extra, root=root).exit_code == 0
    assert [p.pictures for p in pages_drawn(out / "babel/cards-a4-de.pdf")] == \
        [p.pictures for p in pages_drawn(out / "babel/cards-a4.pdf")]
    assert "EREIGNIS" in pdf(out / "babel/cards-a4-de.pdf").pages[0].extract_text()   # the event front
    result = run("validate", "--game", "babel", root=root)
    assert result.exit_code == 1
    assert "de.yaml:" in result.stderr and "'kind' chooses a layout" in result.stderr


def test_a_layout_choosing_value_a_rules_table_prints_is_asked_for_and_printed_in_the_translation(tmp_path):
    """`kind` picks the front, so the cards keep "event" in every language; a rule sheet's table
    printing it printed "event" in the German rules, and nothing asked for it."""
    root = babel_root(tmp_path / "root")
    game = root / "card_data/babel/game.yaml"
    game.write_text(game.read_text().replace("columns: [name, count, text]\n        headings: [Card, Copies,",
                                             "columns: [name, kind, count, text]\n        headings: [Card, Kind, Copies,"))
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    asked = yaml.safe_load((root / "card_data/babel/lang/fr.yaml").read_text(encoding="utf-8"))["labels"]
    assert {"road", "event"} <= set(asked), asked
    told = run("validate", "--game", "babel", root=root).stderr
    assert "'event' has no translation into de" in told and "'road' has no translation into de" in told, told
    de = root / "card_data/babel/lang/de.yaml"
    de.write_text(de.read_text(encoding="utf-8").replace(
        "labels:\n", 'labels:\n  "Kind": "Art"\n  "event": "Ereignis"\n  "road": "Weg"\n', 1), encoding="utf-8")
    out = tmp_path / "out"
    assert run("build", "--game", "babel", "--lang", "de", "--out", str(out), "-q", root=root).exit_code == 0
    words = " ".join(page.extract_text() for page in pdf(out / "babel/rules-a4-de.pdf").pages).split()
    assert "Ereignis" in words and "Weg" in words and "event" not in words and "road" not in words


def test_the_covers_words_for_every_way_to_print_are_asked_for(tmp_path):
    """A translation made and checked with the default duplex printed a fold build's cover in
    English: its words were never asked for."""
    from pnp.exporters.print_all import HOW_TO_PRINT
    root = babel_root(tmp_path / "root")
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    asked = yaml.safe_load((root / "card_data/babel/lang/fr.yaml").read_text(encoding="utf-8"))["labels"]
    assert set(HOW_TO_PRINT.values()) <= set(asked)
    assert any("fold" in words for words in asked), sorted(asked)


def test_cards_that_share_a_name_get_a_translation_for_each_text_they_print(tmp_path):
    """Two cards named Pilgrim with different texts: `pnp translate` lists one entry for each
    text, told apart by its source; each card prints its own translation, and validate names
    a text left out, at its card, and an entry no card prints any more."""
    root = babel_root(tmp_path / "root")
    for other in (root / "card_data/babel/lang").iterdir():   # French alone
        other.unlink()
    cards = root / "card_data/babel/cards.yaml"
    cards.write_text(cards.read_text().replace("  - name: Pilgrim\n    count: 4\n", "  - name: Pilgrim\n    count: 3\n")
                     + "  - name: Pilgrim\n    count: 1\n    text: Walk two roads.\n")
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    path = root / "card_data/babel/lang/fr.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    pilgrim = data["cards"]["cards.yaml"]["Pilgrim"]
    assert "name" not in pilgrim and data["labels"]["Pilgrim"] == ""   # both print it: once, among the labels
    assert pilgrim["text"] == [{"source": "*Quick*: take :coin:, then ***pay*** :lantern@1.5: to move.", "text": ""},
                               {"source": "Walk two roads.", "text": ""}]
    filled(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["cards"]["cards.yaml"]["Pilgrim"]["text"] = [
        {"source": "*Quick*: take :coin:, then ***pay*** :lantern@1.5: to move.", "text": "*Vite* : prends :coin:."},
        {"source": "Walk two roads.", "text": "Marche sur deux routes."}]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    checked = run("validate", "--game", "babel", root=root)
    assert checked.exit_code == 0, checked.stderr
    out = tmp_path / "out"
    assert run("build", "--game", "babel", "--lang", "fr", "--out", str(out), "--quiet", root=root).exit_code == 0
    text = " ".join(" ".join(page.extract_text() for page in pdf(out / "babel/cards-a4-fr.pdf").pages).split())
    assert text.count("Marche sur deux routes.") == 1 and text.count("prends") == 3   # 1 and 3 copies
    # the second card's text changes: its entry is out of date and the new text has none
    cards.write_text(cards.read_text().replace("text: Walk two roads.", "text: Walk three roads."))
    told = run("validate", "--game", "babel", root=root).stderr
    assert "card 'Pilgrim' prints 'Walk three roads.', which has no translation into fr" in told, told
    assert "cards.yaml:" in told and "out of date: no card 'Pilgrim' prints this source text any more" in told
    # pnp translate adds the new text's entry and keeps the old words at the end, marked
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    written = path.read_text(encoding="utf-8")
    listed = yaml.safe_load(written)["cards"]["cards.yaml"]["Pilgrim"]["text"]
    assert [entry["source"] for entry in listed] == [
        "*Quick*: take :coin:, then ***pay*** :lantern@1.5: to move.", "Walk three roads.", "Walk two roads."]
    assert listed[1]["text"] == "" and listed[2]["text"] == "Marche sur deux routes."
    assert "no card prints this source now" in written


@pytest.mark.parametrize("when, asked", [
    ("flavour", True),                       # only whether it is set: its words are translated
    ("{flavour: {set: true}}", True),
    ("{flavour: Old roads.}", False),        # its value compared: it stays as it is
    ("{not: {flavour: [Old roads.]}}", False),
])
def test_a_field_a_when_only_tests_for_being_set_is_translated(tmp_path, when, asked):
    root = babel_root(tmp_path / "root")
    layout = root / "layouts/babel/card.yaml"
    layout.write_text(layout.read_text() + f'  - {{kind: text, text: "*{{flavour}}*", when: {when}, size: 8, '
                                           f'x: 5mm, y: 80mm, w: 53mm, h: 5mm}}\n')
    cards = root / "card_data/babel/cards.yaml"
    cards.write_text(cards.read_text().replace("  text: {type: text}\n", "  text: {type: text}\n  flavour: {type: text}\n")
                     .replace("  - name: Lamplighter\n", "  - name: Lamplighter\n    flavour: Old roads.\n"))
    assert run("translate", "--game", "babel", "--lang", "fr", root=root).exit_code == 0
    data = yaml.safe_load((root / "card_data/babel/lang/fr.yaml").read_text(encoding="utf-8"))
    lamplighter = data["cards"]["cards.yaml"]["Lamplighter"]
    assert ("flavour" in lamplighter) == asked, lamplighter
    if asked:
        assert lamplighter["flavour"] == {"source": "Old roads.", "text": ""}


def test_a_text_several_cards_print_is_translated_once_among_the_labels(root, tmp_path):
    """Big Ten's results ("No gain", "Card yards") are printed by dozens of cards: asked once,
    among the labels, each card prints that one translation; a text only one card prints
    keeps its card's entry. The file asked for 536 strings, now for fewer than half."""
    assert run("translate", "--game", "big-ten", "--lang", "de", root=root).exit_code == 0
    path = root / "card_data/big-ten/lang/de.yaml"
    written = path.read_text(encoding="utf-8")
    data = yaml.safe_load(written)
    assert data["labels"]["No gain"] == "" and "No gain" not in str(data["cards"])
    assert "# on " in written and "defense.yaml:" in written   # which cards print it
    entries = written.count("text: ") + sum(1 for line in written.splitlines() if line.startswith('  "'))
    assert entries < 536 / 2, entries
    data["labels"]["No gain"] = "Kein Raumgewinn"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    out = tmp_path / "out"
    assert run("build", "--game", "big-ten", "--lang", "de", "--out", str(out), "-q", root=root).exit_code == 0
    text = " ".join(page.extract_text() for page in pdf(out / "big-ten/defense-letter-de.pdf").pages)
    assert text.count("Kein Raumgewinn") > 10 and "No gain" not in text


def test_a_field_that_names_a_colour_is_not_asked_for(root, tmp_path):
    """Big Ten's play type picks the card's colour through the palette (`fill: "{type}"`):
    a translated "run" is no colour, and the German build stopped on it."""
    assert '"{type}"' in (root / "layouts/big-ten/offense.yaml").read_text()
    assert run("translate", "--game", "big-ten", "--lang", "de", root=root).exit_code == 0
    data = yaml.safe_load((root / "card_data/big-ten/lang/de.yaml").read_text(encoding="utf-8"))
    assert "run" not in data["labels"] and "type:" not in str(data["cards"])


def test_a_card_tables_cells_are_asked_for_and_printed_in_the_translation(mini, tmp_path):
    """A table field's cells ("Runs", "Bites") printed in English in a translated edition, and
    neither `pnp translate` nor validate asked for them. Its short phrases repeat from card to
    card, so they are asked once each, among the labels."""
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("  text: {type: text}\n", "  text: {type: text}\n  stats: {type: table}\n")
                     .replace("    power: 3\n", "    power: 3\n    stats: [[Runs, fast], [Bites, '2']]\n"))
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + "  - {kind: table, rows_from: stats, x: 4mm, y: 44mm, w: 33mm, h: 10mm, "
                                           "size: 7, colour: white}\n")
    assert run("translate", "--game", "mini", "--lang", "de", root=mini).exit_code == 0
    path = mini / "card_data/mini/lang/de.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert {"Runs", "fast", "Bites"} <= set(data["labels"]) and "2" not in data["labels"]
    told = run("validate", "--game", "mini", root=mini).stderr
    assert "labels.Runs: 'Runs' is not translated into de yet" in told, told
    # the mini game has no icons, which the rule text filled() writes draws
    finished_and_built(mini, "mini", {"Runs": "Rennt", "fast": "schnell", "Bites": "Beißt"},
                       "## Regeln\n\n{{contents}}\n", tmp_path)
    words = pdf(tmp_path / "mini/cards-a4-de.pdf").pages[0].extract_text().split()
    assert "Rennt" in words and "Beißt" in words and "Runs" not in words


def test_a_list_fields_items_are_asked_for_and_printed_in_the_translation(root, tmp_path):
    """Monster Ball's scoreboard prints its phases and downs from list fields (Catch, Offense,
    Defense; 1st to 4th): a German edition printed them in English, and neither `pnp
    translate` nor validate asked for them. Asked once each among the labels, like a table's
    cells; the points (numbers) stay as they are."""
    assert run("translate", "--game", "monster-ball", "--lang", "de", root=root).exit_code == 0
    path = root / "card_data/monster-ball/lang/de.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert {"Catch", "Offense", "Defense", "1st", "4th"} <= set(data["labels"]) and "10" not in data["labels"]
    assert "scoreboard.yaml:9" in path.read_text(encoding="utf-8")   # the card that prints them
    told = run("validate", "--game", "monster-ball", "--all-problems", root=root).stderr
    assert "labels.Offense: 'Offense' is not translated into de yet" in told, told
    # the rule text filled() writes draws an icon Monster Ball lacks
    finished_and_built(root, "monster-ball", {"Offense": "Angriff", "Defense": "Verteidigung", "1st": "1."},
                       "## Regeln\n\n{{contents}}\n", tmp_path)
    words = pdf(tmp_path / "monster-ball/scoreboard-letter-de.pdf").pages[0].extract_text().split()
    assert {"ANGRIFF", "VERTEIDIGUNG", "1."} <= set(words) and "OFFENSE" not in words and "10" in words


LISTS = """\
  words: {type: list, default: [Quick, Strong]}
  kinds: {type: list, default: [Fire, Water]}
  pictures: {type: list, default: [emblem]}
  spots: {type: list, default: ["12mm 20mm", "30mm 20mm"]}
  tags: {type: list, default: [Starter, Common]}
"""
REPEATS = """\
  - {kind: repeat, items_from: words, x: 4mm, y: 58mm, dx: 16mm,
     elements: [{kind: text, text: "{item}", size: 6, colour: white, x: 0, y: 0, w: 16mm, h: 4mm}]}
  - {kind: repeat, items_from: kinds, x: 4mm, y: 2mm, dx: 5mm,
     elements: [{kind: box, when: {item: Fire}, fill: "#ff0000", x: 0, y: 0, w: 4mm, h: 4mm}]}
  - {kind: repeat, items_from: pictures, x: 30mm, y: 2mm,
     elements: [{kind: image, src: "{item}.svg", x: 0, y: 0, w: 4mm, h: 4mm}]}
  - {kind: repeat, count: 2, at: "{spots}",
     elements: [{kind: box, fill: "#00ff00", x: 0, y: 0, w: 2mm, h: 2mm}]}
"""


def test_list_items_used_as_names_or_printed_nowhere_are_not_asked_for(mini, tmp_path):
    """Only a list's items its layout prints as words are translated: items a repeat uses as
    a `when:` value, a picture's name or points (`at:`) keep their values in every language (a
    German "Feuer" lost every card's red box, a "Wappen.svg" stopped the build), and a list no
    component prints (tags) is not asked for."""
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("  text: {type: text}\n", "  text: {type: text}\n" + LISTS))
    (mini / "card_data/mini/emblem.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#0000ff"/></svg>')
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + REPEATS)
    assert run("translate", "--game", "mini", "--lang", "de", root=mini).exit_code == 0
    path = mini / "card_data/mini/lang/de.yaml"
    labels = set(yaml.safe_load(path.read_text(encoding="utf-8"))["labels"])
    assert {"Quick", "Strong"} <= labels
    assert not labels & {"Fire", "Water", "emblem", "12mm 20mm", "Starter", "Common"}, labels
    finished_and_built(mini, "mini", {"Quick": "Schnell"}, "## Regeln\n\n{{contents}}\n", tmp_path)
    page = pdf(tmp_path / "mini/cards-a4-de.pdf").pages[0]
    assert "Schnell" in page.extract_text().split()
    drawn = b"".join(form.get_object().get_data() for form in page["/Resources"]["/XObject"].values()) + \
        page.get_contents().get_data()
    assert b"1 0 0 rg" in drawn and b"0 1 0 rg" in drawn   # the Fire box and the spots, as in the source


def test_list_items_printed_as_words_are_translated_beside_a_colon_a_repeat_within_and_in_a_rule_sheet(mini, tmp_path):
    """Still words: `{item}: {i}` (only `{item}` within an icon's :token: names an icon), a
    list whose repeat holds a repeat of its own (whose `{item}` is its own colours), and a list
    a rule sheet prints only in a `name+tags` column. Each printed English in German."""
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("  text: {type: text}\n", "  text: {type: text}\n"
                                               "  words: {type: list, default: [Quick, Strong]}\n"
                                               "  tags: {type: list, default: [Noble]}\n"))
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + """\
  - {kind: repeat, items_from: words, x: 4mm, y: 58mm, dx: 16mm, elements: [
      {kind: text, text: "{item}: {i}", size: 6, colour: white, x: 0, y: 0, w: 16mm, h: 4mm},
      {kind: repeat, items: ["#aa0000", "#0000aa"], dx: 3mm,
       elements: [{kind: box, fill: "{item}", x: 0, y: 4mm, w: 2mm, h: 2mm}]}]}
""")
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("    source: rules.md\n", "    source: rules.md\n    tables:\n"
                                             "      card-list: {deck: cards, columns: [name+tags, text]}\n"))
    (mini / "card_data/mini/rules.md").write_text("## Cards\n\n{{card-list}}\n")
    assert run("translate", "--game", "mini", "--lang", "de", root=mini).exit_code == 0
    path = mini / "card_data/mini/lang/de.yaml"
    assert {"Quick", "Strong", "Noble"} <= set(yaml.safe_load(path.read_text(encoding="utf-8"))["labels"])
    finished_and_built(mini, "mini", {"Quick": "Schnell", "Noble": "Edel"}, "## Karten\n\n{{card-list}}\n", tmp_path)
    assert "Schnell:" in pdf(tmp_path / "mini/cards-a4-de.pdf").pages[0].extract_text().split()
    sheet = pdf(tmp_path / "mini/rules-a4-de.pdf").pages[0].extract_text()
    assert "Edel" in sheet and "Noble" not in sheet


def test_a_maps_cell_labels_are_asked_for_and_printed_in_the_translation(tmp_path):
    """The cells of a map read from a data file (Greenwood, Old Peak) printed in English on a
    translated board, unasked: they are the board's words like any label's."""
    import shutil
    root = tmp_path / "root"
    shutil.copytree(REPO / "examples/hex-map", root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    assert run("translate", "--game", "hex-map", "--lang", "de", root=root).exit_code == 0
    path = root / "card_data/hex-map/lang/de.yaml"
    written = path.read_text(encoding="utf-8")
    assert '"Greenwood": ""' in written and "map.csv, row " in written   # asked for, where it is written
    data = yaml.safe_load(written)
    data["labels"] = {key: f"DE {key}" for key in data["labels"]}
    data["labels"]["Greenwood"] = "Grünwald"
    for entry in data["rules"].values():
        entry["text"] = "## Regeln\n\n{{contents}}\n"
    data["cards"] = data.get("cards") or {}
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    checked = run("validate", "--game", "hex-map", root=root)
    assert checked.exit_code == 0, checked.stderr
    assert run("build", "--game", "hex-map", "--lang", "de", "--out", str(tmp_path / "out"), "-q", root=root).exit_code == 0
    board = next((tmp_path / "out/hex-map").glob("*whole-de.pdf"))
    text = pdf(board).pages[0].extract_text()
    assert "Grünwald" in text and "Greenwood" not in text, text


def test_a_repeats_words_are_asked_for_and_its_icon_names_are_not(root, tmp_path):
    """The Big Ten board's 1ST 2ND 3RD 4TH and HOME AWAY (a repeat's `items`, printed as
    `{item}`) stayed English in a German board, unasked; Monster Ball's roster cards repeat
    over stat names that are also icon names (`:{item}:`), which must stay as they are."""
    assert run("translate", "--game", "big-ten", "--lang", "de", root=root).exit_code == 0
    path = root / "card_data/big-ten/lang/de.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert {"1ST", "4TH", "HOME", "AWAY"} <= set(data["labels"])
    data["labels"].update({"1ST": "1.", "HOME": "HEIM"})
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert run("build", "--game", "big-ten", "--lang", "de", "--out", str(tmp_path / "out"), "-q", root=root).exit_code == 0
    words = pdf(tmp_path / "out/big-ten/board-whole-de.pdf").pages[0].extract_text().split()
    assert "HEIM" in words and "1." in words and "1ST" not in words   # ("HOME END ZONE:" is a label of its own)
    assert run("translate", "--game", "monster-ball", "--lang", "de", root=root).exit_code == 0
    asked = yaml.safe_load((root / "card_data/monster-ball/lang/de.yaml").read_text(encoding="utf-8"))["labels"]
    assert "tackle" not in asked and "pass" not in asked


def test_a_shared_text_left_out_is_told_once_with_the_one_place_to_write_it(root, tmp_path):
    """"No gain" taken out of the labels: validate told each of its cards apart, naming neither
    the text nor the label that serves them all, and advised an entry for every card."""
    assert run("translate", "--game", "big-ten", "--lang", "de", root=root).exit_code == 0
    path = root / "card_data/big-ten/lang/de.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    del data["labels"]["No gain"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    told = run("validate", "--game", "big-ten", "--all-problems", root=root).stderr
    lines = [line for line in told.splitlines() if "No gain" in line]
    assert len(lines) == 1, lines
    assert "'No gain', printed by " in lines[0] and "cards, has no translation into de" in lines[0]
    assert 'under labels: "No gain": ...' in lines[0] and "defense.yaml:" in lines[0]


def test_a_longer_translation_stays_inside_the_special_teams_panel(root, tmp_path):
    """The kick-off sentence had no box of its own, so a longer German one ran off the cream
    panel onto the border, a millimetre from the cut, unwarned."""
    import pypdfium2
    from conftest import placements
    assert run("translate", "--game", "big-ten", "--lang", "de", root=root).exit_code == 0
    path = root / "card_data/big-ten/lang/de.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    german = "Die empfangende Mannschaft beginnt an ihrer eigenen"
    data["labels"]["The receiving team starts on its own"] = german
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert run("build", "--game", "big-ten", "--lang", "de", "--out", str(tmp_path / "out"), "-q", root=root).exit_code == 0
    file = tmp_path / "out/big-ten/special-teams-letter-de.pdf"
    left, _, width, _ = placements(pdf(file).pages[0])[0]
    document = pypdfium2.PdfDocument(str(file))
    text = document[0].get_textpage()
    start = text.get_text_range().index(german)
    xs = [x for i in range(start, start + len(german)) for x in text.get_charbox(i)[::2]]
    mm = 72 / 25.4
    assert left + 4 * mm <= min(xs) and max(xs) <= left + width - 4 * mm, (min(xs) - left, max(xs) - left)


def test_a_field_no_component_prints_is_not_asked_for(root, tmp_path):
    """Big Ten's special teams cards are named "Special teams 1" to 20 for messages only, and
    its end zones print each team's short name, not its full one: 35 strings were asked for
    that no page prints, and validate counted each as missing."""
    assert run("translate", "--game", "big-ten", "--lang", "de", root=root).exit_code == 0
    written = (root / "card_data/big-ten/lang/de.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(written)
    assert "Special teams 1" not in written and "special-teams.yaml" not in data["cards"]
    teams = data["cards"].get("teams.yaml", {})
    assert teams and all(set(fields) == {"short"} for fields in teams.values()), teams
    told = run("validate", "--game", "big-ten", "--all-problems", root=root).stderr
    assert "Special teams 1" not in told and "teams.yaml" in told   # the short names are still asked


def test_a_label_of_several_lines_is_told_in_one(mini):
    """A translated label that drops its {power} hole: the label's line break went into the
    message, which then took three lines."""
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text().replace('    text: "{power}"', '    text: "Power is\\n{power}"'))
    (mini / "card_data/mini/lang").mkdir()
    (mini / "card_data/mini/lang/fr.yaml").write_text('labels:\n  "Power is\\n{power}": "Kraft"\n')
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    told = [line for line in result.stderr.splitlines() if "holes" in line]
    assert told and told[0].endswith("fr.yaml:2: labels.Power is {power}: the translation must keep the same "
                                     "{field} holes as 'Power is {power}'"), result.stderr
    assert "Power is\n" not in result.stderr


def test_translate_again_after_a_layout_word_changes_keeps_the_old_label_as_a_comment(tmp_path):
    """The trial's back said CREW, then THE CREW: the old label stayed among the labels, as if
    still printed. It goes to the comments at the file's end, as a renamed card's text does."""
    root, path = filled_babel(tmp_path)
    layout = root / "layouts/babel/card.yaml"
    layout.write_text(layout.read_text().replace('text: "ROAD"', 'text: "THE ROAD"'))
    again = run("translate", "--game", "babel", "--lang", "fr", root=root)
    assert again.exit_code == 0, again.stderr
    assert "1 for what the game no longer has, kept as comments" in again.output, again.output
    labels = yaml.safe_load(path.read_text(encoding="utf-8"))["labels"]
    assert "ROAD" not in labels and labels["THE ROAD"] == ""
    assert '#   label "ROAD": FR ROAD' in path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("code", ["de", "he"])
def test_translate_again_keeps_every_label_the_bundled_translations_have(root, code):
    """Nothing the 12th Player prints is dropped as no longer printed: its own wording of pnp's
    words (the rule sheet's "page") included, which a build takes without asking."""
    path = root / f"card_data/12th-player/lang/{code}.yaml"
    before = yaml.safe_load(path.read_text(encoding="utf-8"))["labels"]
    again = run("translate", "--game", "12th-player", "--lang", code, root=root)
    assert again.exit_code == 0 and "no longer has" not in again.output, again.output
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["labels"] == before


def test_translate_again_keeps_a_label_one_card_still_prints_and_pnps_own_words(mini):
    """Two cards shared a text, translated once among the labels; one changes its text: the
    other still prints the label, which stays (a review found it dropped, the card built in
    English). pnp's own words only some print options ask for stay too, in a language pnp
    ships none of its words in."""
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves along a diagonal.", "text: Moves in an L."))
    assert run("translate", "--game", "mini", "--lang", "fr", root=mini).exit_code == 0
    path = mini / "card_data/mini/lang/fr.yaml"
    filled_mini(path)
    short_edge = ("Print at 100 % (actual size, not fit to page), on both sides of the paper, "
                  "turning it on the short edge.")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["labels"]["Moves in an L."] == "FR Moves in an L."   # shared: one label
    data["labels"][short_edge] = "Imprimer à 100 %, recto verso, en tournant sur le bord court."
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    cards.write_text(cards.read_text().replace("text: Moves in an L.", "text: Jumps over.", 1))
    again = run("translate", "--game", "mini", "--lang", "fr", root=mini)
    assert again.exit_code == 0 and "no longer has" not in again.output, again.output
    labels = yaml.safe_load(path.read_text(encoding="utf-8"))["labels"]
    assert labels["Moves in an L."] == "FR Moves in an L." and short_edge in labels
    out = mini / "out"
    built = run("build", "--game", "mini", "--lang", "fr", "--out", str(out), "--duplex", "short-edge", root=mini)
    assert built.exit_code == 0 and "Print at 100 %" not in built.stderr, built.stderr
    text = " ".join(page.extract_text() for page in pdf(out / "mini/cards-a4-short-edge-fr.pdf").pages)
    assert "FR Moves in an L." in text


def test_translate_again_drops_a_shared_label_no_layout_prints_any_more(mini):
    """Cards still hold the value, but no layout prints the field: the label goes to the
    comments (a review found every card value kept as if printed)."""
    cards = mini / "card_data/mini/cards.yaml"
    text = cards.read_text().replace("  text: {type: text}\n", "  text: {type: text}\n  set: {type: text}\n")
    cards.write_text(text.replace("    count:", "    set: Base Game\n    count:"))
    layout = mini / "layouts/mini/card.yaml"
    plain = layout.read_text()
    layout.write_text(plain + '  - {kind: text, text: "{set}", size: 6, y: 60mm, h: 3mm}\n')
    assert run("translate", "--game", "mini", "--lang", "fr", root=mini).exit_code == 0
    path = mini / "card_data/mini/lang/fr.yaml"
    filled_mini(path)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["labels"]["Base Game"] == "FR Base Game"
    layout.write_text(plain)
    again = run("translate", "--game", "mini", "--lang", "fr", root=mini)
    assert again.exit_code == 0, again.stderr
    assert "Base Game" not in yaml.safe_load(path.read_text(encoding="utf-8"))["labels"]
    assert '#   label "Base Game": FR Base Game' in path.read_text(encoding="utf-8").splitlines()


def test_translate_again_keeps_what_card_entries_said(mini):
    """A card entry that would go (its field printed by no layout any more) is kept among the
    comments at the file's end; one whose text a label also prints, but says otherwise, stays
    (a review found both removed without a trace, the second changing the printed cards)."""
    layout = mini / "layouts/mini/card.yaml"
    plain = layout.read_text()
    layout.write_text(plain + '  - {kind: text, text: "Moves in an L.", size: 6, y: 60mm, h: 3mm}\n')
    assert run("translate", "--game", "mini", "--lang", "fr", root=mini).exit_code == 0
    path = mini / "card_data/mini/lang/fr.yaml"
    filled_mini(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["labels"]["Moves in an L."] == "FR Moves in an L."
    data["cards"]["cards.yaml"]["Knight"]["text"]["text"] = "Saute en L."   # the card says it its own way
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert run("translate", "--game", "mini", "--lang", "fr", root=mini).exit_code == 0
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["cards"]["cards.yaml"]["Knight"]["text"]["text"] == "Saute en L."
    layout.write_text(plain.replace('    text: "{text}"\n', '    text: "-"\n'))   # no layout prints the text field
    again = run("translate", "--game", "mini", "--lang", "fr", root=mini)
    assert again.exit_code == 0, again.stderr
    kept = path.read_text(encoding="utf-8").splitlines()
    assert "#   cards.yaml, card 'Knight', text: Saute en L." in kept
    assert "#   cards.yaml, card 'Bishop', text: FR Moves along a diagonal." in kept
