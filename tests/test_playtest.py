"""The playtest loop: `pnp diff`, `pnp build --reprint`, `pnp odds` (checked against a brute
force count) and the build record they read."""

from __future__ import annotations

import json
import operator
import os
import re
import resource
import shutil
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pypdfium2
import pytest

from conftest import REPO, build, placements, pdf, run

CARDS = """label: name
fields:
  name: {type: text, required: true}
  power: {type: whole}
  colour: {type: colour, default: "#224466"}
  text: {type: text}
cards:
  - {name: Knight, power: 3, count: 4, text: Moves in an L.}
  - {name: Bishop, power: 2, count: 2, text: Moves along a diagonal.}
  - {name: Rook, power: 5, count: 2, text: Moves in a line.}
  - {name: Queen, power: 9, count: 1, text: Moves as she likes.}
  - {name: King, power: 1, count: 1, text: Must not be taken.}
"""

GAME = """title: Mini
players: 2-4
paper: a4
components:
  - {id: cards, kind: deck, data: cards.yaml, front: mini/card, back: mini/back}
  - {id: board, kind: board, layout: mini/board, data: board.yaml}
"""

BACK = """size: mini
elements:
  - {kind: box, fill: "#333333", bleed: true}
  - {kind: text, text: "BACK {name}", font: display, size: 10, colour: white, align: center, y: 30mm, h: 10mm}
"""

BOARD_LAYOUT = """size: [400mm, 400mm]
elements:
  - {kind: box, fill: "#f0f0e0"}
  - {kind: text, text: "{corner}", size: 20, x: 20mm, y: 20mm, w: 60mm, h: 12mm}
  - {kind: text, text: "{far}", size: 20, x: 320mm, y: 370mm, w: 60mm, h: 12mm}
"""

BOARD = """label: corner
fields:
  corner: {type: text, required: true}
  far: {type: text, required: true}
cards:
  - {corner: Start here, far: Finish}
"""


@pytest.fixture
def game(mini) -> Path:
    """The mini game with five kinds of card, backs that name their card, and a tiled board."""
    folder = mini / "card_data/mini"
    (folder / "cards.yaml").write_text(CARDS)
    (folder / "game.yaml").write_text(GAME)
    (folder / "board.yaml").write_text(BOARD)
    (mini / "layouts/mini/back.yaml").write_text(BACK)
    (mini / "layouts/mini/board.yaml").write_text(BOARD_LAYOUT)
    return mini


def edit(root: Path, old: str, new: str, name: str = "card_data/mini/cards.yaml") -> None:
    path = root / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def play_edits(root: Path) -> None:
    """Two cards edited (a field each) and one count raised: what the issue's test asks."""
    edit(root, "{name: Knight, power: 3", "{name: Knight, power: 4")
    edit(root, "text: Moves in a line.", "text: Moves in a straight line.")
    edit(root, "{name: Bishop, power: 2, count: 2", "{name: Bishop, power: 2, count: 3")


def line_of(root: Path, name: str) -> int:
    lines = (root / "card_data/mini/cards.yaml").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if f"name: {name}," in line)


# --- pnp diff ---------------------------------------------------------------------------------

def test_diff_lists_exactly_the_edited_cards_with_old_and_new_values(game, tmp_path):
    build(game, "mini", tmp_path)
    play_edits(game)
    result = run("diff", "--game", "mini", "--out", str(tmp_path), root=game)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "mini: 3 cards changed since the last build"
    assert lines[1:] == [
        f"  cards: Knight  (card_data/mini/cards.yaml:{line_of(game, 'Knight')})",
        "      power: 3 -> 4",
        f"  cards: Bishop  (card_data/mini/cards.yaml:{line_of(game, 'Bishop')})",
        "      count: 2 -> 3",
        f"  cards: Rook  (card_data/mini/cards.yaml:{line_of(game, 'Rook')})",
        "      text: Moves in a line. -> Moves in a straight line.",
    ]
    quiet = run("diff", "--game", "mini", "--out", str(tmp_path), "--quiet", root=game)
    assert quiet.exit_code == 0 and quiet.output == ""


def test_diff_after_a_build_of_the_edits_finds_nothing_and_tells_added_and_removed(game, tmp_path):
    build(game, "mini", tmp_path)
    play_edits(game)
    build(game, "mini", tmp_path)
    assert run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output == \
        "mini: no card changed since the last build\n"
    edit(game, "  - {name: Queen, power: 9, count: 1, text: Moves as she likes.}\n",
         "  - {name: Pawn, power: 1, count: 8, text: One step.}\n")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert f"  cards: Pawn: added, 8 copies  (card_data/mini/cards.yaml:{line_of(game, 'Pawn')})" in output
    assert "  cards: Queen: removed (1 copy; was at card_data/mini/cards.yaml:11)" in output


def with_rules_and_a_fact(root: Path) -> None:
    """The mini game with a rule sheet that prints a fact, and a back that prints it too."""
    folder = root / "card_data/mini"
    (folder / "facts.yaml").write_text('reach: {value: 3, section: "Moving"}\n')
    (folder / "rules.md").write_text("# Mini\n\nA knight moves {fact:reach} squares.\n\n## Setting up\n\n"
                                      "Shuffle the cards and deal five to each player.\n")
    edit(root, "  - {id: board,", "  - {id: rules, kind: rules, source: rules.md}\n  - {id: board,", "card_data/mini/game.yaml")
    edit(root, "BACK {name}", "BACK {name} {fact:reach}", "layouts/mini/back.yaml")


def test_diff_names_the_pages_of_a_rule_sheet_and_a_board_that_changed(game, tmp_path):
    with_rules_and_a_fact(game)
    build(game, "mini", tmp_path)
    assert run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output == \
        "mini: no card changed since the last build\n"
    edit(game, "deal five to each player", "deal six to each player", "card_data/mini/rules.md")
    edit(game, "corner: Start here", "corner: Begin here", "card_data/mini/board.yaml")
    assert run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output.splitlines() == [
        "mini: no card changed since the last build",
        "  rules: page 1 changed",
        "  board: sheet A1 of the board changed",
    ]
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "rules-a4-reprint.pdf  1 page: page 1 changed" in result.output, result.output
    assert "deal six" in pdf(tmp_path / "mini/rules-a4-reprint.pdf").pages[0].extract_text()


@pytest.mark.parametrize("command", [("diff",), ("build", "--reprint")])
@pytest.mark.parametrize("linked", ["file", "folder"])
def test_the_earlier_game_is_never_written_through_a_link(game, tmp_path, command, linked):
    """The earlier game starts as a copy of today's, links kept as links: a kept file (here a
    translation, which a build in the game's own language does not read) written over a link,
    or into a linked folder, must not land where the link points."""
    lang = game / "card_data/mini/lang"
    lang.mkdir()
    (lang / "de.yaml").write_text("language: Deutsch\n")
    build(game, "mini", tmp_path / "out")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "de.yaml").write_text("someone else's file\n")
    if linked == "file":
        (lang / "de.yaml").unlink()
        (lang / "de.yaml").symlink_to(outside / "de.yaml")
    else:
        shutil.rmtree(lang)
        lang.symlink_to(outside, target_is_directory=True)
    run(command[0], "--game", "mini", "--out", str(tmp_path / "out"), *command[1:], root=game)
    assert (outside / "de.yaml").read_text() == "someone else's file\n"


@pytest.mark.parametrize("command", [("diff",), ("build", "--reprint"), ("proof", "--changes")])
@pytest.mark.parametrize("into", ["elsewhere", "card_data"])
def test_a_game_output_folder_that_is_a_link_is_refused_before_anything_is_written(game, tmp_path, command, into):
    """As `pnp build` and `pnp proof` refuse it: the earlier game, the pictures and the reprint
    would go where the link points (into card_data/, a copy of the game into itself)."""
    out = tmp_path / "out"
    build(game, "mini", out)
    printed = tmp_path / "printed.json"
    shutil.copy(out / "mini/.pnp-build.json", printed)
    target = tmp_path / "elsewhere" if into == "elsewhere" else game / "card_data/mini"
    if into == "elsewhere":
        (out / "mini").rename(target)
    else:
        shutil.rmtree(out / "mini")
    (out / "mini").symlink_to(target, target_is_directory=True)
    edit(game, "{name: Knight, power: 3", "{name: Knight, power: 4")
    before = sorted(path.relative_to(target) for path in target.rglob("*")), target.stat().st_mtime_ns
    result = run(*command, "--game", "mini", "--out", str(out), "--since", str(printed), root=game)
    assert result.exit_code == 1 and "Traceback" not in result.stderr, result.output + result.stderr
    assert "is a link" in result.stderr, result.stderr
    # nothing made there, not even for a while (the earlier game, removed after)
    assert (sorted(path.relative_to(target) for path in target.rglob("*")), target.stat().st_mtime_ns) == before


