"""Every printed fact agrees with the documents: a designer's mistake against them fails
`pnp validate` with the card's file and line, the field, the value found and the value stated
with its section."""

from __future__ import annotations

import re

import pytest

from conftest import run

MISTAKES = [
    ("monster-ball", "monsters.yaml", "name: Barbarian, pass: 2, catch: 2, tackle: 4",
     "name: Barbarian, pass: 2, catch: 2, tackle: 3", r"monsters.yaml:16: .*Barbarian.*tackle is 3.*Team Law.*says 4"),
    ("monster-ball", "monsters.yaml", "name: Dwarf, pass: 1, catch: 1, tackle: 2, kick: 1, cheat: 4",
     "name: Dwarf, pass: 1, catch: 1, tackle: 2, kick: 4, cheat: 1", r"monsters.yaml:17: .*Dwarf.*kick is 4"),
    ("monster-ball", "monsters.yaml", "move: Slam!, effect: Tackle someone who hustles past you}\n  - {team: law, name: Wizard",
     "move: Slam!, effect: Tackle anyone}\n  - {team: law, name: Wizard", r"monsters.yaml:22: .*Werebear.*effect"),
    ("monster-ball", "monsters.yaml", "name: Wizard, pass: 2, catch: 2, tackle: 1, kick: 4, cheat: 4, move: Magic Tackle!",
     "name: Wizard, pass: 2, catch: 2, tackle: 1, kick: 4, cheat: 4, move: Magic Missile!", r"monsters.yaml:23: .*Wizard.*move"),
    ("monster-ball", "monsters.yaml", "name: Your monster, count: 9", "name: Your monster, count: 8",
     r"monsters.yaml:34: .*Your monster.*8 copies.*says 9"),
    ("monster-ball", "tokens.yaml", "name: Pixie, hustle: 3, block: 2", "name: Pixie, hustle: 2, block: 3",
     r"tokens.yaml:17: .*Pixie.*hustle is 2"),
    ("monster-ball", "tokens.yaml", "name: Dwarf, hustle: 2, block: 5, count: 4", "name: Dwarf, hustle: 2, block: 5, count: 3",
     r"tokens.yaml:18: .*Dwarf.*3 copies.*says 4"),
    ("jukem", "cards.yaml", "title: RUN, colour: black, side: offense, yards: 5,",
     "title: CATCH, colour: black, side: offense, yards: 5,", r"cards.yaml:23: .*title is 'CATCH'.*says 'RUN'"),
    ("jukem", "cards.yaml", 'bonus: "+10"', 'bonus: "+20"', r"cards.yaml:\d+: .*PANCAKE BLOCK!.*bonus is '\+20'"),
    ("big-ten", "offense.yaml", '{type: run, kind: RUN, play: "Dive", yards: 1}',
     '{type: run, kind: PASS, play: "Dive", yards: 1}', r"offense.yaml:13: .*Dive.*kind is 'PASS'.*says 'RUN'"),
    ("big-ten", "teams.yaml", 'name: Illinois, short: ILLINOIS, primary: "#13294B"',
     'name: Illinois, short: ILLINOIS, primary: "#13294C"', r"teams.yaml:10: .*Illinois.*primary.*our reading"),
    ("12th-player", "cards.yaml", "value: 12", "value: 13", r"cards.yaml:\d+: .*Coach.*value is 13.*CARDS.*says 12"),
]


@pytest.mark.parametrize("game, data, old, new, message", MISTAKES, ids=[m[4][:40] for m in MISTAKES])
def test_a_value_that_contradicts_the_documents_fails_validate_at_the_card(root, game, data, old, new, message):
    path = root / "card_data" / game / data
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    result = run("validate", "--game", game, root=root)
    assert result.exit_code == 1
    assert re.search(message, result.stderr), result.stderr


def test_a_card_type_the_documents_name_cannot_vanish(root):
    path = root / "card_data/jukem/cards.yaml"
    lines = path.read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if "type: sack" in line)
    del lines[start:start + 2]          # the entry and its text line
    path.write_text("".join(lines))
    result = run("validate", "--game", "jukem", root=root)
    assert result.exit_code == 1
    assert re.search(r"facts.yaml:\d+: card-types\[\d+\]: the documents name type 'sack'", result.stderr), result.stderr


def test_a_thing_the_documents_do_not_name_is_refused(root):
    path = root / "card_data/monster-ball/monsters.yaml"
    path.write_text(path.read_text().replace("name: Barbarian,", "name: Berserker,"))
    result = run("validate", "--game", "monster-ball", root=root)
    assert result.exit_code == 1
    assert re.search(r"monsters.yaml:16: .*'Berserker' is not named by the documents", result.stderr)
    assert re.search(r"facts.yaml:\d+: monsters\[1\]: the documents name name 'Barbarian'", result.stderr)


def test_two_mistakes_are_both_reported(root):
    path = root / "card_data/monster-ball/monsters.yaml"
    text = path.read_text().replace("name: Barbarian, pass: 2", "name: Barbarian, pass: 5")
    path.write_text(text.replace("name: Orc, pass: 1", "name: Orc, pass: 6"))
    result = run("validate", "--game", "monster-ball", root=root)
    assert result.exit_code == 1
    assert "Barbarian" in result.stderr and "Orc" in result.stderr


def test_every_rule_problem_names_a_file_and_line(root):
    game = root / "card_data/12th-player/game.yaml"
    game.write_text(game.read_text().replace("equals: 17", "equals: 18"))
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    for line in result.stderr.splitlines():
        if line.startswith("error:"):
            assert re.match(r"error: \S+:\d+: ", line), line


