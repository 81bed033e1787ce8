"""`pnp validate` ok means `pnp build` succeeds: on a corpus of edits, the two agree."""

from __future__ import annotations

import pytest

from conftest import run


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


CASES = {
    "misspelt component where key": ("card_data/mini/game.yaml", "    data: cards.yaml\n    front: mini/card",
                                     "    data: cards.yaml\n    where: {nmae: Knight}\n    front: mini/card"),
    "misspelt rule where key": ("card_data/mini/game.yaml", "{rule: total, deck: cards, equals: 6, source: Contents}",
                                "{rule: count, deck: cards, where: {pwoer: 3}, equals: 4, source: Contents}"),
    "unknown field in a layout": ("layouts/mini/card.yaml", 'text: "{power}"', 'text: "{pwoer}"'),
    "image that does not decode": ("layouts/mini/card.yaml", "elements:\n", "elements:\n  - {kind: image, src: broken.png}\n"),
    "piece larger than the paper": ("card_data/mini/game.yaml", "    back: mini/back",
                                    "    back: mini/back\n    size: [400mm, 400mm]"),
    "crossing emphasis": ("card_data/mini/cards.yaml", "text: Moves in an L.", 'text: "**a *b** c*"'),
    "unknown rule sheet table": ("card_data/mini/rules.md", "", "{{no-such-table}}\n"),
    "a valid edit": ("card_data/mini/cards.yaml", "text: Moves in an L.", "text: Jumps."),
}


@pytest.mark.parametrize("name", CASES)
def test_validate_and_build_agree(mini, tmp_path, name):
    path, old, new = CASES[name]
    (mini / "card_data/mini/broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    target = mini / path
    if old:
        edit(target, old, new)
    else:
        target.write_text(target.read_text() + "\n" + new)
    checked = run("validate", "--game", "mini", root=mini)
    built = run("build", "--game", "mini", "--out", str(tmp_path / "out"), root=mini)
    assert (checked.exit_code == 0) == (built.exit_code == 0), (name, checked.stderr, built.stderr)
    assert (checked.exit_code == 0) == (name == "a valid edit"), (name, checked.stderr)
    if checked.exit_code:
        assert "Traceback" not in checked.stderr and "internal problem" not in checked.stderr


def test_validating_games_in_two_processes_reports_what_one_does(root, monkeypatch):
    """Issue 31: `validate -j 2` checks the games in processes of their own; the report (each
    game's line, its problems and the warnings, in order) and the exit status are one
    process's, a game that fails included."""
    from pnp import processes
    edit(root / "card_data/jukem/cards.yaml", "title: {type: text", "title: {type: txet")   # a load error
    edit(root / "card_data/big-ten/game.yaml", "equals: ", "equals: 1")   # a rule: a problem
    # a warning: tokens touching, 8 across, leave no margin for marks on Letter
    edit(root / "card_data/monster-ball/game.yaml", "front: monster-ball/token", "front: monster-ball/token\n    gap: 0mm")
    apart: list[set[str]] = []
    real = processes.forked
    monkeypatch.setattr(processes, "forked", lambda *args, **kw: (apart.append(set(found := real(*args, **kw))), found)[1])
    one = run("validate", "--all", "--jobs", "1", root=root)
    assert apart == []
    two = run("validate", "--all", "--jobs", "2", root=root)
    assert apart == [{"12th-player", "big-ten", "monster-ball"}]   # jukem failed there, told here
    assert (two.exit_code, two.output, two.stderr) == (one.exit_code, one.output, one.stderr)
    assert one.exit_code == 1
    assert "monster-ball: ok" in one.output and "12th-player: ok" in one.output
    assert "jukem/cards.yaml" in one.stderr and "big-ten/game.yaml" in one.stderr
    assert "warning: monster-ball: tokens: the horizontal cut" in one.stderr   # which game: validate --all


def test_a_process_that_dies_leaves_its_work_to_the_command(root, monkeypatch):
    """A process killed mid-way (out of memory, say) breaks the pool: what it did not finish
    is done in the command's own process, with the same report, and no traceback."""
    import os

    from pnp import processes
    from pnp.commands import validate
    one = run("validate", "--all", "--jobs", "1", root=root)
    real = validate.validate_game
    monkeypatch.setattr(validate, "validate_game", lambda project, id, jobs=1:
                        os._exit(9) if id == "big-ten" and processes.in_child() else real(project, id, jobs))
    two = run("validate", "--all", "--jobs", "2", root=root)
    assert (two.exit_code, two.output, two.stderr) == (one.exit_code, one.output, one.stderr)
    assert one.exit_code == 0 and "big-ten: ok" in one.output
