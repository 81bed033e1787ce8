"""Bad input gets one sentence with file, line and field, exit 1, and no damage to output."""

from __future__ import annotations

import pytest

from conftest import build, run


def test_bad_yaml_names_file_and_line_and_leaves_earlier_output_intact(root, tmp_path):
    build(root, "12th-player", tmp_path)
    before = {p.name: p.read_bytes() for p in (tmp_path / "12th-player").iterdir()}
    cards = root / "card_data/12th-player/cards.yaml"
    lines = cards.read_text().splitlines()
    broken_line = next(i for i, line in enumerate(lines) if "name: Coach" in line)
    lines[broken_line] = "    name: [Coach"
    cards.write_text("\n".join(lines) + "\n")
    result = run("build", "--game", "12th-player", "--out", str(tmp_path), root=root)
    assert result.exit_code == 1
    assert "Traceback" not in result.output + result.stderr
    assert "card_data/12th-player/cards.yaml:" in result.stderr
    assert "YAML syntax" in result.stderr
    after = {p.name: p.read_bytes() for p in (tmp_path / "12th-player").iterdir()}
    assert after == before


def test_unknown_field_on_a_card_is_an_error_with_did_you_mean(root):
    cards = root / "card_data/12th-player/cards.yaml"
    cards.write_text(cards.read_text().replace("    name: Coach\n", "    name: Coach\n    txet: hi\n"))
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    line = next(i + 1 for i, text in enumerate(cards.read_text().splitlines()) if "txet" in text)
    assert f"cards.yaml:{line}: cards[1].txet: unknown field 'txet' (did you mean 'text'? the deck's fields: " \
        "colour, name, text, value)" in result.stderr


def test_unknown_key_in_a_layout_element_is_an_error_with_did_you_mean(root):
    layout = root / "layouts/12th-player/card.yaml"
    layout.write_text(layout.read_text().replace("    align: center\n", "    allign: center\n", 1))
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    assert "layouts/12th-player/card.yaml:" in result.stderr
    assert "unknown key 'allign' (did you mean 'align'?)" in result.stderr


def test_an_inset_beside_a_box_of_its_own_is_an_error_at_its_line(mini):
    """`inset` takes the place of x, y, w and h: given with them, one would be ignored."""
    layout = mini / "layouts/mini/card.yaml"
    text = layout.read_text()
    layout.write_text(text.replace("    w: 36mm\n", "    w: 36mm\n    inset: 1mm\n", 1))
    line = layout.read_text().splitlines().index("    inset: 1mm") + 1
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert f"layouts/mini/card.yaml:{line}: " in result.stderr
    assert "'inset' takes the place of x, y, w, h, and this also gives x, y, w, h" in result.stderr


def test_a_layout_field_the_cards_lack_is_named(root):
    layout = root / "layouts/12th-player/card.yaml"
    layout.write_text(layout.read_text().replace('text: "{name}"', 'text: "{nmae}"'))
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    assert "uses the field 'nmae', which the cards do not have (did you mean 'name'?)" in result.stderr


def test_wrong_scalar_type_is_named(root):
    cards = root / "card_data/12th-player/cards.yaml"
    cards.write_text(cards.read_text().replace("value: 12\n", "value: twelve\n"))
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    assert "cards[1].value: expected a whole number, found the text 'twelve'" in result.stderr


def test_length_without_a_unit_is_refused(root):
    layout = root / "layouts/12th-player/card.yaml"
    layout.write_text(layout.read_text().replace("x: 4mm", "x: 4", 1))
    result = run("validate", "--game", "12th-player", root=root)
    assert result.exit_code == 1
    assert "'4' needs a unit" in result.stderr or "expected a length" in result.stderr


@pytest.mark.parametrize("anchor", [False, True])
def test_a_key_missing_from_a_map_is_told_at_the_line_the_map_starts(mini, anchor):
    """A file with anchors is read through PyYAML's composer, one without by the fast event
    walk (pnp.yaml_source): both put a map at the line it starts on, here after a comment."""
    manifest = mini / "card_data/mini/game.yaml"
    text = manifest.read_text().replace("title: Mini\n", "")
    if anchor:
        text = text.replace("    kind: deck\n", "    kind: &deck deck\n", 1)
    manifest.write_text("# Mini, a game for tests\n" + text)
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert "game.yaml:2: missing required key 'title'" in result.stderr, result.stderr


@pytest.mark.parametrize("size, refused", [("[205mm, 120mm]", True), ("[199mm, 120mm]", False)])
def test_a_sheet_wider_than_the_printable_area_is_refused(mini, tmp_path, size, refused):
    """A4 is 210 mm wide and a home printer leaves 5 mm each side blank: a 205 mm sheet fits
    the paper but not the printable area."""
    (mini / "layouts/mini/wide.yaml").write_text(
        f"size: {size}\nelements:\n  - {{kind: text, text: Scores, x: 5mm, y: 5mm, w: 50mm, h: 10mm}}\n")
    manifest = mini / "card_data/mini/game.yaml"
    manifest.write_text(manifest.read_text().replace("contents:\n", "  - {id: scores, kind: sheet, layout: mini/wide}\ncontents:\n"))
    line = manifest.read_text().splitlines().index("  - {id: scores, kind: sheet, layout: mini/wide}") + 1
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    if refused:
        assert result.exit_code == 1
        assert f"game.yaml:{line}:" in result.stderr and "larger than the printable area of a4 paper" in result.stderr
    else:
        assert result.exit_code == 0, result.stderr


def test_a_min_size_above_the_size_is_an_error_at_its_line(mini):
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text().replace("    size: 8\n", "    size: 8\n    min_size: 12\n", 1))
    line = layout.read_text().splitlines().index("    min_size: 12") + 1
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert f"layouts/mini/card.yaml:{line}: " in result.stderr and "min_size 12 is larger than size 8" in result.stderr
    layout.write_text(layout.read_text().replace("    size: 8\n    min_size: 12\n", "    size: 4\n", 1))
    assert run("validate", "--game", "mini", root=mini).exit_code == 0   # the default min_size, 5, is not a mistake


@pytest.mark.parametrize("key, written, told", [
    ("columns", "columns: [name, pwoer]", "tables.power.columns: the table for deck 'cards' has a column 'pwoer' the "
                                          "cards do not have"),
    ("deck", "deck: cardz", "tables.power.deck: the table names the deck 'cardz', which the game does not have"),
])
def test_a_rule_sheet_table_naming_what_the_game_lacks_is_told_at_its_line(mini, key, written, told):
    """The trial's misspelt column was told with game.yaml alone, no line and no field."""
    game = mini / "card_data/mini/game.yaml"
    text = game.read_text().replace("    source: rules.md\n", "    source: rules.md\n    tables:\n"
                                    "      power:\n        deck: cards\n        columns: [name, power]\n")
    game.write_text(text.replace("columns: [name, power]" if key == "columns" else "deck: cards\n        columns",
                                 written if key == "columns" else written + "\n        columns"))
    (mini / "card_data/mini/rules.md").write_text("# Rules\n\n{{power}}\n")
    line = next(n for n, text in enumerate(game.read_text().splitlines(), 1) if text.strip().startswith(f"{key}:"))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert f"game.yaml:{line}: components[2].{told}" in result.stderr, result.stderr
