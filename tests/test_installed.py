"""pnp as a designer installs it: a wheel, used in a folder of their own with no fonts/ or
layouts/ of its own, far from this repository."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, embedded, pdf


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """The wheel built from this checkout, unpacked into a folder of its own (what pip does
    without the dependencies, which this environment already has)."""
    work = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(work / "dist"),
                            str(REPO)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    wheel = next((work / "dist").glob("pnp-*.whl"))
    site = work / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return {"wheel": wheel, "site": site}


def pnp_from_wheel(installed: dict, folder: Path, *args: str) -> subprocess.CompletedProcess:
    """`python -m pnp ARGS` in `folder`, importing pnp from the unpacked wheel only."""
    env = {**os.environ, "PYTHONPATH": str(installed["site"])}
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_wheel_carries_the_fonts_and_base_layout_but_not_the_bundled_games(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    assert "pnp/bundled/fonts/fonts.yaml" in names and "pnp/bundled/layouts/base/card.yaml" in names
    assert "pnp/bundled/sheets/poker-3x2-gutters-letter.yaml" in names
    assert "pnp/bundled/arrangements/pips.yaml" in names      # repeat at: pips, outside the repository too
    assert any(name.endswith(".ttf") for name in names)
    assert any(name.startswith("pnp/bundled/fonts/OFL") for name in names)   # each font's licence
    assert not any(name.startswith("pnp/bundled/layouts/big-ten") for name in names)


def test_pnp_new_and_build_in_an_empty_folder_outside_the_repository(installed, tmp_path):
    probe = subprocess.run([sys.executable, "-c", "import pnp; print(pnp.__file__)"], cwd=tmp_path,
                           env={**os.environ, "PYTHONPATH": str(installed["site"])}, capture_output=True, text=True)
    assert probe.stdout.startswith(str(installed["site"])), probe.stdout   # the wheel, not this checkout

    made = pnp_from_wheel(installed, tmp_path, "new", "demo")
    assert made.returncode == 0, made.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["card_data", "layouts"]
    built = pnp_from_wheel(installed, tmp_path, "build", "--all")
    assert built.returncode == 0, built.stderr
    cards = pdf(tmp_path / "output" / "demo" / "cards-letter.pdf")
    fonts = {}
    for page in cards.pages:
        fonts.update({str(f["/BaseFont"]): f for f in (f.get_object() for f in page["/Resources"]["/Font"].values())})
    assert any("Lato" in name for name in fonts) and any("Fjalla" in name for name in fonts), fonts
    assert all(embedded(font) for font in fonts.values())
    # only the user's game was built: the repository's games are nowhere in sight
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == ["demo"]
    valid = pnp_from_wheel(installed, tmp_path, "validate", "--all")
    assert valid.returncode == 0 and "demo: ok" in valid.stdout, valid.stdout + valid.stderr


def test_a_folder_with_no_game_says_how_to_start_one(installed, tmp_path):
    result = pnp_from_wheel(installed, tmp_path, "build", "--all")
    assert result.returncode == 2
    assert "no card_data/ folder" in result.stderr and "pnp new" in result.stderr
    assert "Traceback" not in result.stderr