def test_a_pipe_or_a_hard_link_in_the_game_is_left_out_of_the_earlier_game(game, tmp_path, monkeypatch):
    """The earlier game starts as a copy of the files a build reads: a pipe (copying it ended
    the diff in an internal problem) or a hard link (whose other name may be anywhere, so a
    build refuses it) is left out."""
    from pnp.playtest import earlier
    build(game, "mini", tmp_path / "out")
    os.mkfifo(game / "card_data/mini/pipe.txt")
    os.mkfifo(game / "layouts/pipe.yaml")
    outside = tmp_path / "secret.txt"
    outside.write_text("someone else's file\n")
    os.link(outside, game / "card_data/mini/secret.txt")
    copied: list[str] = []
    copy_current = earlier.copy_current

    def watched(root: Path, game_id: str, temp: Path) -> None:
        copy_current(root, game_id, temp)
        copied.extend(path.relative_to(temp).as_posix() for path in temp.rglob("*"))
    monkeypatch.setattr(earlier, "copy_current", watched)
    edit(game, "{name: King, power: 1", "{name: King, power: 2")
    result = run("diff", "--game", "mini", "--out", str(tmp_path / "out"), root=game)
    assert result.exit_code == 0, result.output + result.stderr
    assert result.output.splitlines()[:3] == ["mini: 1 card changed since the last build",
                                              f"  cards: King  (card_data/mini/cards.yaml:{line_of(game, 'King')})",
                                              "      power: 1 -> 2"]
    assert "card_data/mini/cards.yaml" in copied and "layouts/mini/card.yaml" in copied
    assert not [name for name in copied if name.endswith(("pipe.txt", "pipe.yaml", "secret.txt"))], copied


def test_a_game_that_cannot_be_copied_to_compare_is_one_clear_error(game, tmp_path):
    """Here a name too long for the file system once it lies in the output folder's earlier game."""
    out = tmp_path / ("o" * 200)
    build(game, "mini", out)
    deep = game / "card_data/mini"
    while len(str(deep)) < 3800:
        deep = deep / ("d" * 200)
    deep.mkdir(parents=True)
    (deep / "notes.txt").write_text("a note\n")
    result = run("diff", "--game", "mini", "--out", str(out), root=game)
    assert result.exit_code == 1 and "internal problem" not in result.stderr, result.output + result.stderr
    assert "cannot copy the game to compare with" in result.stderr and "File name too long" in result.stderr, \
        result.stderr
    assert [path.name for path in (out / "mini").iterdir() if path.name.startswith(".pnp-earlier")] == []


def test_a_rule_sheet_linked_within_the_game_is_compared(game, tmp_path):
    with_rules_and_a_fact(game)
    folder = game / "card_data/mini"
    (folder / "docs").mkdir()
    (folder / "rules.md").rename(folder / "docs/rules.md")
    (folder / "rules.md").symlink_to("docs/rules.md")
    build(game, "mini", tmp_path)
    edit(game, "deal five to each player", "deal six to each player", "card_data/mini/docs/rules.md")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert output.splitlines()[1:] == ["  rules: page 1 changed"], output
    assert "deal six" in (folder / "docs/rules.md").read_text()   # the user's file, not the earlier copy
    build(game, "mini", tmp_path)
    (folder / "docs/other.md").write_text((folder / "docs/rules.md").read_text().replace("six", "seven"))
    (folder / "rules.md").unlink()
    (folder / "rules.md").symlink_to("docs/other.md")   # the link pointed elsewhere: the sheet changed
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert output.splitlines()[1:] == ["  rules: page 1 changed"], output


def test_a_record_edited_by_hand_names_nothing_pnp_trips_on(game, tmp_path):
    from pnp.playtest.record import pack, unpacked
    build(game, "mini", tmp_path)
    path = tmp_path / "mini/.pnp-build.json"
    record = json.loads(path.read_text())
    sources = unpacked(record["playtest"]["sources"])
    odd = {"": "x", ".": "x", "card_data": "x", "card_data/mini/cards.yaml/x": "x", "a\0b": "x", "../up.txt": "x"}
    record["playtest"]["sources"] = pack({**sources, **odd})
    path.write_text(json.dumps(record))
    result = run("diff", "--game", "mini", "--out", str(tmp_path), root=game)
    assert result.exit_code == 0 and result.output == "mini: no card changed since the last build\n", \
        result.output + result.stderr
    assert not (tmp_path / "mini/up.txt").exists() and not (tmp_path / "up.txt").exists()


def test_a_tuck_box_sized_for_a_thicker_deck_is_a_changed_page(game, tmp_path):
    edit(game, "  - {id: board,", "  - {id: box, kind: tuckbox}\n  - {id: board,", "card_data/mini/game.yaml")
    build(game, "mini", tmp_path)
    edit(game, "{name: Knight, power: 3, count: 4", "{name: Knight, power: 3, count: 40")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert output.splitlines()[-1] == "  box: page 1 changed", output


def test_a_revision_whose_rule_sheet_does_not_draw_still_gives_the_card_changes(game, tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    with_rules_and_a_fact(game)
    edit(game, "moves {fact:reach} squares", "moves {fact:raech} squares", "card_data/mini/rules.md")
    git = ["git", "-C", str(game), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "a misnamed fact"], check=True)
    edit(game, "moves {fact:raech} squares", "moves {fact:reach} squares", "card_data/mini/rules.md")
    edit(game, "{name: Knight, power: 3", "{name: Knight, power: 4")
    result = run("diff", "--game", "mini", "--out", str(tmp_path), "--since", "HEAD", root=game)
    assert result.exit_code == 0, result.stderr
    lines = result.output.splitlines()
    assert lines[0] == "mini: 1 card changed since revision HEAD" and "      power: 3 -> 4" in lines
    assert lines[-1] == ("  rules: page 1 changed (the earlier one could not be drawn to compare: card_data/mini/"
                         "rules.md:3: '{fact:raech}' names no fact of this game (card_data/mini/facts.yaml) "
                         "(did you mean 'reach'?))"), lines   # named as the game's files, not the earlier copy's


def test_a_changed_fact_changes_the_pieces_that_print_it_and_no_others(game, tmp_path):
    with_rules_and_a_fact(game)
    build(game, "mini", tmp_path)
    edit(game, "reach: {value: 3,", "reach: {value: 4,", "card_data/mini/facts.yaml")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert output.startswith("mini: 5 cards changed since the last build\n"), output
    assert output.count("      back drawn differently (its layout, pictures or a fact it prints changed)") == 5
    assert "face" not in output and "  rules: page 1 changed" in output and "board" not in output


def test_a_record_from_before_looks_counted_facts_tells_no_false_change(game, tmp_path, monkeypatch):
    """A build record made by a pnp whose looks did not count the facts a layout prints: the
    cards printing one are not all told as changed (and reprinted) after an upgrade."""
    from pnp.playtest import record
    with_rules_and_a_fact(game)
    back = game / "layouts/mini/back.yaml"   # and a mark a when: draws, which records did not count either
    back.write_text(back.read_text() + '  - {kind: box, fill: "#cc0000", x: 2mm, y: 2mm, w: 5mm, h: 5mm, '
                                       "when: {power: {at_least: 5}}}\n")
    made, values = record.game_record, record.values_of

    def values_then(side, deck_fields, current_looks=True):   # as pnp 2581ebe read a side's values
        if side is None:
            return lambda card, count: ()
        names = sorted(name for name in side.drawn_fields if name in deck_fields)
        getter = operator.itemgetter(*names) if names else (lambda card: ())
        return lambda card, count: getter(card)
    # the record as a pnp of then made it: no facts in a look, and only the fields drawn
    monkeypatch.setattr(record, "game_record", lambda *args, **named: made(*args, **named, current_looks=False))
    monkeypatch.setattr(record, "values_of", values_then)
    build(game, "mini", tmp_path)
    monkeypatch.setattr(record, "game_record", made)
    monkeypatch.setattr(record, "values_of", values)
    kept = json.loads((tmp_path / "mini/.pnp-build.json").read_text())["playtest"]
    assert "looks" not in kept
    assert run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output == \
        "mini: no card changed since the last build\n"
    edit(game, "{name: Knight, power: 3", "{name: Knight, power: 4")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert output.startswith("mini: 1 card changed since the last build\n"), output


