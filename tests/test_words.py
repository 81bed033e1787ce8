"""The words on the paper are checked too: a wrong number typed by hand into a rule sheet (any
language), a board, a sheet, a card's text, or a label over the wrong field fails `pnp
validate` with the file and line of the change; the games as written, and ordinary rewordings
of them, validate clean; every fact a page prints comes from the game's facts.yaml."""

from __future__ import annotations

import re

import pypdf
import pypdfium2
import pytest

from conftest import REPO, build, run

# (game, file, text as written, the designer's edit). The expected place is the file and the
# first line the edit changes.
MISTAKES = [
    # Big Ten: rule sheet, board, time-out card, contents list, card text, labels
    ("big-ten", "card_data/big-ten/rules.md", "**Touchdown, {fact:scoring.touchdown} points**", "**Touchdown, 7 points**"),
    ("big-ten", "card_data/big-ten/rules.md", "starts on its own {fact:touchback.yard-line}.", "starts on its own 25."),
    ("big-ten", "card_data/big-ten/rules.md", "Each player has {fact:time-outs.per-half} time outs per half",
     "Each player has 2 time outs per half"),
    ("big-ten", "card_data/big-ten/rules.md", "Gain {fact:first-down.yards} yards or more", "Gain 5 yards or more"),
    ("big-ten", "card_data/big-ten/rules.md", "A good kick scores {fact:scoring.field-goal} points;",
     "A good kick scores two points;"),
    ("big-ten", "card_data/big-ten/rules.md", "## Safety\n", "## Safety\n\nA safety is worth 3 points to the defense.\n"),
    ("big-ten", "layouts/big-ten/board.yaml", "within {fact:field-goal.within} yards of the end zone", "within 45 yards of the end zone"),
    ("big-ten", "layouts/big-ten/board.yaml", "roll {fact:extra-point.good} and it is good", "roll 1-4 and it is good"),
    ("big-ten", "layouts/big-ten/board.yaml", '"AFTER A TOUCHDOWN ({fact:scoring.touchdown} points)"', '"AFTER A TOUCHDOWN (7 points)"'),
    ("big-ten", "layouts/big-ten/time-out.yaml", "{fact:time-outs.per-half} per player each half", "2 per player each half"),
    ("big-ten", "card_data/big-ten/game.yaml", '"{fact:contents.time-out-cards} cards, {fact:time-outs.per-half} per player"',
     '"{fact:contents.time-out-cards} cards, 4 per player"'),
    ("big-ten", "card_data/big-ten/board.yaml", '["20-29", "1-4", "4 in 6"]', '["20-29", "1-4", "3 in 6"]'),
    ("big-ten", "layouts/big-ten/defense.yaml", '- ["{title:pass}", "[#555555|:pass@1.3:] {pass}"]',
     '- ["{title:pass}", "[#555555|:pass@1.3:] {run}"]'),
    ("big-ten", "layouts/big-ten/defense.yaml", '- ["{title:pass}", "[#555555|:pass@1.3:] {pass}"]',
     '- [Run, "[#555555|:pass@1.3:] {pass}"]'),
    ("big-ten", "card_data/big-ten/rules.md", "**Two-point try, {fact:scoring.two-point} points**", "**Two-point try, 3 points**"),
    ("big-ten", "layouts/big-ten/board.yaml", "Good: {fact:scoring.field-goal} points.", "Good: 2 points."),
    ("big-ten", "card_data/big-ten/game.yaml", '"{fact:contents.offense-cards} cards (run', '"50 cards (run'),
    ("big-ten", "card_data/big-ten/rules.md", "A half takes {fact:length.minutes.1} to", "A half takes 20 to"),
    # Jukem
    ("jukem", "card_data/jukem/rules.md", "deals each player {fact:deck.deal} cards", "deals each player five cards"),
    ("jukem", "card_data/jukem/rules.md", "When your drive is **{fact:field-goal.within} yards or fewer**",
     "When your drive is **40 yards or fewer**"),
    ("jukem", "card_data/jukem/rules.md", "A **touchdown** is worth {fact:scoring.touchdown} points", "A **touchdown** is worth 6 points"),
    ("jukem", "card_data/jukem/rules.md", "to **double** that play's yards", "to **triple** that play's yards"),
    ("jukem", "card_data/jukem/cards.yaml", "that run gains {bonus} yards.", "that run gains 15 more yards."),
    ("jukem", "card_data/jukem/cards.yaml", "Right after a play: double its yards", "Right after a play: triple its yards"),
    ("jukem", "card_data/jukem/cards.yaml", "Right after a play: double its yards", "Right after a play: x3 its yards"),
    ("jukem", "card_data/jukem/cards.yaml", "end the drive and score {fact:scoring.field-goal} points", "end the drive and score 2 points"),
    ("jukem", "layouts/jukem/card.yaml", "    text: YARDS\n", "    text: BONUS\n"),
    # Monster Ball
    ("monster-ball", "card_data/monster-ball/rules.md", "a field goal **{fact:scoring.field-goal} point**", "a field goal **3 points**"),
    ("monster-ball", "card_data/monster-ball/rules.md", "The first team to **{fact:scoring.victory} points**", "The first team to **12 points**"),
    ("monster-ball", "layouts/monster-ball/scoreboard.yaml", 'text: "{fact:scoring.victory} points wins"', 'text: "12 points wins"'),
    ("monster-ball", "layouts/monster-ball/field.yaml", '"LAW KICKS OFF FROM ITS {fact:kick-off.from}"', '"LAW KICKS OFF FROM ITS 60"'),
    ("monster-ball", "layouts/monster-ball/roster.yaml", "{kind: text, text: Pass, upper: true", "{kind: text, text: Catch, upper: true"),
    ("monster-ball", "card_data/monster-ball/game.yaml", "rows: [name, pass, catch, tackle, kick, cheat, move, effect]\n",
     "rows: [name, catch, pass, tackle, kick, cheat, move, effect]\n"),
    ("monster-ball", "card_data/monster-ball/rules.md", "A side has **{fact:downs.count} downs**", "A side has **3 downs**"),
    ("monster-ball", "card_data/monster-ball/rules.md", "from {fact:referees.calls.1} to {fact:referees.calls.2}:", "from 0 to 5:"),
    ("monster-ball", "layouts/monster-ball/roster.yaml", 'id: pass, text: "{pass}"', 'id: pass, text: "{catch}"'),
    # The 12th Player, in each language
    ("12th-player", "card_data/12th-player/rules.md", "**{fact:winning.touchdowns} touchdowns** wins", "**5 touchdowns** wins"),
    ("12th-player", "card_data/12th-player/rules.md", "1. Shuffle the {fact:deck.cards} cards.", "1. Shuffle the 16 cards."),
    ("12th-player", "card_data/12th-player/lang/de.yaml", "Wer als Erster **{fact:winning.touchdowns} Touchdowns** hat",
     "Wer als Erster **5 Touchdowns** hat"),
    ("12th-player", "card_data/12th-player/lang/de.yaml", "noch {fact:setting-up.two-players} weitere Karten", "noch drei weitere Karten"),
    ("12th-player", "card_data/12th-player/lang/he.yaml", "**{fact:winning.touchdowns} טאצ'דאונים**", "**5 טאצ'דאונים**"),
    ("12th-player", "card_data/12th-player/lang/he.yaml", "עוד {fact:setting-up.two-players} קלפים.", "עוד שלושה קלפים."),
    ("12th-player", "card_data/12th-player/lang/de.yaml", '"{fact:deck.cards} Karten mit den Werten', '"18 Karten mit den Werten'),
]


