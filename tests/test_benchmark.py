"""The benchmark's workload builds, and pnp's PDF stays near the size of plain reportlab's for
the same cards. Timing is the benchmark's job (bench/run.py, figures in docs/performance.md),
not this suite's: a shared machine makes any time bound here flaky."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
from synthetic import make_game  # noqa: E402


def run(command: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=REPO, check=True, capture_output=True, text=True)


def test_the_benchmark_deck_builds_near_plain_reportlab_size_and_is_skipped_when_unchanged(tmp_path):
    root = tmp_path / "root"
    game = make_game(root, 560)
    build = [sys.executable, "-m", "pnp", "build", "--game", game, "--root", str(root), "--out", str(tmp_path / "out")]
    run(build)
    run([sys.executable, "bench/plain_reportlab.py", "560", str(tmp_path / "plain.pdf")])
    size = (tmp_path / "out" / game / "cards-a4.pdf").stat().st_size
    assert size < 2 * (tmp_path / "plain.pdf").stat().st_size
    assert "up to date" in run(build).stdout