def test_a_face_that_prints_its_count_is_redrawn_when_the_count_changes(game, tmp_path):
    """A layout that prints {count}: another count is another face, so every copy is printed
    again, each showing the count of the full deck (not how many the reprint holds)."""
    edit(game, "BACK {name}", "BACK {name} x{count}", "layouts/mini/back.yaml")
    build(game, "mini", tmp_path)
    edit(game, "{name: Bishop, power: 2, count: 2", "{name: Bishop, power: 2, count: 3")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert "      count: 2 -> 3" in output and "      back drawn differently (it prints its count, or" in output, output
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "3 cards to print, 2 to take out" in result.output, result.output
    reprint = pdf(tmp_path / "mini/cards-a4-reprint.pdf")
    backs = " ".join(page.extract_text() for page in reprint.pages)
    assert backs.count("BACK Bishop x3") == 3 and "x1" not in backs, backs


def test_a_field_only_a_when_tests_changes_the_face_when_it_changes(game, tmp_path):
    """A mark drawn on the elite cards only, a field nothing prints: a card that becomes elite
    is printed again."""
    edit(game, "  text: {type: text}\n", "  text: {type: text}\n  elite: {type: whole, default: 0}\n")
    layout = game / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + '  - {kind: box, fill: "#cc0000", x: 2mm, y: 2mm, w: 5mm, h: 5mm, '
                                           "when: {elite: {above: 0}}}\n")
    build(game, "mini", tmp_path)
    edit(game, "{name: Knight, power: 3,", "{name: Knight, power: 3, elite: 1,")
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "4 cards to print, 4 to take out" in result.output, result.output
    build(game, "mini", tmp_path)
    edit(game, "{name: Knight, power: 3, elite: 1,", "{name: Knight, power: 3, elite: 2,")   # still elite: as printed
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert "elite: 1 -> 2" in output and "drawn differently" not in output, output
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "0 cards to print, 0 to take out" in result.output, result.output


def test_a_count_a_when_tests_changes_the_face_only_when_what_it_decides_changes(game, tmp_path):
    layout = game / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + '  - {kind: box, fill: "#cc0000", x: 2mm, y: 2mm, w: 5mm, h: 5mm, '
                                           "when: {count: {at_least: 3}}}\n")
    build(game, "mini", tmp_path)
    edit(game, "{name: Knight, power: 3, count: 4", "{name: Knight, power: 3, count: 3")   # still marked
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "0 cards to print, 1 to take out" in result.output, result.output
    build(game, "mini", tmp_path)
    edit(game, "{name: Knight, power: 3, count: 3", "{name: Knight, power: 3, count: 2")   # the mark goes
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "2 cards to print, 3 to take out" in result.output, result.output


def test_a_changed_layout_changes_every_face_it_draws_but_no_back(game, tmp_path):
    build(game, "mini", tmp_path)
    edit(game, "size: 30", "size: 28", "layouts/mini/card.yaml")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert output.count("      face drawn differently (its layout, pictures or a fact it prints changed)") == 5
    assert "back" not in output.replace("BACK", "")


def test_a_layout_chosen_per_card_changes_the_faces_drawn_with_it(game, tmp_path):
    """A deck that picks its front by a field: a change to one of the layouts it chooses
    between marks the cards drawn with that layout, and a reprint holds them (the trial's
    fixed captain's layout was told as no card changed, nothing to reprint)."""
    (game / "layouts/mini/king.yaml").write_text("extends: mini/card\nelements:\n"
                                                 "  - {kind: text, text: CROWNED, size: 9, colour: white, y: 50mm, h: 6mm}\n")
    edit(game, "front: mini/card", "front: {by: name, layouts: {King: mini/king}, default: mini/card}",
         "card_data/mini/game.yaml")
    build(game, "mini", tmp_path)
    edit(game, "text: CROWNED", "text: CROWNED KING", "layouts/mini/king.yaml")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert output.count("face drawn differently (its layout, pictures or a fact it prints changed)") == 1, output
    assert "King" in output and "Knight" not in output
    reprint = run("build", "--game", "mini", "--reprint", "--out", str(tmp_path), root=game)
    assert reprint.exit_code == 0 and "nothing to reprint" not in reprint.output, reprint.output
    # the old face is drawn from the record's copy of the chosen layout: CROWNED, not CROWNED KING
    proof = run("proof", "--game", "mini", "--out", str(tmp_path), "--changes", root=game)
    assert proof.exit_code == 0, proof.output + proof.stderr
    from PIL import Image
    picture = Image.open(tmp_path / "mini/proof/cards-changes.png").convert("RGB")
    assert red_boxes(picture, picture.width // 2, picture.width) is not None   # round what differs from the old face
    edit(game, "size: 30", "size: 28", "layouts/mini/card.yaml")   # the default, which the King's extends
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert output.count("face drawn differently (its layout, pictures or a fact it prints changed)") == 5, output


def test_diff_since_an_earlier_record_and_since_a_git_revision(game, tmp_path):
    build(game, "mini", tmp_path)
    kept = tmp_path / "printed.json"
    shutil.copy(tmp_path / "mini/.pnp-build.json", kept)
    play_edits(game)
    build(game, "mini", tmp_path)   # the last build is now the edited one
    output = run("diff", "--game", "mini", "--out", str(tmp_path), "--since", str(kept), root=game).output
    assert "      power: 3 -> 4" in output and "      count: 2 -> 3" in output
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    git = ["git", "-C", str(game), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    edit(game, "power: 4", "power: 3")   # back to the printed deck, committed
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "printed"], check=True)
    edit(game, "{name: King, power: 1", "{name: King, power: 2")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), "--since", "HEAD", root=game).output
    assert output.splitlines() == ["mini: 1 card changed since revision HEAD",
                                   f"  cards: King  (card_data/mini/cards.yaml:{line_of(game, 'King')})",
                                   "      power: 1 -> 2"]
    assert [p.name for p in (tmp_path / "mini").iterdir() if p.name.startswith(".pnp-earlier")] == []
    reprint = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", "--since", "HEAD", root=game)
    assert "cards-a4-reprint.pdf  4 pages: 1 card to print, 1 to take out" in reprint.output
    document, pages = pages_of(tmp_path / "mini/cards-a4-reprint.pdf")
    assert "reprint since revision HEAD" in pages[0].get_textpage().get_text_range()
    assert [text for _, text in pieces(pages[2], 0, 0)] == ["King 2 Must not be taken."]
    bad = run("diff", "--game", "mini", "--out", str(tmp_path), "--since", "no-such-rev", root=game)
    assert bad.exit_code == 1
    assert "--since 'no-such-rev' is neither a build record (no such file) nor a git revision of" in bad.stderr


def committed(root: Path) -> list[str]:
    """The project put in a git repository of its own, all of it committed; the git command
    to run more in it."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "printed"], check=True)
    return git


def test_diff_since_a_revision_runs_no_command_the_repository_names(game, tmp_path):
    """A repository's own config can name commands: a filter's smudge, the fsmonitor hook. The
    earlier game is read from git's own blobs, so none of them runs, and the diff is the same."""
    (game / ".gitattributes").write_text("* filter=evil\n")
    git = committed(game)
    marker = tmp_path / "ran"
    hook = tmp_path / "hook.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\ncat\n")
    hook.chmod(0o755)
    subprocess.run(git + ["config", "filter.evil.smudge", str(hook)], check=True)
    subprocess.run(git + ["config", "core.fsmonitor", str(hook)], check=True)
    edit(game, "{name: King, power: 1", "{name: King, power: 2")
    result = run("diff", "--game", "mini", "--out", str(tmp_path), "--since", "HEAD", root=game)
    assert result.exit_code == 0, result.stderr
    assert result.output.splitlines() == ["mini: 1 card changed since revision HEAD",
                                          f"  cards: King  (card_data/mini/cards.yaml:{line_of(game, 'King')})",
                                          "      power: 1 -> 2"]
    assert not marker.exists()


