"""The command line as a person uses it: help, exit statuses, listing, unknown names."""

from __future__ import annotations

import re

import pytest

from conftest import REPO, run


def test_help_for_every_command_has_an_example():
    for command in ([], ["build"], ["validate"], ["list"]):
        result = run(*command, "--help")
        assert result.exit_code == 0
        assert "Example:" in result.output


def test_help_says_what_validate_does_and_every_calibrate_option():
    validate = " ".join(run("validate", "--help").output.split())
    assert "without rendering" not in validate   # it draws every piece, as a build would
    assert "draw every piece" in validate
    assert "Paper size" in run("calibrate", "--help").output


def test_list_shows_games_components_and_card_counts():
    result = run("list", root=REPO)
    assert result.exit_code == 0
    assert "12th-player: The 12th Player" in result.output
    assert "cards            deck, 17 pieces" in result.output


def test_a_warning_in_a_build_of_several_games_names_its_game():
    """Two games each have a deck called `cards`: each warning says whose (and is told for
    both, not once), while a build of one game keeps its warnings as they were."""
    import tempfile
    with tempfile.TemporaryDirectory() as out:
        many = run("build", "--game", "jukem", "--game", "12th-player", "--out", out, "--bleed", "-q", root=REPO)
        assert many.exit_code == 0
        assert "warning: jukem: cards: 3 mm bleed asked" in many.stderr
        assert "warning: 12th-player: cards: 3 mm bleed asked" in many.stderr
    with tempfile.TemporaryDirectory() as out:
        one = run("build", "--game", "jukem", "--out", out, "--bleed", "-q", root=REPO)
        assert "warning: cards: 3 mm bleed asked" in one.stderr


def test_list_tells_a_game_it_cannot_read_and_lists_the_others(root):
    cards = root / "card_data/jukem/cards.yaml"
    cards.write_text(cards.read_text().replace("yards: 40,", "yards: forty,", 1))
    result = run("list", root=root)
    assert result.exit_code == 1
    assert "big-ten: Big Ten Football" in result.output and "monster-ball: Monster Ball" in result.output
    assert "jukem:" not in result.output
    assert "card_data/jukem/cards.yaml:" in result.stderr and "yards" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_game_is_a_usage_error_that_lists_the_known_ones():
    result = run("build", "--game", "12th-playr", root=REPO)
    assert result.exit_code == 2
    assert "unknown game '12th-playr'" in result.stderr
    assert "did you mean '12th-player'" in result.stderr
    assert "known games:" in result.stderr


def test_no_game_named_is_a_usage_error():
    result = run("validate", root=REPO)
    assert result.exit_code == 2
    assert "--game" in result.stderr


def test_bad_option_value_is_a_usage_error():
    assert run("build", "--game", "12th-player", "--paper", "a5", root=REPO).exit_code == 2
    result = run("build", "--game", "12th-player", "--back-offset", "1", root=REPO)
    assert result.exit_code == 2 and "two numbers" in result.stderr


def test_a_back_offset_past_a_printers_shift_is_refused_either_way(tmp_path):
    """Over 20 mm, right or down, is a typo (a printer shifts a side by a millimetre or two)."""
    for offset in ("25,0", "0,25", "-25,0", "0,-25"):
        result = run("build", "--game", "12th-player", "--out", str(tmp_path), "--back-offset", offset, root=REPO)
        assert result.exit_code == 2 and "not a printer's shift" in result.stderr, offset
    assert not list(tmp_path.iterdir())   # nothing built


def test_validate_passes_for_the_bundled_game():
    result = run("validate", "--game", "12th-player", root=REPO)
    assert result.exit_code == 0, result.stderr
    assert "12th-player: ok" in result.output


def test_root_without_card_data_is_a_clear_error(tmp_path):
    result = run("list", root=tmp_path)
    assert result.exit_code == 2
    assert "no card_data/ folder" in result.stderr


def test_build_prints_each_file_with_its_page_count(tmp_path):
    result = run("build", "--game", "12th-player", "--out", str(tmp_path), root=REPO)
    assert result.exit_code == 0
    assert "cards-letter.pdf  4 pages" in result.output
    assert "rules-letter.pdf  1 page," in result.output


def test_new_makes_a_game_that_validates_and_builds(root, tmp_path):
    from conftest import pdf
    result = run("new", "dragon-dice", "--title", "Dragon Dice", root=root)
    assert result.exit_code == 0, result.stderr
    assert "next: pnp build --game dragon-dice" in result.output
    assert run("validate", "--game", "dragon-dice", root=root).exit_code == 0
    built = run("build", "--game", "dragon-dice", "--out", str(tmp_path), root=root)
    assert built.exit_code == 0, built.stderr
    reader = pdf(tmp_path / "dragon-dice/cards-letter.pdf")
    assert len(reader.pages) == 2 and "Champion" in reader.pages[0].extract_text()
    assert "DRAGON DICE" in reader.pages[1].extract_text()
    again = run("new", "dragon-dice", root=root)
    assert again.exit_code == 1 and "already exists" in again.stderr
    assert run("new", "Bad Id", root=root).exit_code == 1
    long = run("new", "a" * 300, root=root)   # lower-case letters alone: the length is what is wrong
    assert long.exit_code == 1 and "at most 41" in long.stderr, long.stderr


