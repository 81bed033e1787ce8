"""The validator: composition rules declared in game.yaml, reported one sentence each."""

from __future__ import annotations

from conftest import build, run


def edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_a_wrong_count_is_reported_with_card_rule_and_source(root):
    edit(root / "card_data/12th-player/cards.yaml", "name: Lineman\n    count: 3", "name: Lineman\n    count: 2")
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    assert 'game.yaml:34: contents[2]: deck "cards": Lineman has 2 cards; the rules, "CARDS", state 3' in result.stderr
    assert 'deck "cards": the deck has 16 cards; the rules, "CARDS", state 17' in result.stderr


def test_a_card_the_rules_do_not_list_and_a_wrong_value_are_reported(root):
    edit(root / "card_data/12th-player/cards.yaml", "name: Fumble!", "name: Fumbel!")
    edit(root / "card_data/12th-player/cards.yaml", "value: 10", "value: 13")
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    assert "Fumbel! (1 card) is not a card the rules, \"CARDS\", list; did you mean 'Fumble!'?" in result.stderr
    assert "card 'Linebacker' (Linebacker) has value '13'; the rules, \"CARDS\", make every Linebacker card 10" \
        in result.stderr


def test_build_refuses_a_deck_that_breaks_its_rules_and_keeps_the_old_pdf(root, tmp_path):
    build(root, "12th-player", tmp_path)
    before = (tmp_path / "12th-player/cards-letter.pdf").read_bytes()
    edit(root / "card_data/12th-player/cards.yaml", "name: Referee\n    count: 2", "name: Referee\n    count: 3")
    result = run("build", "--game", "12th-player", "--out", str(tmp_path), root=root)
    assert result.exit_code == 1
    assert "Referee has 3 cards; the rules, \"CARDS\", state 2" in result.stderr
    assert "nothing was built" in result.stderr
    assert (tmp_path / "12th-player/cards-letter.pdf").read_bytes() == before


def test_a_cards_own_problem_is_told_before_the_counts_it_breaks(root, tmp_path):
    """One misspelt type breaks two counts the rules state as well: the card's line, the one
    to fix, comes first."""
    offense = root / "card_data/big-ten/offense.yaml"
    offense.write_text(offense.read_text().replace("type: screen", "type: scren", 1))
    result = run("build", "--game", "big-ten", "--out", str(tmp_path / "out"), root=root)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.exit_code == 1 and len(errors) == 3
    assert "offense.yaml:" in errors[0] and "type 'scren'" in errors[0]
    assert all("game.yaml:" in line for line in errors[1:])


def test_validate_tells_the_rule_problems_found_before_the_drawing_stopped(root):
    """The same misspelt type also names no colour of the layout's palette, which stops the
    drawing: validate tells the card's and the rules' problems first, then where it stopped."""
    offense = root / "card_data/big-ten/offense.yaml"
    offense.write_text(offense.read_text().replace("type: screen", "type: scren", 1))
    result = run("validate", "--game", "big-ten", root=root)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.exit_code == 1 and len(errors) == 4, result.stderr
    assert "offense.yaml:" in errors[0] and "type 'scren'" in errors[0]
    assert "layouts/big-ten/offense.yaml:" in errors[3] and "'scren' is not a colour" in errors[3]
    assert "Traceback" not in result.stderr