def test_a_revision_holding_a_file_too_big_to_read_leaves_it_out_and_compares(game, tmp_path, monkeypatch):
    """A file past what pnp reads of one (source art kept beside the cards) is no file a build
    reads: left out of the earlier game, never read, and the diff is the same."""
    from pnp.playtest import earlier
    monkeypatch.setattr(earlier, "MAX_FILE_BYTES", 1000)
    (game / "card_data/mini/box-art.psd").write_bytes(b"x" * 1001)
    committed(game)
    read = []
    monkeypatch.setattr(earlier.Blobs, "copy", lambda self, blob, size, into, copy=earlier.Blobs.copy:
                        (read.append(size), copy(self, blob, size, into))[1])
    edit(game, "{name: King, power: 1", "{name: King, power: 2")
    result = run("diff", "--game", "mini", "--out", str(tmp_path), "--since", "HEAD", root=game)
    assert result.exit_code == 0, result.stderr
    assert "power: 1 -> 2" in result.output and 1001 not in read


def test_a_blob_a_partial_clone_lacks_is_told_and_never_fetched(game, tmp_path):
    """A partial clone fetches a missing blob through the transport its config names, which
    ran the repository's core.sshCommand; pnp fetches nothing and says what is missing."""
    git = committed(game)
    marker = tmp_path / "ran"
    hook = tmp_path / "hook.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    hook.chmod(0o755)
    blob = subprocess.run(git + ["rev-parse", "HEAD:card_data/mini/cards.yaml"], check=True,
                          capture_output=True, text=True).stdout.strip()
    (game / ".git/objects" / blob[:2] / blob[2:]).unlink()
    for key, value in (("extensions.partialClone", "origin"), ("remote.origin.promisor", "true"),
                       ("remote.origin.url", "ssh://example.invalid/x"), ("core.sshCommand", str(hook)),
                       ("protocol.ssh.allow", "always"), ("core.repositoryformatversion", "1")):
        subprocess.run(git + ["config", key, value], check=True)
    result = run("diff", "--game", "mini", "--out", str(tmp_path), "--since", "HEAD", root=game)
    assert not marker.exists()
    # a git that knows no GIT_NO_LAZY_FETCH tries to fetch: the other guards hold it
    from pnp.playtest import earlier
    older_git = {key: value for key, value in earlier.GIT_ENVIRONMENT.items() if key != "GIT_NO_LAZY_FETCH"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(earlier, "GIT_ENVIRONMENT", older_git)
        result = run("diff", "--game", "mini", "--out", str(tmp_path), "--since", "HEAD", root=game)
    assert not marker.exists()
    assert result.exit_code == 1 and "internal problem" not in result.stderr, result.stderr
    assert "card_data/mini/cards.yaml" in result.stderr and "pnp fetches nothing" in result.stderr, result.stderr


def test_a_record_of_another_game_is_refused_by_diff_and_reprint(game, tmp_path):
    """Compared with another game's record, every card would be told as taken out or added."""
    build(game, "mini", tmp_path)
    shutil.copytree(game / "card_data/mini", game / "card_data/twin")
    record = str(tmp_path / "mini/.pnp-build.json")
    for command in (["diff"], ["build", "--reprint"]):
        refused = run(*command, "--game", "twin", "--out", str(tmp_path), "--since", record, root=game)
        assert refused.exit_code == 1, refused.output
        assert "is the game mini's, not twin's" in refused.stderr and "Traceback" not in refused.stderr
    assert not (tmp_path / "twin").exists() or not list((tmp_path / "twin").glob("*reprint*"))


def pnp_bounded(*args: str, root: Path, memory: int = 2**30, timeout: float = 120) -> subprocess.CompletedProcess:
    """`pnp ARGS --root ROOT` in a process of its own, with at most `memory` bytes to use and
    `timeout` seconds: a read without end fails the test, not the machine it runs on."""
    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return subprocess.run([sys.executable, "-m", "pnp", *args, "--root", str(root)], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=bounded, check=False)


@pytest.mark.parametrize("planted", ["link", "pipe", "endless"])
def test_a_build_record_that_is_a_link_or_no_plain_file_counts_as_missing(game, tmp_path, planted):
    """Read as the output folder reads its own JSON: not through a link (to another game's
    record, or /dev/zero, which never ends), nor from a pipe, which would wait forever."""
    out = tmp_path / "out"
    build(game, "mini", out)
    record = out / "mini/.pnp-build.json"
    if planted == "link":
        record.rename(tmp_path / "elsewhere.json")
        record.symlink_to(tmp_path / "elsewhere.json")
    else:
        record.unlink()
        if planted == "pipe":
            os.mkfifo(record)
        else:
            record.symlink_to("/dev/zero")
    result = pnp_bounded("diff", "--game", "mini", "--out", str(out), root=game)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stdout + result.stderr
    assert "no build record at" in result.stderr, result.stderr


@pytest.fixture(scope="module")
def unpacks_to_gigabytes() -> str:
    """A record's part as pack() writes one, that unpacks to 2 GB of zeros (2 MB packed)."""
    import base64
    import zlib
    compressor = zlib.compressobj(9)
    zeros = bytes(64 * 2**20)
    packed = b"".join(compressor.compress(zeros) for _ in range(32)) + compressor.flush()
    return base64.b64encode(packed).decode("ascii")


@pytest.mark.parametrize("part", ["decks", "sources"])
@pytest.mark.parametrize("planted", ["too long", "damaged"])
def test_a_record_too_long_to_unpack_or_damaged_is_told_and_built_over(game, tmp_path, part, planted,
                                                                        unpacks_to_gigabytes):
    out = tmp_path / "out"
    build(game, "mini", out)
    path = out / "mini/.pnp-build.json"
    record = json.loads(path.read_text())
    record["playtest"][part] = unpacks_to_gigabytes if planted == "too long" else "bm90IHpsaWI="   # not zlib
    path.write_text(json.dumps(record))
    edit(game, "{name: Knight, power: 3", "{name: Knight, power: 4")
    told = pnp_bounded("diff", "--game", "mini", "--out", str(out), root=game)
    assert told.returncode == 1 and "Traceback" not in told.stderr, told.stdout + told.stderr
    assert f"cannot read the build record {path}" in told.stderr and "build the game once more" in told.stderr, \
        told.stderr
    built = pnp_bounded("build", "--game", "mini", "--out", str(out), "--jobs", "1", root=game)
    assert built.returncode == 0, built.stdout + built.stderr
    assert run("diff", "--game", "mini", "--out", str(out), root=game).output == \
        "mini: no card changed since the last build\n"


def test_a_record_nested_past_any_pnp_writes_is_told_and_built_over(game, tmp_path):
    """`[` two hundred thousand deep ended every build and diff in an internal problem."""
    import base64
    import zlib
    out = tmp_path / "out"
    build(game, "mini", out)
    path = out / "mini/.pnp-build.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    told = pnp_bounded("diff", "--game", "mini", "--out", str(out), root=game)
    assert told.returncode == 1 and "internal problem" not in told.stderr, told.stderr
    assert "cannot read the build record" in told.stderr and "nested" in told.stderr, told.stderr
    edit(game, "{name: Knight, power: 3", "{name: Knight, power: 4")
    built = pnp_bounded("build", "--game", "mini", "--out", str(out), "--jobs", "1", root=game)
    assert built.returncode == 0, built.stdout + built.stderr
    packed = json.loads(path.read_text())
    packed["playtest"]["decks"] = base64.b64encode(zlib.compress(b"[" * 200_000 + b"]" * 200_000)).decode()
    path.write_text(json.dumps(packed))
    told = pnp_bounded("diff", "--game", "mini", "--out", str(out), root=game)
    assert told.returncode == 1 and "internal problem" not in told.stderr, told.stderr
    assert pnp_bounded("build", "--game", "mini", "--out", str(out), "--jobs", "1", root=game).returncode == 0


@pytest.mark.parametrize("linked", ["symlink", "hard link"])
def test_a_picture_linked_from_outside_never_goes_into_the_record(game, tmp_path, linked):
    """The record's looks count the game's own pictures, read as a build reads them: a link
    that leads out (or a hard link, whose other name may be anywhere) is never read, so what it
    names cannot change the record, nor its digest carry an outside file's bytes."""
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"someone else's file")
    leak = game / "card_data/mini/leak.png"
    leak.symlink_to(outside) if linked == "symlink" else os.link(outside, leak)
    build(game, "mini", tmp_path / "a")
    outside.write_bytes(b"someone else's file, changed")
    build(game, "mini", tmp_path / "b")
    kept = [json.loads((tmp_path / side / "mini/.pnp-build.json").read_text())["playtest"] for side in "ab"]
    assert kept[0] == kept[1]