@pytest.mark.parametrize("game_id", ["a/b", "../escaped", "x.y", "sub/../../out"])
def test_new_refuses_an_id_that_is_a_path_and_writes_nothing(root, tmp_path, game_id):
    before = sorted(p.relative_to(root.parent) for p in root.parent.rglob("*"))
    result = run("new", game_id, root=root)
    assert result.exit_code == 1 and "is not a game id" in result.stderr, result.stderr
    assert sorted(p.relative_to(root.parent) for p in root.parent.rglob("*")) == before


def test_the_paper_size_is_read_in_any_case(tmp_path):
    result = run("build", "--game", "12th-player", "--out", str(tmp_path), "--paper", "A4", "-q", root=REPO)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "12th-player/cards-a4.pdf").is_file()


def test_players_may_be_written_as_a_plain_number(mini):
    """`players: 2` is a number to YAML: the trial had to quote it. A number of players below
    one is still refused at its line."""
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("players: 2-4", "players: 2"))
    assert run("validate", "--game", "mini", root=mini).exit_code == 0
    assert "mini: Mini (2 players, a4)" in run("list", root=mini).output
    game.write_text(game.read_text().replace("players: 2", "players: 0"))
    refused = run("validate", "--game", "mini", root=mini)
    assert refused.exit_code == 1 and "game.yaml:2: players: 0 is too small; the least allowed is 1" in refused.stderr


@pytest.mark.parametrize("bleed, told", [("3", "a bleed of '3' has no unit; write it with one, e.g. 3mm or 3in"),
                                         ("1/8", "a bleed of '1/8' has no unit")])
def test_a_bleed_without_a_unit_is_a_usage_error(mini, tmp_path, bleed, told):
    """`--bleed 0.125` may mean inches or millimetres: the trial's `--bleed 3` was quietly 3 mm."""
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--bleed", bleed, root=mini)
    assert result.exit_code == 2 and told in result.stderr
    assert not (tmp_path / "mini").exists()


def test_a_bleed_of_0_or_with_a_unit_is_taken(mini, tmp_path):
    for bleed in ("0", "3mm", "1/8in"):
        assert run("build", "--game", "mini", "--out", str(tmp_path / bleed.replace("/", "-")), "--bleed", bleed,
                   "-q", root=mini).exit_code == 0


@pytest.mark.parametrize("given", [["--bleed", "-3mm"], ["--bleed=-3mm"], ["--bleed", "-.5in"]])
def test_a_negative_bleed_is_told_as_one(mini, tmp_path, given):
    """click reads a value starting with `-` after an option whose value may be left out as an
    option of its own ("No such option: -3")."""
    result = run("build", "--game", "mini", "--out", str(tmp_path), *given, root=mini)
    assert result.exit_code == 2
    assert f"bleed is a length from 0 to 10 mm, not {given[-1].removeprefix('--bleed=')}" in result.stderr
    assert not (tmp_path / "mini").exists()


def test_a_translation_up_to_date_names_its_games_folder(tmp_path):
    """`(4 files in OUT/babel (he))` named a folder that does not exist."""
    from test_every_edition import babel_root
    root = babel_root(tmp_path / "babel")
    out = tmp_path / "out"
    assert run("build", "--game", "babel", "--lang", "he", "--out", str(out), "-q", root=root).exit_code == 0
    again = run("build", "--game", "babel", "--lang", "he", "--out", str(out), root=root)
    assert re.search(rf"babel \(he\): up to date, nothing changed since the last build \(\d+ files in "
                     rf"{re.escape(str(out / 'babel'))}\)\n", again.output), again.output


@pytest.mark.parametrize("players", ["lots", "4-2", "2 to 4", "0-3"])
def test_players_that_are_no_number_or_range_are_refused_at_their_line(mini, players):
    """`players: lots` printed in pnp list as "(lots players, a4)"."""
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("players: 2-4", f"players: {players}"))
    refused = run("validate", "--game", "mini", root=mini)
    assert refused.exit_code == 1 and "Traceback" not in refused.stderr
    assert f"game.yaml:2: players: '{players}' is not a number of players or a range of them" in refused.stderr


@pytest.mark.parametrize("players", ["2", "2-4", "2–4", "1+", "3"])
def test_players_as_a_number_or_range_are_taken(mini, players):
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("players: 2-4", f"players: {players}"))
    assert run("validate", "--game", "mini", root=mini).exit_code == 0