def changed_line(before: str, after: str) -> int:
    for number, (old, new) in enumerate(zip(before.splitlines(), after.splitlines()), start=1):
        if old != new:
            return number
    return min(len(before.splitlines()), len(after.splitlines())) + 1


@pytest.mark.parametrize("game, file, old, new", MISTAKES, ids=[f"{m[1].split('/')[-1]}: {m[3][:30]}" for m in MISTAKES])
def test_a_wrong_word_fails_validate_at_the_changed_line(root, game, file, old, new):
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    edited = text.replace(old, new, 1)
    path.write_text(edited, encoding="utf-8")
    result = run("validate", "--game", game, root=root)
    assert result.exit_code == 1, result.output
    place = f"{file}:{changed_line(text, edited)}:"
    assert place in result.stderr, result.stderr


REWORDINGS = [
    ("big-ten", "card_data/big-ten/rules.md", "**Touchdown, {fact:scoring.touchdown} points**", "**A touchdown scores 6 points**"),
    ("big-ten", "card_data/big-ten/rules.md", "Each player has {fact:time-outs.per-half} time outs per half",
     "Both players get three time outs in each half"),
    ("big-ten", "card_data/big-ten/rules.md", "## Safety\n", "## Safety\n\nA safety gives the defense 2 points and one more chance.\n"),
    ("big-ten", "card_data/big-ten/rules.md", "## Time outs\n", "## Time outs\n\nOne time out card is all it takes to redraw your 5 cards.\n"),
    ("big-ten", "layouts/big-ten/board.yaml", "within {fact:field-goal.within} yards of the end zone", "no more than 40 yards from the end zone"),
    ("big-ten", "layouts/big-ten/time-out.yaml", "{fact:time-outs.per-half} per player each half", "Three per player, each half."),
    ("jukem", "card_data/jukem/rules.md", "deals each player {fact:deck.deal} cards", "deals four cards to each player"),
    ("jukem", "card_data/jukem/rules.md", "## Halftime\n", "## Halftime\n\nAfter the first of the two halves, shuffle. A drive of 3 plays can score 7 points.\n"),
    ("jukem", "card_data/jukem/cards.yaml", "that run gains {bonus} yards.", "that run gains 10 more yards."),
    ("jukem", "card_data/jukem/cards.yaml", "Right after a play: double its yards", "Right after a play: its yards count twice"),
    ("jukem", "card_data/jukem/rules.md", "## How to win\n", "## How to win\n\nTwo halves, 56 cards, one winner: 7 for a touchdown, 3 for a field goal.\n"),
    ("big-ten", "layouts/big-ten/board.yaml", "Good: {fact:scoring.field-goal} points.", "Good: three points."),
    ("big-ten", "card_data/big-ten/rules.md", "Gain {fact:first-down.yards} yards or more", "Gain ten or more yards"),
    ("monster-ball", "card_data/monster-ball/rules.md", "The first team to **{fact:scoring.victory} points**",
     "Whoever first has **10 points**"),
    ("monster-ball", "card_data/monster-ball/rules.md", "## Movement\n", "## Movement\n\nOne step at a time: two squares for a diagonal one.\n"),
    ("12th-player", "card_data/12th-player/rules.md", "**{fact:winning.touchdowns} touchdowns** wins", "**four touchdowns** wins"),
    ("12th-player", "card_data/12th-player/rules.md", "## Good to know\n", "## Good to know\n\nOne round rarely takes more than 5 minutes with 3 players.\n"),
    ("12th-player", "card_data/12th-player/lang/de.yaml", "Wer als Erster **{fact:winning.touchdowns} Touchdowns** hat",
     "Wer als Erster **vier Touchdowns** hat"),
]


