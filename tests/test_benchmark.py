"""A guard against gross slowdowns (the real targets live in bench/run.py and
docs/performance.md): one whole-process run at 560 cards against plain reportlab."""

from __future__ import annotations

import subprocess
import sys
import time

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
from synthetic import make_game  # noqa: E402


def seconds(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - started


def test_560_cards_stay_within_a_generous_bound_of_plain_reportlab(tmp_path):
    root = tmp_path / "root"
    game = make_game(root, 560)
    pnp = seconds([sys.executable, "-m", "pnp", "build", "--game", game, "--root", str(root),
                   "--out", str(tmp_path / "out"), "-q"])
    plain = seconds([sys.executable, "bench/plain_reportlab.py", "560", str(tmp_path / "plain.pdf")])
    assert pnp < 4 * plain, f"pnp {pnp:.2f} s against plain reportlab {plain:.2f} s"
    size = (tmp_path / "out" / game / "cards-a4.pdf").stat().st_size
    assert size < 2 * (tmp_path / "plain.pdf").stat().st_size
    rebuild = seconds([sys.executable, "-m", "pnp", "build", "--game", game, "--root", str(root),
                       "--out", str(tmp_path / "out"), "-q"])
    assert rebuild < 1.5