def test_a_picture_linked_to_a_huge_file_outside_is_never_read(game, tmp_path):
    huge = tmp_path / "huge.bin"
    with huge.open("wb") as handle:
        handle.truncate(3 * 2**30)   # sparse: 3 GB to read, no disk
    (game / "card_data/mini/leak.png").symlink_to(huge)
    result = pnp_bounded("build", "--game", "mini", "--out", str(tmp_path / "out"), "--jobs", "1", root=game)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_picture_too_big_to_read_is_one_clear_error(game, tmp_path, monkeypatch):
    from pnp.playtest import record
    monkeypatch.setattr(record, "MAX_PICTURE_BYTES", 1000)
    (game / "card_data/mini/art").mkdir()
    (game / "card_data/mini/art/big.png").write_bytes(bytes(1001))
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--jobs", "1", root=game)
    assert result.exit_code == 1 and "Traceback" not in result.stderr, result.output + result.stderr
    assert "card_data/mini/art/big.png is over 0 MB" in result.stderr, result.stderr


def test_diff_without_a_build_says_to_build_first(game, tmp_path):
    result = run("diff", "--game", "mini", "--out", str(tmp_path), root=game)
    assert result.exit_code == 1
    assert "no build record at" in result.stderr and "build the game first" in result.stderr


def test_the_record_is_small_and_the_same_for_the_same_input(game, tmp_path):
    build(game, "mini", tmp_path / "a")
    build(game, "mini", tmp_path / "b")
    a, b = (tmp_path / "a/mini/.pnp-build.json").read_bytes(), (tmp_path / "b/mini/.pnp-build.json").read_bytes()
    assert a == b
    assert len(a) < 8000
    from pnp.playtest.record import kept_decks
    cards = kept_decks(json.loads(a)["playtest"])["cards"]
    assert [(c["key"], c["count"], c["line"]) for c in cards] == [
        ("Knight", 4, "card_data/mini/cards.yaml:8"), ("Bishop", 2, "card_data/mini/cards.yaml:9"),
        ("Rook", 2, "card_data/mini/cards.yaml:10"), ("Queen", 1, "card_data/mini/cards.yaml:11"),
        ("King", 1, "card_data/mini/cards.yaml:12")]
    assert len({c["face"] for c in cards}) == 5 and len({c["back"] for c in cards}) == 5   # the backs name their card


# --- pnp build --reprint ----------------------------------------------------------------------

def pieces(page, width: float, height: float) -> list[tuple[tuple[float, float, float, float], str]]:
    """Each piece's trim box on a page and the text inside it."""
    found = []
    text = page.get_textpage()
    for x, y, w, h, _turned in placements(page_reader(page), turned=True):
        found.append(((x, y, w, h), " ".join(text.get_text_bounded(x + 1, y + 1, x + w - 1, y + h - 1).split())))
    return found


_readers: dict = {}


def page_reader(page):
    return _readers[id(page)]


def pages_of(path: Path):
    """(pypdfium2 page, its pypdf twin) for each page: pypdf reads the content stream's
    placements, pdfium the text inside each."""
    document = pypdfium2.PdfDocument(str(path))
    reader = pdf(path)
    pages = []
    for index in range(len(document)):
        page = document[index]
        _readers[id(page)] = reader.pages[index]
        pages.append(page)
    return document, pages


def mirrored(box, paper, duplex: str) -> list[tuple[float, float]]:
    """Where the back of a piece at `box` lands: across the sheet's turn (or the fold)."""
    x, y, w, h = box
    width, height = paper
    if duplex in ("long-edge", "none"):
        return [(width - x - w, y)]
    if duplex == "short-edge":
        return [(x, height - y - h)]
    return [(width - x - w, y), (x, height - y - h)]   # fold: across whichever line it folds on


@pytest.mark.parametrize("paper,duplex,bleed", [
    ("letter", "long-edge", None), ("a4", "long-edge", None), ("letter", "short-edge", None),
    ("a4", "short-edge", "3mm"), ("letter", "fold", None), ("a4", "fold", "3mm"), ("letter", "long-edge", "3mm"),
])
def test_reprint_pages_hold_exactly_the_changed_cards_each_with_its_own_back(game, tmp_path, paper, duplex, bleed):
    options = ["--paper", paper, "--duplex", duplex] + (["--bleed", bleed] if bleed else [])
    build(game, "mini", tmp_path, *options)
    play_edits(game)
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", *options, root=game)
    assert result.exit_code == 0, result.output + (result.stderr or "")
    variant = {"long-edge": "", "short-edge": "-short-edge", "fold": "-fold"}[duplex] + ("-bleed" if bleed else "")
    path = tmp_path / f"mini/cards-{paper}{variant}-reprint.pdf"
    assert f"{path}  " in result.output and "7 cards to print, 6 to take out" in result.output
    document, pages = pages_of(path)
    cover = pages[0].get_textpage().get_text_range()
    assert "Take out of the printed deck" in cover
    assert "4 x Knight" in cover and "(redrawn: the new copies are in this print)" in cover
    assert "1 x Bishop" in cover and "(count 2 -> 3)" in cover
    assert "4 x Knight (changed: power)" in " ".join(cover.split()) and "2 x Rook (changed: text)" in " ".join(cover.split())
    assert "Queen" not in cover and "King" not in cover
    first = 2 if duplex != "fold" else 1   # a double-sided cover has a blank back
    if duplex != "fold":
        assert pages[1].get_textpage().get_text_range().strip() == ""
    fronts: Counter = Counter()
    step = 1 if duplex == "fold" else 2
    for index in range(first, len(pages), step):
        front_page = pages[index]
        back_page = front_page if duplex == "fold" else pages[index + 1]
        paper_size = (front_page.get_width(), front_page.get_height())   # a fold sheet may lie on its side
        backs = {(round(box[0], 1), round(box[1], 1)): text for box, text in pieces(back_page, *paper_size)
                 if text.startswith("BACK")}
        for box, text in pieces(front_page, *paper_size):
            if text.startswith("BACK"):
                continue
            name = text.split()[0]
            fronts[name] += 1
            behind = [backs.get((round(x, 1), round(y, 1))) for x, y in mirrored(box, paper_size, duplex)]
            assert f"BACK {name}" in behind, (index, name, box, backs)
    assert fronts == Counter({"Knight": 4, "Rook": 2, "Bishop": 1})
    # laid out as the whole deck: the same sheet (a fold sheet lies on its side as the deck's
    # does), each card in one of its slots
    _, full = pages_of(tmp_path / f"mini/cards-{paper}{variant}.pdf")
    size = (full[0].get_width(), full[0].get_height())
    assert (pages[first].get_width(), pages[first].get_height()) == size

    def slots(page) -> set:
        return {(round(box[0], 1), round(box[1], 1)) for box, text in pieces(page, *size) if not text.startswith("BACK")}
    assert slots(pages[first]) <= slots(full[0])
    # the full build's files are untouched, and so is its record: diff still lists the edits
    assert (tmp_path / f"mini/cards-{paper}{variant}.pdf").exists()
    assert "power: 3 -> 4" in run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output