@pytest.mark.parametrize("game, file, old, new", REWORDINGS, ids=[f"{m[1].split('/')[-1]}: {m[3][:30]}" for m in REWORDINGS])
def test_a_rewording_that_keeps_the_facts_validates(root, game, file, old, new):
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    for lang in (root / "card_data" / game / "lang").glob("*.yaml"):   # the source moved on: say so
        lang.write_text(re.sub(r"translates: \w+", "translates: " + source_hash(root, game), lang.read_text()))
    result = run("validate", "--game", game, root=root)
    assert result.exit_code == 0, result.stderr


def source_hash(root, game) -> str:
    from pnp.lang.file import rules_hash
    return rules_hash((root / "card_data" / game / "rules.md").read_text(encoding="utf-8"))


def test_an_unknown_fact_is_an_error_at_its_line_with_the_nearest_name(root):
    path = root / "card_data/big-ten/rules.md"
    text = path.read_text()
    path.write_text(text.replace("{fact:scoring.touchdown}", "{fact:scoring.touchdwn}", 1))
    line = changed_line(text, path.read_text())
    result = run("validate", "--game", "big-ten", root=root)
    assert result.exit_code == 1
    assert f"card_data/big-ten/rules.md:{line}:" in result.stderr
    assert "did you mean 'scoring.touchdown'" in result.stderr


def test_an_unknown_fact_in_a_layout_names_the_layout_line(root):
    path = root / "layouts/big-ten/time-out.yaml"
    text = path.read_text()
    path.write_text(text.replace("{fact:time-outs.per-half}", "{fact:time-out.per-half}"))
    result = run("validate", "--game", "big-ten", root=root)
    assert result.exit_code == 1
    assert re.search(r"layouts/big-ten/time-out.yaml:\d+: .*time-out.per-half.*did you mean 'time-outs.per-half'",
                     result.stderr), result.stderr


def test_a_translation_refers_to_the_same_facts(root):
    path = root / "card_data/12th-player/lang/de.yaml"
    text = path.read_text()
    path.write_text(text.replace('"{fact:deck.cards} Karten mit den Werten {fact:deck.values.1}',
                                 '"{fact:deck.cards} Karten mit den Werten {fact:deck.cards}', 1))
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    assert re.search(r"de.yaml:\d+: .*same facts", result.stderr), result.stderr


