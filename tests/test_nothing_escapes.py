"""Nothing escapes: YAML cannot run code or explode, binding cannot reach Python objects,
paths stay inside the game, and rule sheets cannot inject markup or load files."""

from __future__ import annotations

import os
import time

from conftest import pdf, run


def error_of(mini, *args) -> str:
    result = run("build", "--game", "mini", *args, root=mini)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.stderr
    return result.stderr


def test_python_tags_in_yaml_are_refused(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("power: 3", "power: !!python/object/apply:os.system ['touch pwned']"))
    errors = error_of(mini, "--out", str(tmp_path))
    assert "cards.yaml:9: YAML syntax" in errors
    assert not (mini / "pwned").exists() and not os.path.exists("pwned")


def test_an_alias_bomb_is_refused_quickly(mini, tmp_path):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 9):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    (mini / "card_data/mini/cards.yaml").write_text("\n".join(lines) + "\n")
    started = time.perf_counter()
    errors = error_of(mini, "--out", str(tmp_path))
    assert time.perf_counter() - started < 2
    assert "cards.yaml:" in errors and "refusing a possible alias bomb" in errors


def test_a_link_that_leads_out_of_the_game_is_refused(mini, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("cards: []\n")
    (mini / "card_data/mini/link.yaml").symlink_to(secret)
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("data: cards.yaml", "data: link.yaml"))
    assert "data path 'link.yaml' leads outside the game folder" in error_of(mini, "--out", str(tmp_path / "o"))


def test_rule_sheet_markup_is_printed_as_text_not_obeyed(mini, tmp_path):
    rules = mini / "card_data/mini/rules.md"
    rules.write_text(rules.read_text() + '\n<font size="40">BIG</font> <img src="/etc/hosts"/> '
                     "![art](/etc/passwd) [link](file:///etc/passwd) &amp; <para>x</para>\n")
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    text = pdf(tmp_path / "mini/rules-a4.pdf").pages[0].extract_text()
    assert '<font size="40">BIG</font>' in text and "<para>x</para>" in text
    data = (tmp_path / "mini/rules-a4.pdf").read_bytes()
    assert b"/Subtype /Image" not in data and b"localhost" not in data
