"""pnp as a designer installs it: a wheel, used in a folder of their own with no fonts/ or
layouts/ of its own, far from this repository."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, embedded, pdf, render_png


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """The wheel built from this checkout, unpacked into a folder of its own (what pip does
    without the dependencies, which this environment already has)."""
    work = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(work / "dist"),
                            str(REPO)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    wheel = next((work / "dist").glob("pnp_cards-*.whl"))
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


def test_editing_a_bundled_font_or_layout_rebuilds_an_outside_project(installed, tmp_path):
    """A project with no fonts/ or layouts/base/ of its own draws with pnp's: a change to
    those files (an upgrade, an edit in a checkout) is a change to what its build reads."""
    import shutil
    site = tmp_path / "site"   # a copy of the installed pnp, to edit without touching the others'
    shutil.copytree(installed["site"], site)
    own = {"site": site}
    project = tmp_path / "project"
    project.mkdir()
    assert pnp_from_wheel(own, project, "new", "demo").returncode == 0

    def build() -> str:
        result = pnp_from_wheel(own, project, "build", "--game", "demo")
        assert result.returncode == 0, result.stderr
        return result.stdout

    build()
    assert "up to date" in build()
    font = site / "pnp/bundled/fonts/FjallaOne-Regular.ttf"
    font.write_bytes(font.read_bytes() + b"\0" * 4)   # still a font; its bytes changed
    assert "up to date" not in build()
    assert "up to date" in build()
    layout = site / "pnp/bundled/layouts/base/card.yaml"
    layout.write_text(layout.read_text().replace('fill: "#fbf8ef"', 'fill: "#3a5f1f"'))   # the panel
    assert "up to date" not in build()
    _, most = max(render_png(project / "output/demo/cards-letter.pdf", 0).getcolors(1 << 20))
    assert most == (0x3A, 0x5F, 0x1F)   # the cards' panels, in the new colour


def test_the_distribution_is_pnp_cards_with_the_version_written_once(installed):
    """`pnp` on the public index is another project: pnp is published as pnp-cards, its
    version read from pnp/__init__.py by the build and by `pnp --version`."""
    import pnp
    metadata = next(name for name in zipfile.ZipFile(installed["wheel"]).namelist() if name.endswith("/METADATA"))
    text = zipfile.ZipFile(installed["wheel"]).read(metadata).decode()
    assert "\nName: pnp-cards\n" in text and f"\nVersion: {pnp.__version__}\n" in text
    assert installed["wheel"].name.startswith(f"pnp_cards-{pnp.__version__}-")
    assert (REPO / "CHANGELOG.md").read_text().count(f"## {pnp.__version__}") == 1


def test_installed_from_the_wheel_into_a_fresh_environment_as_pipx_does(installed, tmp_path):
    """A virtual environment of its own, the wheel installed into it by pip and its `pnp`
    command run from there (the dependencies lent from this environment: nothing is downloaded)."""
    import sysconfig
    env = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, timeout=300)
    python = env / "bin" / "python"
    lent = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(lent) / "lent-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                          str(installed["wheel"])], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    command = env / "bin" / "pnp"
    import pnp
    version = subprocess.run([str(command), "--version"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert version.returncode == 0 and version.stdout.strip() == f"pnp, version {pnp.__version__}", version.stderr
    project = tmp_path / "project"
    project.mkdir()
    assert subprocess.run([str(command), "new", "demo"], cwd=project, capture_output=True, timeout=120).returncode == 0
    built = subprocess.run([str(command), "build", "--game", "demo"], cwd=project, capture_output=True, text=True,
                           timeout=300)
    assert built.returncode == 0, built.stderr
    where = subprocess.run([str(python), "-c", "import pnp; print(pnp.__file__)"], cwd=project,
                           capture_output=True, text=True).stdout
    assert where.startswith(lent), where   # the installed wheel, not this checkout
    assert len(pdf(project / "output/demo/cards-letter.pdf").pages) == 2