def test_a_reprint_with_nothing_changed_writes_nothing(game, tmp_path):
    build(game, "mini", tmp_path)
    before = sorted(p.name for p in (tmp_path / "mini").iterdir())
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert result.exit_code == 0
    assert "mini: nothing to reprint, no card, board, sheet, rule sheet or tuck box changed since the last build; nothing written" in result.output
    assert sorted(p.name for p in (tmp_path / "mini").iterdir()) == before


def test_an_earlier_reprint_goes_once_a_later_reprint_or_build_makes_it_out_of_date(game, tmp_path):
    """The helper's trial: a cards reprint, a full build, then a board reprint left the cards
    reprint beside it, looking current."""
    build(game, "mini", tmp_path)
    folder = tmp_path / "mini"
    play_edits(game)
    run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert (folder / "cards-a4-reprint.pdf").exists()
    rebuilt = build(game, "mini", tmp_path)   # what is on the table now
    assert not (folder / "cards-a4-reprint.pdf").exists()
    assert f"{folder / 'cards-a4-reprint.pdf'}  removed: an earlier reprint, out of date" in rebuilt.output
    edit(game, "{name: Queen, power: 9", "{name: Queen, power: 8")
    run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    edit(game, "corner: Start here", "corner: Begin here", "card_data/mini/board.yaml")
    edit(game, "{name: Queen, power: 8", "{name: Queen, power: 9")   # the cards as printed again
    reprinted = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert (folder / "board-a4-reprint.pdf").exists() and not (folder / "cards-a4-reprint.pdf").exists()
    assert "cards-a4-reprint.pdf  removed: an earlier reprint, out of date" in reprinted.output
    edit(game, "corner: Begin here", "corner: Start here", "card_data/mini/board.yaml")
    nothing = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "nothing to reprint" in nothing.output and not list(folder.glob("*-reprint.pdf"))
    mine = folder / "notes-reprint.pdf"   # not pnp's: never removed
    mine.write_bytes(b"my own")
    build(game, "mini", tmp_path)
    assert mine.read_bytes() == b"my own"


def test_a_reprint_with_other_options_leaves_the_earlier_ones_reprint_be(game, tmp_path):
    """Both compare with the same printed deck: a letter reprint is not out of date because an
    A4 or a bled one was made (the review found the first deleted by the second)."""
    build(game, "mini", tmp_path)
    play_edits(game)
    run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", "--bleed", root=game)
    folder = tmp_path / "mini"
    assert (folder / "cards-a4-reprint.pdf").exists() and (folder / "cards-a4-bleed-reprint.pdf").exists()


def test_a_reprint_with_nothing_to_print_into_a_new_folder_writes_nothing(game, tmp_path):
    build(game, "mini", tmp_path / "printed")
    record = str(tmp_path / "printed/mini/.pnp-build.json")
    result = run("build", "--game", "mini", "--out", str(tmp_path / "fresh"), "--reprint", "--since", record, root=game)
    assert "nothing to reprint" in result.output
    assert not (tmp_path / "fresh/mini").exists() or not list((tmp_path / "fresh/mini").iterdir())


def test_the_cover_names_a_card_that_shares_its_label_by_what_is_printed_on_it(root, tmp_path):
    """Jukem has many RUN cards: the cover tells which by its yards, as on paper, not by its
    place in the data (`RUN (6)`), which no card shows."""
    build(root, "jukem", tmp_path)
    edit(root, "{type: run, title: RUN, colour: black, side: offense, yards: 30,",
         "{type: run, title: RUN, colour: black, side: offense, yards: 35,", "card_data/jukem/cards.yaml")
    run("build", "--game", "jukem", "--out", str(tmp_path), "--reprint", root=root)
    _, pages = pages_of(tmp_path / "jukem/cards-letter-reprint.pdf")
    cover = pages[0].get_textpage().get_text_range()
    assert "1 x RUN: yards 30 " in cover and "1 x RUN: yards 35 " in cover
    assert "RUN (" not in cover


def test_a_card_whose_value_becomes_another_cards_is_that_card_changed(root, tmp_path):
    """RUN yards 20 (x3) became yards 25, as the next RUN (x2) is: told as the next card's count
    going 2 -> 3 and this one's yards and count both changing, at each other's lines."""
    build(root, "jukem", tmp_path)
    edit(root, "{type: run, title: RUN, colour: black, side: offense, yards: 20,",
         "{type: run, title: RUN, colour: black, side: offense, yards: 25,", "card_data/jukem/cards.yaml")
    result = run("diff", "--game", "jukem", "--out", str(tmp_path), root=root)
    assert result.exit_code == 0, result.stderr
    lines = result.output.splitlines()
    assert lines[0] == "jukem: 1 card changed since the last build", lines
    line = next(n for n, text in enumerate((root / "card_data/jukem/cards.yaml").read_text().splitlines(), 1)
                if "yards: 25, count: 3" in text)
    assert f"cards.yaml:{line})" in lines[1] and lines[2] == "      yards: 20 -> 25", lines
    assert not any("count" in text for text in lines), lines


def test_the_cover_shows_a_long_text_where_the_old_and_the_new_differ(root, tmp_path):
    """A RUN card's text changed at its end: both lines read "Gain these yards on your driv…",
    the change cut off."""
    build(root, "jukem", tmp_path)
    path = root / "card_data/jukem/cards.yaml"
    text = path.read_text()
    at = text.index("yards: 30,")
    end = text.index("on your drive.", at)
    path.write_text(text[:end] + "on your drive!" + text[end + len("on your drive."):])
    run("build", "--game", "jukem", "--out", str(tmp_path), "--reprint", root=root)
    _, pages = pages_of(tmp_path / "jukem/cards-letter-reprint.pdf")
    cover = " ".join(pages[0].get_textpage().get_text_range().split())
    assert "1 x RUN: yards 30, text …in these yards on your drive! (changed: text)" in cover, cover


def test_a_reprint_of_only_removed_cards_is_a_cover_listing_them(game, tmp_path):
    build(game, "mini", tmp_path)
    edit(game, "{name: Queen, power: 9, count: 1", "{name: Queen, power: 9, count: 0")
    edit(game, "{name: Knight, power: 3, count: 4", "{name: Knight, power: 3, count: 3")
    run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    document, pages = pages_of(tmp_path / "mini/cards-a4-reprint.pdf")
    assert len(pages) == 1
    text = " ".join(pages[0].get_textpage().get_text_range().split())
    assert "1 x Queen (removed from the deck)" in text and "1 x Knight (count 4 -> 3)" in text
    assert "Add from this print nothing" in text


def test_a_tiled_board_reprints_only_the_tiles_whose_pictures_changed(game, tmp_path):
    build(game, "mini", tmp_path)
    tiles = len(pdf(tmp_path / "mini/board-a4.pdf").pages) - 1   # page 1: how to assemble
    assert tiles >= 4
    edit(game, "corner: Start here", "corner: Begin here", "card_data/mini/board.yaml")
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "board-a4-reprint.pdf  1 page: sheet A1 of the board changed" in result.output
    assert not (tmp_path / "mini/cards-a4-reprint.pdf").exists()   # no card changed
    reprint = pdf(tmp_path / "mini/board-a4-reprint.pdf")
    assert len(reprint.pages) == 1 and "Begin here" in reprint.pages[0].extract_text()
    edit(game, "far: Finish", "far: The end", "card_data/mini/board.yaml")
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    reprint = pdf(tmp_path / "mini/board-a4-reprint.pdf")
    assert len(reprint.pages) == 2
    changed = re.search(r"board-a4-reprint.pdf  2 pages: sheets A1, ([A-Z])(\d) of the board changed", result.output)
    assert changed and changed.group(1) != "A", result.output
    reprinted = render_pages(tmp_path / "mini/board-a4-reprint.pdf")
    assert f"Sheet {changed.group(1)}{changed.group(2)} of" in pdf(tmp_path / "mini/board-a4-reprint.pdf").pages[1].extract_text()
    # the reprinted tiles are the full build's tiles 1 and k, as they are drawn now
    build(game, "mini", tmp_path)   # (which makes the reprint out of date, and removes it)
    full = render_pages(tmp_path / "mini/board-a4.pdf")
    columns = max(int(label[1:]) for label in re.findall(r"Sheet ([A-Z]\d+) of", " ".join(
        page.extract_text() for page in pdf(tmp_path / "mini/board-a4.pdf").pages)))
    tile = (ord(changed.group(1)) - ord("A")) * columns + int(changed.group(2))   # its page, after the assembly page
    assert reprinted == [full[1], full[tile]]