def test_a_wrong_source_number_is_told_at_the_source_and_the_translation_only_as_out_of_date(root):
    path = root / "card_data/12th-player/rules.md"
    text = path.read_text()
    path.write_text(text.replace("**{fact:winning.touchdowns} touchdowns** wins", "**5 touchdowns** wins"))
    line = changed_line(text, path.read_text())
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    assert f"card_data/12th-player/rules.md:{line}:" in result.stderr
    lang_lines = [line for line in result.stderr.splitlines() if "lang/" in line]
    assert lang_lines and all("out of date" in line for line in lang_lines), result.stderr


def test_the_promised_examples_are_kept(root):
    """Jukem's notes promise a 15-yard RUN (the PANCAKE BLOCK! example): removing it fails at
    the notes that promise it."""
    path = root / "card_data/jukem/cards.yaml"
    text = path.read_text()
    path.write_text(text.replace("yards: 15, count: 3,", "yards: 20, count: 3,"))
    result = run("validate", "--game", "jukem", root=root)
    assert result.exit_code == 1
    assert re.search(r"card_data/jukem/cards.yaml:3: designed: no card has type run, yards 15.*pancake-run",
                     result.stderr), result.stderr


def test_a_result_table_mistake_names_the_card_line_and_index(root):
    """Three cards are called Goal Line Stack: the message names the one edited, by line and index."""
    path = root / "card_data/big-ten/defense.yaml"
    lines = path.read_text().splitlines(keepends=True)
    number = [i for i, line in enumerate(lines) if '"Goal Line Stack"' in line][1]
    lines[number] = lines[number].replace('pass: "Card yards"', 'pass: "No gain"')
    path.write_text("".join(lines))
    result = run("validate", "--game", "big-ten", root=root)
    assert result.exit_code == 1
    assert re.search(rf"defense.yaml:{number + 1}: cards\[7\]: card 'Goal Line Stack'", result.stderr), result.stderr


def pdf_text(path) -> str:
    return " ".join(" ".join((page.extract_text() or "").split()) for page in pypdf.PdfReader(str(path)).pages)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("words")
    for game in ("12th-player", "jukem", "big-ten", "monster-ball"):
        build(REPO, game, out, "--lang", "all") if game == "12th-player" else build(REPO, game, out)
    return out


def test_the_facts_are_printed_from_facts_yaml(built):
    rules = pdf_text(built / "big-ten/rules-letter.pdf")
    assert "Touchdown, 6 points" in rules and "within 40 yards" in rules and "its own 20" in rules
    assert "1 to 5 is good, 6 misses" in rules and "3 time outs per half" in rules
    assert "Two-point try, 2 points" in rules and "Offense (60)" in rules
    jukem = pdf_text(built / "jukem/rules-letter.pdf")
    assert "worth 7 points" in jukem and "a 15-yard run becomes 25" in jukem
    assert "+10 yards" in pdf_text(built / "jukem/cards-letter.pdf")   # the card's own bonus
    assert "LAW KICKS OFF FROM ITS 70" in pdf_text(built / "monster-ball/field-letter.pdf")
    assert "10 points wins" in pdf_text(built / "monster-ball/scoreboard-letter.pdf")
    german = pdf_text(built / "12th-player/rules-letter-de.pdf")
    assert "4 Touchdowns" in german and "Mischt die 17 Karten" in german


def every_page_text(path) -> str:
    """All of a PDF's text, read by pdfium (pypdf takes a minute over every file of four games)."""
    document = pypdfium2.PdfDocument(str(path))
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


def test_no_reference_is_left_unresolved_on_any_page(built):
    paths = sorted(built.rglob("*.pdf"))
    assert len(paths) > 30   # every game's files, and 12th Player's editions
    for path in paths:
        text = every_page_text(path)
        assert "{fact:" not in text and "{title:" not in text, path


def test_facts_are_read_again_only_when_facts_yaml_changes(root, monkeypatch):
    """A game and its translated copies share one reading; an edit is read at the next use
    (watch and serve keep the process)."""
    import copy

    from pnp import inputs
    from pnp.contents.stated import facts_of
    monkeypatch.setattr(inputs, "SETTLED", -1)   # keep even a file saved a moment ago
    from pnp.project import Project
    game = Project(root).game("big-ten")
    first = facts_of(game)
    assert facts_of(copy.copy(game)) is first
    facts = root / "card_data/big-ten/facts.yaml"
    facts.write_text(facts.read_text().replace("touchdown: {value: 6,", "touchdown: {value: 7,"))
    assert facts_of(game).get("scoring.touchdown").value == 7
