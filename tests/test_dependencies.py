"""Dependencies that can't surprise: every one bounded both ways, the oldest allowed releases
pinned for CI's second run, and a damaged file given to a third-party reader (a font, a
workbook) one clear error naming it, never an internal problem."""

from __future__ import annotations

import re
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from conftest import REPO, run

tomllib = pytest.importorskip("tomllib")


def requirements() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return [Requirement(text) for text in project["dependencies"]]


def oldest() -> dict[str, str]:
    lines = (REPO / ".ci/oldest.txt").read_text().splitlines()
    pins = [line.split("==") for line in lines if line.strip() and not line.startswith("#")]
    return {normal(name): pinned for name, pinned in pins}


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_dependency_has_a_lower_and_an_upper_bound():
    for requirement in requirements():
        operators = {spec.operator for spec in requirement.specifier}
        assert ">=" in operators and "<" in operators, f"{requirement} needs both bounds"


def test_ci_pins_exactly_the_lower_bounds_for_its_oldest_run():
    pins = oldest()
    assert set(pins) == {normal(r.name) for r in requirements()}
    for requirement in requirements():
        lower = next(Version(s.version) for s in requirement.specifier if s.operator == ">=")
        assert Version(pins[normal(requirement.name)]) == lower, requirement
        assert requirement.specifier.contains(pins[normal(requirement.name)]), requirement


def test_the_installed_releases_are_within_the_bounds():
    for requirement in requirements():
        assert requirement.specifier.contains(version(requirement.name), prereleases=True), \
            f"{requirement.name} {version(requirement.name)} is outside {requirement.specifier}"


# --- a damaged file for a third-party reader is one clear error naming it ---------------------

@pytest.mark.parametrize("font, keep", [("FjallaOne-Regular.ttf", 0.25), ("FjallaOne-Regular.ttf", 0.75),
                                        ("FjallaOne-Regular.ttf", 0.98), ("Lato-Regular.ttf", 0.5),
                                        ("Lato-Regular.ttf", 0.999), ("Lato-Regular.ttf", 0.001)])
def test_a_truncated_font_is_one_error_naming_it(mini, tmp_path, font, keep):
    """Some cuts of a font are read without a word and fail only while the PDF is written
    (reportlab reads its tables lazily): checked whole when first used."""
    path = mini / "fonts" / font
    data = path.read_bytes()
    path.write_bytes(data[:max(1, int(len(data) * keep))])
    for command in (["validate"], ["build", "--out", str(tmp_path / "out")]):
        result = run(command[0], "--game", "mini", *command[1:], root=mini)
        assert result.exit_code == 1, (font, keep, result.output)
        assert "fonts.yaml:" in result.stderr and f"cannot use '{font}' as a TrueType font" in result.stderr
        assert "internal problem" not in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out/mini").exists()


def damage_sheet(path: Path, change) -> None:
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    name = next(n for n in parts if n.startswith("xl/worksheets/sheet"))
    parts[name] = change(parts[name])
    with zipfile.ZipFile(path, "w") as zf:
        for n, data in parts.items():
            zf.writestr(n, data)


@pytest.mark.parametrize("change", [
    lambda xml: xml[: len(xml) // 2],                                 # cut in the middle of the XML
    lambda xml: xml.replace(b"<sheetData>", b"<sheetData><row r=\"x\">"),
    lambda xml: xml.replace(b'r="A2"', b'r="A-2"'),
    lambda xml: xml.replace(b't="s"', b't="zz"', 1),
])
def test_a_damaged_workbook_is_one_error_naming_it(mini, change):
    import openpyxl
    folder = mini / "card_data/mini"
    book = openpyxl.Workbook()
    for row in (["name", "power", "colour", "text", "count"], ["Knight", 3, "#224466", "L", 4],
                ["Bishop", 2, "#224466", "D", 2]):
        book.active.append(row)
    book.save(folder / "cards.xlsx")
    damage_sheet(folder / "cards.xlsx", change)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("data: cards.yaml", "data: cards.xlsx"))
    result = run("validate", "--game", "mini", root=mini)
    assert "internal problem" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    if result.exit_code:
        assert "cards.xlsx" in result.stderr