def render_pages(path: Path) -> list[bytes]:
    document = pypdfium2.PdfDocument(str(path))
    return [document[i].render(scale=0.5).to_pil().tobytes() for i in range(len(document))]


# --- pnp odds ---------------------------------------------------------------------------------

def brute_force(deck: list[dict], hand: int, test, value) -> tuple[Counter, Counter]:
    """Every hand of `hand` physical cards, counted: by matching cards, and by sum."""
    by_matches: Counter = Counter()
    by_sum: Counter = Counter()
    for chosen in combinations(range(len(deck)), hand):
        by_matches[sum(1 for i in chosen if test(deck[i]))] += 1
        by_sum[sum(value(deck[i]) for i in chosen)] += 1
    return by_matches, by_sum


@pytest.mark.parametrize("hand", [1, 3, 5])
def test_odds_match_a_brute_force_count_of_every_hand(hand):
    from pnp.config.deck import Card, Deck
    from pnp.playtest.odds import Where, hand_odds
    kinds = [({"type": "pass", "yards": 5}, 3), ({"type": "run", "yards": 10}, 2), ({"type": "run", "yards": 5}, 4),
             ({"type": "pass", "yards": None}, 1), ({"type": "kick", "yards": 20}, 1)]
    deck = Deck(Path("d.yaml"), {"type": None, "yards": None}, [Card(k) for k, _ in kinds], [n for _, n in kinds])  # type: ignore[arg-type]
    physical = [k for k, n in kinds for _ in range(n)]
    odds = hand_odds(deck, hand, [Where("type", "=", "PASS")], "yards")
    matches, sums = brute_force(physical, hand, lambda c: c["type"] == "pass", lambda c: c["yards"] or 0)
    hands = sum(matches.values())
    assert odds.exactly == [Fraction(matches[k], hands) for k in range(hand + 1)]
    assert odds.sums == [(Fraction(s), Fraction(n, hands)) for s, n in sorted(sums.items())]
    numeric = hand_odds(deck, hand, [Where("yards", ">=", "10")])
    at_least, _ = brute_force(physical, hand, lambda c: (c["yards"] or 0) >= 10, lambda c: 0)
    assert numeric.at_least(1) == Fraction(sum(n for k, n in at_least.items() if k >= 1), hands)


def test_pnp_odds_prints_the_table_and_a_tried_count_moves_it(game):
    result = run("odds", "--game", "mini", "--deck", "cards", "--hand", "2", "--where", "power>=5",
                 "--at-least", "1", root=game)
    assert result.exit_code == 0, result.output
    # 3 of 10 cards have power 5 or more: 1 - C(7,2)/C(10,2) = 1 - 21/45
    assert "3 of the 10 cards have power>=5" in result.output
    assert f"P(at least 1 with power>=5 in 2 cards) = {100 * (1 - 21 / 45):.2f} %" in result.output
    tried = run("odds", "--game", "mini", "--hand", "2", "--where", "power>=5", "--at-least", "1",
                "--count", "Rook=0", root=game)
    assert "(counts tried: Rook=0)" in tried.output
    assert f"= {100 * (1 - 21 / 28):.2f} %" in tried.output   # 1 of 8 now: 1 - C(7,2)/C(8,2)
    assert (game / "card_data/mini/cards.yaml").read_text() == CARDS   # tried, not written
    summed = run("odds", "--game", "mini", "--hand", "1", "--sum", "power", root=game)
    assert "     9     10.00 %     10.00 %" in summed.output   # the one Queen


def test_odds_refuse_a_misspelt_field_or_card_as_usage_errors(game):
    bad = run("odds", "--game", "mini", "--hand", "2", "--where", "pwer>=5", root=game)
    assert bad.exit_code == 2 and "'pwer' is not a field of cards.yaml (did you mean 'power'?)" in bad.output + (bad.stderr or "")
    bad = run("odds", "--game", "mini", "--hand", "2", "--count", "Knigt=2", root=game)
    assert bad.exit_code == 2 and "no card 'Knigt'" in bad.output + (bad.stderr or "")
    bad = run("odds", "--game", "mini", "--hand", "11", root=game)
    assert bad.exit_code == 2 and "a hand of 11 from a deck of 10" in bad.output + (bad.stderr or "")


# --- pnp proof --changes ----------------------------------------------------------------------

def red_boxes(picture, left: int, right: int) -> tuple[int, int, int, int] | None:
    """The extent of the red marking in a column range of the picture."""
    part = picture.crop((left, 0, right, picture.height)).convert("RGB")
    pixels = [(x, y) for y in range(part.height) for x in range(part.width) if part.getpixel((x, y)) == (220, 20, 60)]
    if not pixels:
        return None
    return (min(x for x, _ in pixels), min(y for _, y in pixels), max(x for x, _ in pixels), max(y for _, y in pixels))


def test_proof_changes_draws_old_and_new_faces_side_by_side_with_the_difference_boxed(game, tmp_path):
    from PIL import Image
    build(game, "mini", tmp_path)
    play_edits(game)
    # the layout is edited too: the old faces must come from the record's copy, not the new file
    edit(game, "colour: white\n    align: center\n    y: 20mm", "colour: yellow\n    align: center\n    y: 20mm",
         "layouts/mini/card.yaml")
    result = run("proof", "--game", "mini", "--out", str(tmp_path), "--changes", root=game)
    assert result.exit_code == 0, result.output + (result.stderr or "")
    path = tmp_path / "mini/proof/cards-changes.png"
    assert f"mini: {path}" in result.output
    picture = Image.open(path).convert("RGB")
    half = picture.width // 2
    # one row per card whose face changed: all five (the layout), Knight and Rook with fields
    assert picture.height > 5 * 200
    old_box, new_box = red_boxes(picture, 0, half), red_boxes(picture, half, picture.width)
    assert old_box is not None and new_box is not None
    assert old_box[1] == new_box[1] and old_box[3] == new_box[3]   # the same place on both faces
    # the power is white on the old faces, yellow on the new: drawn from the kept layout
    first_row = picture.crop((0, 0, picture.width, old_box[1] + 120))   # the first card's boxes alone

    def inside(left: int, right: int) -> set[tuple[int, int, int]]:   # what a box holds, within its red
        box = red_boxes(first_row, left, right)
        assert box is not None
        return {picture.getpixel((left + x, y)) for x in range(box[0] + 3, box[2] - 2) for y in range(box[1] + 3, box[3] - 2)}
    colours_left, colours_right = inside(0, half), inside(half, picture.width)
    assert (255, 255, 255) in colours_left and (255, 255, 255) not in colours_right
    assert any(r > 200 and g > 200 and b < 60 for r, g, b in colours_right)