def test_count_zero_switches_a_card_off(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("count: 2", "count: 0"))
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("equals: 6", "equals: 4"))
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    from conftest import pdf
    text = pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text()
    assert "Knight" in text and "Bishop" not in text


def test_a_draft_builds_despite_rule_problems_and_says_so_on_every_page(mini, tmp_path):
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("equals: 6", "equals: 7"))
    assert run("build", "--game", "mini", "--out", str(tmp_path), root=mini).exit_code == 1
    result = run("build", "--game", "mini", "--draft", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    assert "warning: draft:" in result.stderr and "state 7" in result.stderr
    from conftest import pdf
    for name in ("cards-a4-draft.pdf", "rules-a4-draft.pdf"):
        for page in pdf(tmp_path / "mini" / name).pages:
            assert "DRAFT" in page.extract_text(), name
    # data errors still stop a draft
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("power: 3", "power: three"))
    assert run("build", "--game", "mini", "--draft", "--out", str(tmp_path), root=mini).exit_code == 1


def test_past_fifty_problems_the_rest_are_counted(root):
    path = root / "card_data/big-ten/teams.yaml"
    import re as regex
    path.write_text(regex.sub(r'primary: "#[0-9A-Fa-f]{6}"', 'primary: "#000001"', path.read_text()))
    offense = root / "card_data/big-ten/offense.yaml"
    offense.write_text(regex.sub(r"kind: [A-Z-]+,", "kind: WRONG,", offense.read_text()))
    result = run("validate", "--game", "big-ten", root=root)
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 51, lines[-3:]
    more = regex.fullmatch(r"error: \.\.\. and (\d+) more \(pnp validate --game big-ten --all-problems lists them all\)",
                           lines[-1])
    assert more, lines[-1]
    every = run("validate", "--game", "big-ten", "--all-problems", root=root)
    told = [line for line in every.stderr.splitlines() if line.startswith("error:")]
    assert every.exit_code == 1 and told[:50] == lines[:50] and len(told) == 50 + int(more.group(1))
    assert not any(line.startswith("error: ...") for line in told)


def test_warnings_are_told_again_by_a_skipped_build_and_by_validate(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.", "text: " + "Moves far. " * 40))
    first = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert first.exit_code == 0 and "does not fit" in first.stderr
    again = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert "up to date" in again.output and "does not fit" in again.stderr
    checked = run("validate", "--game", "mini", root=mini)
    assert checked.exit_code == 0 and "does not fit" in checked.stderr


def test_every_bad_card_in_a_data_file_is_told_at_once(mini):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("power: 3", "power: three").replace("power: 2", "power: two"))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert "cards.yaml:9:" in result.stderr and "cards.yaml:13:" in result.stderr, result.stderr


@pytest.mark.parametrize("text, told", [
    ("Has 5 power when it attacks.", True),             # the card's own value, written wrong
    ("Strikes with 5 powers.", True),                   # the field's name in the plural
    ("Has 3 power when it attacks.", False),            # written right
    ("Each knight beside it gains 1 power.", False),    # a change, not the card's power
    ("Loses 2 power at night.", False),
    ("+1 power when it attacks.", False),               # a bonus, not the card's power
    ("Has -1 power when blocked.", False),
    ("Has − 1 power when blocked.", False),
    ("Scout - 5 power.", True),                          # a dash before the card's value, not a sign
    ("Has 2 more power at night.", False),
    ("Cannot be blocked by heroes with less than 5 power.", False),   # a bound other cards are held to
    ("Blocks only units of at least 5 power.", False),
    ("Ignores units with 5 power or more.", False),
    ("Has 5 power, more than most.", True),              # "more than" after it, about something else
    ("Destroy a unit that has at least 5 power.", False),   # bounds are most often other cards':
    ("Discard every card under 5 power.", False),            # never read as the card's own value
    ("Heroes that have 5 power or more cannot block it.", False),
])
def test_a_card_text_that_misstates_its_own_value_is_told_at_its_line(mini, text, told):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.", f"text: {text}"))
    result = run("validate", "--game", "mini", root=mini)
    assert (result.exit_code == 1) == told, result.stderr
    if told:
        assert re.search(r"error: \S*cards\.yaml:11: cards\[1\]: card 'Knight': its text says '.*' \(5\), "
                         r"but its power is 3; write \{power\} to print the card's own value", result.stderr), result.stderr


def test_a_sheet_card_that_misstates_its_own_value_is_told_at_its_row(tmp_path):
    source = tmp_path / "crew.csv"
    source.write_text('name,power,count,text\nAda,3,1,"Has 5 power, and each ally gains 1 power."\n')
    project = tmp_path / "project"
    project.mkdir()
    assert run("new", "crew", "--data", str(source), root=project).exit_code == 0
    result = run("validate", "--game", "crew", root=project)
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and re.match(r"error: \S*card_data/crew/crew\.csv, row 2: card 'Ada': its text says ",
                                         lines[0]) and "(5), but its power is 3" in lines[0], lines


def test_a_told_excerpt_never_starts_or_ends_inside_a_fact_reference():
    from pnp.contents.prose import Quantity, Said, excerpt
    text = "Deal {fact:hand.cards} new cards. Each player has 4 time outs per half, and {fact:time-outs.per-half} more."
    at = text.index("4 time")
    shown = excerpt(text, Said(Quantity("n", 4), at, at + 1, "4"))
    assert shown == "{fact:hand.cards} new cards. Each player has 4 time outs per half, and {fact:time-outs.per-half}"
