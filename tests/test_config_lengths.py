"""A component's lengths (a deck's gap and corner radius, a board's overlap, a tuck box's card
thickness and clearance) are typed and checked as game.yaml loads: a bad one is one error at
its line and field from `pnp list`, `validate` and `build` alike, before anything is drawn."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run

EXTRA = {   # a component of each kind, added to the mini game
    "deck": "    back: mini/back\n",
    "board": "  - id: board\n    kind: board\n    layout: mini/card\n",
    "tuckbox": "  - id: box\n    kind: tuckbox\n",
}

BAD = [   # (kind, key, value, what the message says)
    ("deck", "gap", "banana", "'banana' is not a length"),
    ("deck", "gap", "-3mm", "gap '-3mm' must be a length of 0 or more"),
    ("deck", "gap", "5%", "(not a percentage)"),
    ("deck", "radius", "-2mm", "a corner radius is a length from 0 to 20mm"),
    ("deck", "radius", "50%", "a corner radius is a length from 0 to 20mm"),
    ("deck", "radius", "21mm", "a corner radius is a length from 0 to 20mm"),
    ("board", "overlap", "900mm", "overlap '900mm' must be a length from 0 to 50 mm"),
    ("board", "overlap", "-5mm", "overlap '-5mm' must be a length from 0 to 50 mm"),
    ("board", "overlap", "12", "'12' needs a unit"),
    ("tuckbox", "thickness", "3cm", "thickness '3cm' must be one card's thickness, from 0.05 to 5 mm"),
    ("tuckbox", "thickness", "0mm", "thickness '0mm' must be one card's thickness"),
    ("tuckbox", "clearance", "-1mm", "clearance '-1mm' must be a length from 0 to 10 mm"),
    ("tuckbox", "clearance", "a bit", "'a bit' is not a length"),
]


def with_setting(mini: Path, kind: str, key: str, value: str) -> tuple[str, int]:
    """The mini game with `key: value` on a component of `kind`; its field and line."""
    game = mini / "card_data/mini/game.yaml"
    text = game.read_text()
    extra = EXTRA[kind]
    if kind == "deck":
        text = text.replace(extra, extra + f"    {key}: '{value}'\n")
    else:
        text = text.replace("contents:", extra + f"    {key}: '{value}'\ncontents:")
    game.write_text(text)
    line = text.splitlines().index(f"    {key}: '{value}'") + 1
    index = {"deck": 1, "board": 3, "tuckbox": 3}[kind]
    return f"components[{index}].{key}", line


def pnp(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pnp", *args, "--root", str(root)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("kind, key, value, says", BAD, ids=[f"{k}-{key}-{v}" for k, key, v, _ in BAD])
def test_a_bad_length_fails_pnp_list_at_its_line(mini, kind, key, value, says):
    field, line = with_setting(mini, kind, key, value)
    result = pnp(mini, "list")
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "internal problem" not in result.stderr, result.stderr
    for fragment in (f"game.yaml:{line}", field, says):
        assert fragment in result.stderr, (fragment, result.stderr)


@pytest.mark.parametrize("command", ["validate", "build"])
def test_validate_and_build_refuse_it_with_the_same_message(mini, tmp_path, command):
    field, line = with_setting(mini, "board", "overlap", "900mm")
    listed = run("list", root=mini)
    out = ["--out", str(tmp_path / "out")] if command == "build" else []
    result = run(command, "--game", "mini", *out, root=mini)
    assert result.exit_code == listed.exit_code == 1
    message = next(text for text in listed.stderr.splitlines() if field in text)
    assert f"game.yaml:{line}" in message and message in result.stderr, (message, result.stderr)
    assert not (tmp_path / "out/mini").exists() or not any((tmp_path / "out/mini").glob("*.pdf"))


def test_good_lengths_load_as_lengths(mini):
    from pnp.config.game import load_game
    from pnp.units import mm
    import pnp.kinds  # noqa: F401  (registers the component kinds)
    with_setting(mini, "deck", "radius", "3mm")
    with_setting(mini, "board", "overlap", "2cm")
    game = load_game(mini, "mini")
    deck, board = game.components[0], game.components[2]
    assert deck.radius.points == pytest.approx(mm(3)) and deck.gap is None
    assert board.overlap.points == pytest.approx(mm(20))
