"""A rule that names something the game lacks is one error at the rule, with a did-you-mean,
whichever command meets it first; not one complaint per card."""

from __future__ import annotations

import pytest

from conftest import run


@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_misspelt_field_in_a_required_rule_is_one_error_at_the_rule(root, tmp_path, command):
    game = root / "card_data/jukem/game.yaml"
    text = game.read_text()
    assert "    fields: [yards]\n" in text
    game.write_text(text.replace("    fields: [yards]\n", "    fields: [yrads]\n"))
    line = next(i + 1 for i, row in enumerate(game.read_text().splitlines()) if "[yrads]" in row)
    args = ["--out", str(tmp_path)] if command == "build" else []
    result = run(command, "--game", "jukem", *args, root=root)
    assert result.exit_code == 1
    errors = [row for row in result.stderr.splitlines() if row.startswith("error:")]
    assert len(errors) == 1, result.stderr
    assert f"card_data/jukem/game.yaml:{line}: " in errors[0]
    assert "'yrads' is not a field of cards.yaml (did you mean 'yards'?)" in errors[0]
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "jukem").exists()


def refusals(root, tmp_path) -> dict[str, str]:
    """What each command says of the game jukem: list, validate and build on the command line,
    serve as the error its page shows."""
    from pnp.serve.live import LiveGame
    from pnp.serve.pictures import PreviewOptions
    said = {}
    for command, args in (("list", []), ("validate", ["--game", "jukem"]),
                          ("build", ["--game", "jukem", "--out", str(tmp_path)])):
        result = run(command, *args, root=root)
        assert result.exit_code == 1, (command, result.output)
        errors = [row for row in result.stderr.splitlines() if row.startswith("error:")]
        assert len(errors) == 1, (command, result.stderr)
        said[command] = errors[0].removeprefix("error: ")
    said["serve"] = LiveGame(root, "jukem").state(PreviewOptions())["error"]["text"]
    return said


@pytest.mark.parametrize("mistake", ["tuckbox", "required"])
def test_list_validate_build_and_serve_refuse_a_wrong_name_alike(root, tmp_path, mistake):
    game = root / "card_data/jukem/game.yaml"
    text = game.read_text()
    if mistake == "tuckbox":
        text = text.replace("    kind: tuckbox\n", "    kind: tuckbox\n    decks: [crads]\n")
        marker, expected = "[crads]", "'crads' is not a deck of this game (did you mean 'cards'?)"
    else:
        text = text.replace("    fields: [yards]\n", "    fields: [yrads]\n")
        marker, expected = "[yrads]", "'yrads' is not a field of cards.yaml (did you mean 'yards'?)"
    game.write_text(text)
    line = next(i + 1 for i, row in enumerate(text.splitlines()) if marker in row)
    said = refusals(root, tmp_path)
    assert len(set(said.values())) == 1, said   # word for word the same everywhere
    assert f"card_data/jukem/game.yaml:{line}: " in said["list"] and expected in said["list"]
    assert not (tmp_path / "jukem").exists()


@pytest.mark.parametrize("front, expected", [
    ("{by: nmae, layouts: {Knight: mini/card}}", "front.by: 'nmae' is not a field of the deck's cards"),
    ("{by: name, layout: {Knight: mini/card}}", "front.layout: unknown key 'layout' (did you mean 'layouts'?)"),
    ("{by: name, layouts: {}}", "front.layouts: name at least one layout"),
    ("[mini/card]", "front: expected text, found a list"),
])
def test_a_front_is_typed_when_the_game_is_loaded_so_list_refuses_it_too(mini, tmp_path, front, expected):
    """A deck's front is a layout name or a choice of layouts by a field, checked before
    anything is drawn: `pnp list`, which draws nothing, refuses it as validate and build do."""
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("    front: mini/card\n", f"    front: {front}\n"))
    line = next(i + 1 for i, row in enumerate(game.read_text().splitlines()) if row.startswith("    front:"))
    for command, args in (("list", []), ("validate", ["--game", "mini"]),
                          ("build", ["--game", "mini", "--out", str(tmp_path)])):
        result = run(command, *args, root=mini)
        assert result.exit_code == 1, (command, result.output)
        assert f"card_data/mini/game.yaml:{line}: components[1].{expected}" in result.stderr, (command, result.stderr)


def test_only_a_restated_rule_sheet_says_its_words_are_ours(mini, tmp_path):
    """The footer's "rules in our own words" is for a sheet that retells a published game's
    rules (`restated: true`, as the bundled games' are), not for a designer's own game."""
    import pypdfium2
    from conftest import build

    def footer(out):
        build(mini, "mini", out)
        text = pypdfium2.PdfDocument(str(out / "mini/rules-a4.pdf"))[0].get_textpage().get_text_range()
        return next(line for line in text.splitlines() if "page 1" in line)
    assert "rules in our own words" not in footer(tmp_path / "own")
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("    source: rules.md\n", "    source: rules.md\n    restated: true\n"))
    assert "rules in our own words · page 1" in footer(tmp_path / "retold")


def test_a_placeholder_in_inline_code_prints_as_written(mini, tmp_path):
    """A rule sheet that tells its reader about `{{name}}` in code means it to print: only a
    placeholder among a paragraph's plain text is an error (the review found code refused)."""
    from conftest import build, pdf
    rules = mini / "card_data/mini/rules.md"
    rules.write_text(rules.read_text() + "\nSay `{{name}}` aloud.\n")
    assert build(mini, "mini", tmp_path).exit_code == 0
    assert "Say {{name}} aloud." in pdf(tmp_path / "mini/rules-a4.pdf").pages[0].extract_text()