def test_the_boxes_round_a_change_are_seen_on_a_card_of_their_own_red(game, tmp_path):
    """The trial's crimson card: a box of the mark's red alone vanished on it; a white rim
    either side of the red shows on any card (this card's red is a shade off the mark's, so
    the mark can be found)."""
    from PIL import Image
    edit(game, "{name: Knight, power: 3, count: 4,", '{name: Knight, power: 3, count: 4, colour: "#d81840",')
    build(game, "mini", tmp_path)
    edit(game, "{name: Knight, power: 3,", "{name: Knight, power: 4,")
    assert run("proof", "--game", "mini", "--out", str(tmp_path), "--changes", root=game).exit_code == 0
    picture = Image.open(tmp_path / "mini/proof/cards-changes.png").convert("RGB")
    box = red_boxes(picture, 0, picture.width // 2)
    assert box is not None
    left, top, right, bottom = box
    middle = (top + bottom) // 2
    assert [picture.getpixel((x, middle)) for x in (left - 2, left - 1)] == [(255, 255, 255)] * 2   # the rim, outside
    assert [picture.getpixel((x, middle)) for x in range(left, left + 3)] == [(220, 20, 60)] * 3
    assert picture.getpixel((left + 3, middle)) != (255, 255, 255)   # within the red, the card as drawn


def test_the_label_over_a_changed_card_is_one_line_above_it(game, tmp_path):
    """A changed text of several lines, or one too long for the sheet, was drawn line after line
    over the cards below its label: one line now, cut with an ellipsis."""
    from PIL import Image
    build(game, "mini", tmp_path)
    edit(game, "text: Moves in a line.", 'text: "Moves in a line,\\nthen stops, and waits for the others to move past it."')
    assert run("proof", "--game", "mini", "--out", str(tmp_path), "--changes", root=game).exit_code == 0
    picture = Image.open(tmp_path / "mini/proof/cards-changes.png").convert("RGB")
    below_the_line = {picture.getpixel((x, y)) for x in range(picture.width) for y in range(16 + 16, 16 + 22)}
    assert below_the_line == {(235, 235, 235)}   # the sheet's grey between the label and the cards


def test_proof_changes_with_nothing_redrawn_writes_nothing(game, tmp_path):
    build(game, "mini", tmp_path)
    edit(game, "{name: Bishop, power: 2, count: 2", "{name: Bishop, power: 2, count: 3")
    result = run("proof", "--game", "mini", "--out", str(tmp_path), "--changes", root=game)
    assert result.output == "mini: no card looks different since the last build (1 count or added/removed changes: see pnp diff)\n"
    assert not (tmp_path / "mini/proof").exists()


# --- the table view's odds over HTTP ----------------------------------------------------------

def test_the_table_page_and_its_odds_are_served_with_pnp_odds_numbers(game, tmp_path):
    from test_serve import Served
    from pnp.playtest.odds import Where, hand_odds, with_counts
    from pnp.project import Project
    served = Served(game, "mini", tmp_path / "out")
    status, kind, page = served.request("/table")
    assert status == 200 and kind.startswith("text/html") and b"/assets/table.js" in page
    status, kind, script = served.request("/assets/table.js")
    assert status == 200 and b"function shuffled" in script
    served.wait_for(lambda state: state["snapshot"] is not None)
    data = Project(game).check("mini").decks["cards"]
    status, _, body = served.request("/api/odds?deck=cards&hand=3&where=power%3E%3D5&at_least=1&sum=power&count=Rook%3D0")
    assert status == 200, body
    answer = json.loads(body)
    expected = hand_odds(with_counts(data, {"Rook": 0}), 3, [Where("power", ">=", "5")], "power")
    assert answer["chance"] == float(expected.at_least(1)) and answer["total"] == 8
    assert answer["sums"] == [[float(s), float(p)] for s, p in expected.sums or []]
    status, _, body = served.request("/api/odds?deck=cards&hand=3&where=pwer%3D1")
    assert status == 400 and b"'pwer=1': 'pwer' is not a field of the cards deck" in body, body
    status, _, body = served.request("/api/odds?deck=cards&hand=3&count=Rook")
    assert status == 400 and b"'Rook': write a card and its count, CARD=N" in body, body
    assert b"--" not in body   # the page has no command-line options
    status, _, body = served.request("/api/odds?deck=nope&hand=3")
    assert status == 400 and b"no deck 'nope'; decks: cards" in body


def test_watch_rebuilds_keep_the_printed_build_to_compare_with(game, tmp_path):
    import sys
    from test_edit_loop import Lines
    build(game, "mini", tmp_path)
    process = subprocess.Popen([sys.executable, "-m", "pnp", "watch", "--game", "mini", "--root", str(game),
                                "--out", str(tmp_path), "--interval", "0.1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out = Lines(process.stdout)
        out.wait_for("mini: up to date")
        edit(game, "{name: Knight, power: 3", "{name: Knight, power: 4")
        out.wait_for("mini: rebuilt")
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert "power: 3 -> 4" in run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    build(game, "mini", tmp_path)   # a build of its own is what gets printed next
    assert "no card changed" in run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output


def test_a_label_with_a_colon_is_told_apart_whole(game, tmp_path):
    edit(game, "  - {name: Rook, power: 5, count: 2, text: Moves in a line.}\n",
         '  - {name: "Act 1: Rook", power: 5, count: 2, text: Moves in a line.}\n'
         '  - {name: "Act 1: Rook", power: 6, count: 1, text: Moves in a long line.}\n')
    build(game, "mini", tmp_path)
    edit(game, '{name: "Act 1: Rook", power: 6,', '{name: "Act 1: Rook", power: 8,')
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert "  cards: Act 1: Rook (2), the one with power 6, text Moves in a long line.  (" in output, output


def test_cards_of_one_name_are_told_apart_by_their_place_among_them(game, tmp_path):
    """The second and third cards named Rook are `Rook (2)` and `Rook (3)`, as a person counts."""
    edit(game, "  - {name: Rook, power: 5, count: 2, text: Moves in a line.}\n",
         "  - {name: Rook, power: 5, count: 2, text: Moves in a line.}\n"
         "  - {name: Rook, power: 6, count: 1, text: Moves in a long line.}\n"
         "  - {name: Rook, power: 7, count: 1, text: Moves in the longest line.}\n")
    build(game, "mini", tmp_path)
    edit(game, "{name: Rook, power: 6,", "{name: Rook, power: 8,")
    edit(game, "{name: Rook, power: 7,", "{name: Rook, power: 9,")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    # and by what they print, so each can be found in the printed deck
    assert "  cards: Rook (2), the one with power 6, text Moves in a long line.  (" in output, output
    assert "  cards: Rook (3), the one with power 7, text Moves in the longest line.  (" in output, output
    assert "power: 6 -> 8" in output and "power: 7 -> 9" in output


def test_a_card_put_in_before_others_of_its_name_is_one_card_added(game, tmp_path):
    edit(game, "  - {name: Rook, power: 5, count: 2, text: Moves in a line.}\n",
         "  - {name: Rook, power: 5, count: 2, text: Moves in a line.}\n"
         "  - {name: Rook, power: 6, count: 1, text: Moves in a long line.}\n")
    build(game, "mini", tmp_path)
    edit(game, "  - {name: Rook, power: 5, count: 2", "  - {name: Rook, power: 1, count: 3, text: A new rook.}\n"
         "  - {name: Rook, power: 5, count: 2")
    output = run("diff", "--game", "mini", "--out", str(tmp_path), root=game).output
    assert output.splitlines() == ["mini: 1 card changed since the last build",
                                   f"  cards: Rook: added, 3 copies  (card_data/mini/cards.yaml:{line_of(game, 'Rook')})"]
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "3 cards to print, 0 to take out" in result.output


def test_a_sheet_reprints_the_pages_of_changed_and_added_cards_only(game, tmp_path):
    (game / "layouts/mini/sheet.yaml").write_text(
        'size: [150mm, 100mm]\nelements:\n  - {kind: text, text: "{name} {power}", size: 24, x: 10mm, y: 10mm, w: 130mm, h: 20mm}\n')
    edit(game, "  - {id: board,", "  - {id: roster, kind: sheet, layout: mini/sheet, data: cards.yaml}\n  - {id: board,",
         "card_data/mini/game.yaml")
    build(game, "mini", tmp_path)
    assert len(pdf(tmp_path / "mini/roster-a4.pdf").pages) == 10
    play_edits(game)   # Knight's power (4 pages), Rook's text (not on the sheet), a third Bishop
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", root=game)
    assert "roster-a4-reprint.pdf  5 pages: pages 1, 2, 3, 4, 7 changed" in result.output
    texts = [page.extract_text().strip() for page in pdf(tmp_path / "mini/roster-a4-reprint.pdf").pages]
    assert texts == ["Knight 4"] * 4 + ["Bishop 2"]


def test_a_reprint_with_other_options_than_the_print_says_so(game, tmp_path):
    """The deck was printed on A4; a reprint asked for without --paper is laid out for Letter,
    which matches no printed file: the build says so, naming the options to give."""
    build(game, "mini", tmp_path, "--paper", "a4")
    play_edits(game)
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", "--paper", "letter", root=game)
    assert result.exit_code == 0
    assert "there is no cards-letter.pdf in" in result.stderr and "give --reprint the paper and print options" \
        in result.stderr
    again = run("build", "--game", "mini", "--out", str(tmp_path), "--reprint", "--paper", "a4", root=game)
    assert "give --reprint" not in again.stderr
