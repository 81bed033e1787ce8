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
