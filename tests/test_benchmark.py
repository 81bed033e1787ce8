"""The benchmark's workload builds, and pnp's PDF stays near the size of plain reportlab's for
the same cards. Timing is the benchmark's job (bench/run.py, figures in docs/performance.md),
not this suite's: a shared machine makes any time bound here flaky."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pypdfium2
import pytest
from PIL import ImageChops

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


def page_pictures(pdf: Path) -> list:
    document = pypdfium2.PdfDocument(pdf)
    return [document[i].render(scale=1.5).to_pil().convert("L") for i in range(len(document))]


@pytest.mark.parametrize("script", ["handtuned_reportlab", "raw_pdf"])
def test_the_benchmark_references_draw_the_same_pages_as_plain_reportlab(tmp_path, script):
    """The two yardsticks of issue 31 (forms and cached widths; no PDF library at all) are fair
    only if they draw what plain_reportlab.py draws: every page alike to the pixel, but for
    anti-aliasing (no pixel off by more than a third of the grey scale)."""
    run([sys.executable, "bench/plain_reportlab.py", "12", str(tmp_path / "plain.pdf")])
    run([sys.executable, f"bench/{script}.py", "12", str(tmp_path / "other.pdf")])
    plain, other = page_pictures(tmp_path / "plain.pdf"), page_pictures(tmp_path / "other.pdf")
    assert len(other) == len(plain) == 4
    for number, (mine, theirs) in enumerate(zip(other, plain), 1):
        assert mine.size == theirs.size
        worst = ImageChops.difference(mine, theirs).getextrema()[1]
        assert worst < 85, f"page {number} differs from plain reportlab's by up to {worst}/255"


def test_the_benchmark_sheets_build_the_deck_of_its_yaml(tmp_path):
    """The sheet figures compare like with like: the same cards from a CSV file, an XLSX
    workbook as spreadsheet apps save it and one as openpyxl's write-only mode writes it give
    the YAML deck's PDF, byte for byte."""
    import hashlib
    root = tmp_path / "root"
    pdfs = set()
    for data in ("yaml", "csv", "xlsx", "xlsx-script"):
        game = make_game(root, 27, data=data)
        run([sys.executable, "-m", "pnp", "build", "--game", game, "--root", str(root), "--out", str(tmp_path / "out")])
        pdfs.add(hashlib.sha256((tmp_path / "out" / game / "cards-a4.pdf").read_bytes()).hexdigest())
    assert len(pdfs) == 1
