"""Translated builds (pnp.lang): The 12th Player in German and Hebrew, read back from the PDFs;
what `pnp validate` says about a translation that lacks a string or has fallen behind; the
errors for a language the game lacks and for bad input in a lang file."""

from __future__ import annotations

import re
import subprocess
import sys

import pypdfium2
import pytest

from conftest import REPO, build, pdf, run

GAME = "12th-player"


@pytest.fixture(scope="module")
def translated(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    build(REPO, GAME, out, "--lang", "all", "--quiet")
    return out / GAME


def text_of(path) -> str:
    return "\n".join(page.extract_text() for page in pdf(path).pages)


def glyphs(path, page: int = 0) -> list[tuple[str, float]]:
    """Each character pdfium finds on a page, with the left edge of its glyph."""
    textpage = pypdfium2.PdfDocument(str(path))[page].get_textpage()
    found = []
    for index in range(textpage.count_chars()):
        char = textpage.get_text_range(index, 1)
        if char.strip():
            found.append((char, textpage.get_charbox(index)[0]))
    return found


def lefts(path, word: str, page: int = 0) -> list[float]:
    """The left edges of the glyphs of `word` (in reading order) where it is first printed."""
    chars = glyphs(path, page)
    joined = "".join(c for c, _ in chars)
    start = joined.find(word)
    assert start >= 0, f"{word!r} not on page {page + 1} of {path.name}"
    return [x for _, x in chars[start:start + len(word)]]


def test_lang_all_writes_each_language_under_its_own_names(translated):
    names = sorted(p.name for p in translated.iterdir() if not p.name.startswith("."))
    assert names == sorted(f"{stem}-letter-{code}.pdf" for code in ("de", "he")
                           for stem in ("cards", "rules", "tuck-boxes", f"{GAME}-print-all"))


def test_german_words_on_the_cards_backs_and_rule_sheet(translated):
    cards = text_of(translated / "cards-letter-de.pdf")
    for word in ("Trainer", "Schiedsrichter", "Stadionsprecher", "Ballverlust!", "Passverteidiger",
                 "Sieh dir heimlich die Karte eines Mitspielers an.", "DER", "12. MANN"):
        assert word in " ".join(cards.split()), word
    assert "Referee" not in cards and "Secretly" not in cards and "12TH PLAYER" not in cards
    rules = " ".join(text_of(translated / "rules-letter-de.pdf").split())
    for words in ("Der 12. Mann — so wird gespielt", "Vorbereitung", "Mischt die 17 Karten.",
                  "Wert Karte Anzahl Wirkung", "Seite 1", "17 Karten mit den Werten 2 bis 12"):
        assert words in rules, words
    assert "how to play" not in rules and "Shuffle" not in rules


def test_hebrew_is_printed_right_to_left(translated):
    cards = translated / "cards-letter-he.pdf"
    for word in ("שופט", "מאמן", "השחקן"):   # the first letter read is the rightmost
        xs = lefts(cards, word)
        assert xs == sorted(xs, reverse=True) and xs[0] > xs[-1], (word, xs)
    rules = translated / "rules-letter-he.pdf"
    xs = lefts(rules, "טאצ'דאון")
    assert xs == sorted(xs, reverse=True)
    # "(הארכה)": the bracket read first is on the right, drawn mirrored, so pdfium reads the
    # page's brackets from left to right as the closing one, then the opening one
    marks = [(c, x) for c, x in glyphs(rules) if c in "()"]
    assert [c for c, _ in sorted(marks, key=lambda m: m[1])] == [")", "("]
    # a right-to-left sheet starts in its right-hand column: the opening words are right of the table
    assert lefts(rules, "ביציע")[0] > lefts(rules, "קוורטרבק")[0]


def test_hebrew_pages_draw_hebrew_letters_not_empty_boxes(translated):
    for name in ("cards-letter-he.pdf", "rules-letter-he.pdf", "tuck-boxes-letter-he.pdf"):
        assert "השחקן" in text_of(translated / name), name


def test_the_covers_note_of_the_bleed_is_in_the_builds_language(tmp_path):
    """Poker cards 3x3 on Letter get less bleed than asked; the print-all cover says which
    edges got how much in German or Hebrew, while the build's own warning stays English."""
    result = build(REPO, GAME, tmp_path, "--lang", "all", "--bleed", "--quiet")
    assert "3 mm bleed asked, the paper leaves" in result.stderr
    said = {code: pypdfium2.PdfDocument(str(tmp_path / GAME / f"{GAME}-print-all-letter-bleed-{code}.pdf"))[0]
            .get_textpage().get_text_range() for code in ("de", "he")}
    assert "3 mm Anschnitt verlangt, das Papier lässt" in said["de"] and "zwischen den Spalten" in said["de"]
    assert "של גלישה, הנייר משאיר" in said["he"] and "בין העמודות" in said["he"]
    assert not [code for code, text in said.items() if "bleed" in text or "between" in text]


def test_a_translated_build_gives_the_same_bytes_twice(tmp_path, translated):
    again = tmp_path / "again"
    build(REPO, GAME, again, "--lang", "he", "--quiet")
    for name in ("cards-letter-he.pdf", "rules-letter-he.pdf", f"{GAME}-print-all-letter-he.pdf"):
        assert (again / GAME / name).read_bytes() == (translated / name).read_bytes(), name


def test_a_build_without_lang_loads_no_translation_code(tmp_path):
    """A plain build only looks at lang/ (to keep the output folder tidy); it never imports
    what loads, applies or checks a translation."""
    script = ("import sys; from pnp.cli import main; sys.argv = ['pnp', 'build', '--game', '12th-player', "
              f"'--out', {str(tmp_path)!r}, '--quiet']\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "print(sorted(m for m in sys.modules if m.startswith('pnp.lang.')))")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert (tmp_path / GAME / "cards-letter.pdf").is_file()


def test_a_language_the_game_lacks_is_one_error_listing_its_languages():
    result = run("build", "--game", GAME, "--lang", "fr", "--out", "/nonexistent/never", root=REPO)
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: 12th-player has no translation 'fr'; its languages: de, he; "
                                     "`pnp translate --game 12th-player --lang fr` starts one")
    assert "Traceback" not in result.output + result.stderr
    result = run("build", "--game", GAME, "--lang", "../fr", "--out", "/nonexistent/never", root=REPO)
    assert result.exit_code == 1 and "'../fr' is no language code" in result.stderr, result.stderr
    assert "pnp translate" not in result.stderr   # it would refuse the same code


def test_lang_all_for_a_game_without_translations_says_so(tmp_path):
    result = run("build", "--game", "jukem", "--lang", "all", "--out", str(tmp_path), root=REPO)
    assert result.exit_code == 1
    assert "jukem has no translations; `pnp translate --game jukem --lang CODE` writes " \
        "card_data/jukem/lang/CODE.yaml" in result.stderr


def test_lang_all_with_every_game_builds_the_translated_ones_and_notes_the_others(tmp_path):
    result = run("build", "--all", "--lang", "all", "--out", str(tmp_path), "-q", root=REPO)
    assert result.exit_code == 0, result.stderr
    assert "jukem: no translations, nothing to build in other languages" in result.stderr
    assert (tmp_path / "12th-player/cards-letter-de.pdf").is_file() and not (tmp_path / "jukem").exists()
    none = run("build", "--all", "--lang", "all", "--out", str(tmp_path / "none"), root=REPO / "examples/hex-map")
    assert none.exit_code == 1 and "no game here has a translation" in none.stderr   # nothing at all to build


def test_shop_files_are_made_in_another_language_in_a_folder_named_with_its_code(tmp_path):
    result = run("build", "--game", GAME, "--lang", "de", "--shop", "tgc", "--out", str(tmp_path), root=REPO)
    assert result.exit_code == 0, result.output
    german = sorted(p.name for p in (tmp_path / GAME / "tgc-de").rglob("*.png"))
    assert german and not (tmp_path / GAME / "tgc").exists()


def test_validate_is_clean_for_the_shipped_translations():
    result = run("validate", "--game", GAME, root=REPO)
    assert result.exit_code == 0, result.stderr
    assert "12th-player: ok" in result.output


def replace_in(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_validate_reports_a_missing_and_a_stale_translation_with_file_and_line(root):
    game = root / "card_data" / GAME
    de = game / "lang" / "de.yaml"
    replace_in(de, '      name: {source: "Secondary", text: "Passverteidiger"}\n', "")   # missing
    replace_in(game / "cards.yaml", "Secretly look at the card", "Secretly peek at the card")   # stale
    result = run("validate", "--game", GAME, root=root)
    assert result.exit_code == 1
    errors = result.stderr.splitlines()
    card_line = line_of(game / "cards.yaml", "name: Secondary") - 1   # the card's `- value:` line
    assert (f"error: {game / 'cards.yaml'}:{card_line}: cards[7].name: card 'Secondary' has no "
            f"translation into de (Deutsch) (add to {de} under cards: cards.yaml: Secondary: "
            f"name: {{source: ..., text: ...}})") in errors
    stale = [e for e in errors if "out of date" in e]
    assert len(stale) == 2   # German and Hebrew both translate the old text
    source_line = line_of(de, "Secretly look at the card") - 1   # its `source: >-` line
    assert stale[0].startswith(f"error: {de}:{source_line}: cards.cards.yaml.Secondary.text.source: "
                               f"out of date: the source text of card 'Secondary' changed since this "
                               f"translation; it now reads 'Secretly peek at the card of another player.'")


def test_a_card_whose_text_changed_since_its_translation_prints_the_new_text(root, tmp_path):
    """The old translation would print the old rule ("look" where the card now says "peek"):
    the card prints its source text, and the build's warning says so."""
    game = root / "card_data" / GAME
    replace_in(game / "cards.yaml", "Secretly look at the card", "Secretly peek at the card")
    result = run("build", "--game", GAME, "--lang", "de", "--out", str(tmp_path), root=root)
    assert result.exit_code == 0, result.stderr
    assert "it now reads 'Secretly peek at the card of another player.', which the card prints until it is " \
           "translated" in result.stderr, result.stderr
    text = " ".join(" ".join(page.extract_text() for page in pdf(tmp_path / GAME / "cards-letter-de.pdf").pages).split())
    assert "Secretly peek at the card of another player." in text
    assert "Sieh dir heimlich" not in text
    assert "Passverteidiger" in text   # the card's other, current, translations still print


def test_a_missing_translation_of_a_spreadsheet_card_names_its_row_and_field(mini):
    game = mini / "card_data" / "mini"
    (game / "cards.csv").write_text("name,power,colour,text,count\nKnight,3,navy,Moves in an L.,4\nBishop,2,navy,Diagonally.,2\n", encoding="utf-8")
    replace_in(game / "game.yaml", "data: cards.yaml", "data: cards.csv")
    (game / "lang").mkdir()
    (game / "lang" / "de.yaml").write_text("language: Deutsch\n", encoding="utf-8")
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert re.search(r"error: \S*card_data/mini/cards\.csv, row 3 \(name\): card 'Bishop' has no translation into "
                     r"de \(Deutsch\)", result.stderr), result.stderr


def test_a_game_title_without_a_translation_names_its_line(root):
    game = root / "card_data" / GAME
    replace_in(game / "game.yaml", "title: The 12th Player", "title: The Twelfth Player")
    result = run("validate", "--game", GAME, root=root)
    assert result.exit_code == 1
    assert (f"error: {game / 'game.yaml'}:{line_of(game / 'game.yaml', 'title: The Twelfth')}: title: "
            f"'The Twelfth Player' has no translation into de (Deutsch)") in result.stderr, result.stderr


def test_validate_reports_a_rule_sheet_changed_since_its_translation(root):
    game = root / "card_data" / GAME
    replace_in(game / "rules.md", "1. Shuffle the {fact:deck.cards} cards.", "1. Shuffle all {fact:deck.cards} cards well.")
    result = run("validate", "--game", GAME, root=root)
    assert result.exit_code == 1
    de = game / "lang" / "de.yaml"
    line = line_of(de, "    translates: ")
    assert re.search(rf"^error: {re.escape(str(de))}:{line}: rules\.rules\.md\.translates: out of date: "
                     rf"rules\.md changed since this translation \(it is now [0-9a-f]{{12}}, the translation "
                     rf"says 570c03b7e9e8\) \(bring the translation up to date, then set translates: [0-9a-f]{{12}}\)$",
                     result.stderr, re.M), result.stderr


def test_validate_reports_layout_text_without_a_translation(root):
    back = root / "layouts" / GAME / "back.yaml"
    replace_in(back, "text: THE\n", "text: THE ONE\n")
    result = run("validate", "--game", GAME, root=root)
    assert result.exit_code == 1
    assert (f"error: {back}:{line_of(back, 'THE ONE')}: elements[5].text: 'THE ONE' has no translation "
            f"into de (Deutsch)") in result.stderr


@pytest.mark.parametrize("old, new, message", [
    ('    "Coach":\n', '    "Coach Carter":\n',
     "cards.cards.yaml.Coach Carter: unknown card 'Coach Carter': cards.yaml has no card of that name"),
    ('      name: {source: "Coach", text: "Trainer"}', '      nmae: {source: "Coach", text: "Trainer"}',
     "cards.cards.yaml.Coach.nmae: unknown field 'nmae' (did you mean 'name'?)"),
    ('      name: {source: "Coach", text: "Trainer"}', '      name: {source: "Coach", text: 12}',
     "cards.cards.yaml.Coach.name.text: expected text, found the number 12"),
    ('      name: {source: "Coach", text: "Trainer"}', '      name: {source: "Coach", text: "Trainer"',
     "YAML syntax"),
    ('  "THE": "DER"', '  "{value} THE": "DER"',
     "labels.{value} THE: the translation must keep the same {field} holes as '{value} THE'"),
    # the structure of `cards:` is typed as it loads, like every other key
    ('      name: {source: "Coach", text: "Trainer"}', '      name: {source: "Coach", txet: "Trainer"}',
     "cards.cards.yaml.Coach.name.txet: unknown key 'txet' (did you mean 'text'?)"),
    ('      name: {source: "Coach", text: "Trainer"}', '      name: {source: "Coach"}',
     "cards.cards.yaml.Coach.name: missing required key 'text'"),
    ('      name: {source: "Coach", text: "Trainer"}', '      name: [Coach, Trainer]',
     "cards.cards.yaml.Coach.name: expected a map of settings, found a list"),
    ('  cards.yaml:\n', '  cards.yaml: Trainer\n  other:\n',
     "cards.cards.yaml: expected a map, found the text 'Trainer'"),
])
def test_bad_input_in_a_lang_file_is_one_line_with_file_line_and_field(root, tmp_path, old, new, message):
    de = root / "card_data" / GAME / "lang" / "de.yaml"
    replace_in(de, old, new)
    for command in (["validate", "--game", GAME], ["build", "--game", GAME, "--lang", "de", "--out", str(tmp_path)]):
        result = run(*command, root=root)
        assert result.exit_code == 1, result.output
        errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and errors[0].startswith(f"error: {de}:"), result.stderr
        assert message in errors[0]
        assert "Traceback" not in result.output + result.stderr


def test_each_language_keeps_its_own_build_record(tmp_path):
    """Building another language in between does not make a language build again."""
    build(REPO, GAME, tmp_path, "--lang", "de", "--quiet")
    build(REPO, GAME, tmp_path, "--lang", "he", "--quiet")
    build(REPO, GAME, tmp_path, "--quiet")
    again = build(REPO, GAME, tmp_path, "--lang", "de")
    assert "12th-player (de): up to date" in again.output


def test_the_files_of_a_translation_that_is_gone_are_removed(root, tmp_path):
    build(root, GAME, tmp_path, "--lang", "de", "--quiet")
    assert (tmp_path / GAME / "cards-letter-de.pdf").is_file()
    (root / "card_data" / GAME / "lang" / "de.yaml").unlink()
    build(root, GAME, tmp_path, "--quiet")
    assert not (tmp_path / GAME / "cards-letter-de.pdf").exists()
    assert (tmp_path / GAME / "cards-letter.pdf").is_file()


def test_watch_with_lang_rebuilds_a_translation_when_its_file_is_saved(root, tmp_path):
    from test_edit_loop import Lines
    process = subprocess.Popen([sys.executable, "-m", "pnp", "watch", "--game", GAME, "--lang", "de",
                                "--root", str(root), "--out", str(tmp_path), "--interval", "0.1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        out = Lines(process.stdout)
        out.wait_for(f"{GAME}: rebuilt")
        assert "Schiedsrichter" in text_of(tmp_path / GAME / "cards-letter-de.pdf")
        replace_in(root / "card_data" / GAME / "lang" / "de.yaml", '"Schiedsrichter"', '"Unparteiischer"')
        out.wait_for(f"{GAME}: rebuilt")
        assert "Unparteiischer" in text_of(tmp_path / GAME / "cards-letter-de.pdf")
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_hebrew_translation_with_a_latin_label_is_still_set_right_to_left(root, tmp_path):
    """A name kept in Latin letters (a brand, a designer's name) does not turn the edition
    around: one right-to-left label makes the translation right-to-left."""
    he = root / "card_data" / GAME / "lang" / "he.yaml"
    replace_in(he, '"Game by Don Eisele": "משחק מאת דון אייזלי"', '"Game by Don Eisele": "Don Eisele"')
    build(root, GAME, tmp_path, "--lang", "he")
    rules = tmp_path / GAME / "rules-letter-he.pdf"
    # a right-to-left sheet starts in its right-hand column: the opening words are right of the table
    assert lefts(rules, "ביציע")[0] > lefts(rules, "קוורטרבק")[0]


def test_a_label_with_facts_not_yet_translated_is_told_as_not_yet_not_refused(root):
    """`pnp translate` writes an empty text beside a label that refers to facts: the file
    must load (and validate name it as not translated), where it was refused outright for
    not referring to the same facts."""
    path = root / "card_data/12th-player/lang/de.yaml"
    text = path.read_text(encoding="utf-8")
    label = '"{fact:deck.cards} cards valued {fact:deck.values.1} to {fact:deck.values.2}": '
    start = text.index(label) + len(label)
    path.write_text(text[:start] + '""' + text[text.index("\n", start):], encoding="utf-8")
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1 and "must refer to the same facts" not in result.stderr, result.stderr
    assert "is not translated into de (Deutsch) yet" in result.stderr and "de.yaml:" in result.stderr


def test_a_problem_in_a_translated_text_is_told_at_the_translations_line(tmp_path):
    """An unknown icon or a text too long for its box, written in lang/de.yaml, is named there
    (the trial's `:blatt:` was told at the English data file, which does not hold it)."""
    from test_every_edition import babel_root
    root = babel_root(tmp_path / "root")
    lang = root / "card_data/babel/lang/de.yaml"
    text = lang.read_text(encoding="utf-8")
    line = next(number for number, written in enumerate(text.splitlines(), 1) if "Nimm 1 :lantern: und" in written)
    lang.write_text(text.replace("Nimm 1 :lantern: und", "Nimm 1 :blatt: und"), encoding="utf-8")
    refused = run("build", "--game", "babel", "--lang", "de", "--out", str(tmp_path / "out"), root=root)
    assert refused.exit_code == 1
    assert f"card_data/babel/lang/de.yaml:{line}: card 'Lamplighter', text: no icon ':blatt:'" in refused.stderr
    lang.write_text(text.replace("Nimm 1 :lantern: und", "Nimm 1 :lantern: und " + "sehr " * 400), encoding="utf-8")
    warned = run("build", "--game", "babel", "--lang", "de", "--out", str(tmp_path / "out"), root=root)
    assert warned.exit_code == 0
    assert f"card_data/babel/lang/de.yaml:{line}: card 'Lamplighter', text: text 'Nimm 1" in warned.stderr
    assert "does not fit its box" in warned.stderr


def test_an_unknown_icon_in_a_translated_label_is_told_at_the_translations_line(tmp_path):
    """A layout's fixed words come from the label in a translated build: an icon typo there is
    told at the lang file's line, not at the first card's data line."""
    from test_every_edition import babel_root
    root = babel_root(tmp_path / "root")
    back = root / "layouts/babel/back.yaml"
    back.write_text(back.read_text().replace('text: ":lantern@3:"', 'text: "LANTERN ROAD :lantern:"'))
    lang = root / "card_data/babel/lang/ar.yaml"
    replace_in(lang, '"LANTERN ROAD": "طريق الفوانيس"', '"LANTERN ROAD :lantern:": "طريق الفوانيس :lanterns:"')
    line = line_of(lang, ":lanterns:")
    assert run("build", "--game", "babel", "--out", str(tmp_path / "out"), root=root).exit_code == 0
    refused = run("build", "--game", "babel", "--lang", "ar", "--out", str(tmp_path / "out"), root=root)
    assert refused.exit_code == 1
    assert f"card_data/babel/lang/ar.yaml:{line}: labels.LANTERN ROAD :lantern:: no icon ':lanterns:' in icons/" \
        in refused.stderr, refused.stderr
    assert "layouts/babel/back.yaml:4)" in refused.stderr and "cards.yaml" not in refused.stderr
