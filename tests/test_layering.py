"""pnp's floors, as docs/architecture.md lists them: no import runs up a floor or round a circle.

A unit is a package of pnp/ (config, layout, ...) or a top-level module (errors, impose, ...).
Every import counts: at the top of a module, inside a function, and under `if TYPE_CHECKING:`
(a type named from a higher floor is still a dependency on it)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pnp"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def floors_in(text: str) -> dict[str, int]:
    """Each unit's floor from the `floor | units` list under the Layers heading."""
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    floors: dict[str, int] = {}
    for number, units in re.findall(r"^ {4}(\d+)\s*\|\s*(.+)$", section, re.M):
        for unit in units.split():
            assert unit not in floors, f"{unit} is listed on two floors"
            floors[unit] = int(number)
    return floors


def unit_of(module: str, package: Path) -> str | None:
    """The unit a dotted module name belongs to (`pnp` for the package's own __init__)."""
    parts = module.split(".")
    if parts[0] != package.name:
        return None
    return parts[1] if len(parts) > 1 else package.name


def module_of(path: Path, package: Path) -> list[str]:
    """A file's dotted module name, in parts (a package's __init__ is the package)."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def imports_between_units(package: Path) -> list[tuple[str, str, str]]:
    """(importing unit, imported unit, file:line) for every import of one unit by another."""
    found = []
    for path in sorted(package.rglob("*.py")):
        module = module_of(path, package)
        own = unit_of(".".join(module), package)
        here = module if path.name == "__init__.py" else module[:-1]   # where a relative import starts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else [])) \
                    if node.level else (node.module or "")
                # `from pnp import kinds` imports the unit kinds, not the package's __init__
                names = [f"{base}.{alias.name}" for alias in node.names] if base == package.name else [base]
            else:
                continue
            for name in names:
                other = unit_of(name, package)
                if other is not None and other != own:
                    found.append((own, other, f"{path.relative_to(package.parent)}:{node.lineno}"))
    return found


def layering_problems(package: Path, floors: dict[str, int]) -> list[str]:
    """Every import that runs up a floor, every unit without a floor, and every circle."""
    problems = []
    units = {unit_of(".".join(module_of(path, package)), package) for path in package.rglob("*.py")}
    problems += [f"{unit} has no floor in docs/architecture.md" for unit in sorted(units - set(floors))]
    graph: dict[str, set[str]] = {}
    for own, other, where in imports_between_units(package):
        graph.setdefault(own, set()).add(other)
        if own in floors and other in floors and floors[other] > floors[own]:
            problems.append(f"{where}: {own} (floor {floors[own]}) imports {other} (floor {floors[other]})")
    done: set[str] = set()

    def visit(unit: str, path: list[str]) -> None:
        if unit in path:
            problems.append("a circle: " + " -> ".join(path[path.index(unit):] + [unit]))
            return
        if unit not in done:
            for other in sorted(graph.get(unit, ())):
                visit(other, path + [unit])
            done.add(unit)

    for unit in sorted(graph):
        visit(unit, [])
    return problems


def test_no_import_runs_up_a_floor_or_round_a_circle():
    floors = floors_in(ARCHITECTURE.read_text(encoding="utf-8"))
    assert floors["config"] < floors["contents"] < floors["kinds"] < floors["exporters"] < floors["cli"]
    assert layering_problems(PACKAGE, floors) == []


def test_config_imports_only_the_ground_below_it():
    floors = floors_in(ARCHITECTURE.read_text(encoding="utf-8"))
    above = {other for own, other, _ in imports_between_units(PACKAGE) if own == "config"}
    assert above <= {unit for unit, floor in floors.items() if floor < floors["config"]}, above


# --- the check itself fails when it should -----------------------------------------------------

def write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def toy(tmp_path) -> Path:
    """A package of three floors: low, mid (a package), high."""
    package = tmp_path / "pnp"
    write(package, "__init__.py", "")
    write(package, "low.py", "X = 1\n")
    write(package, "mid/__init__.py", "from pnp.low import X\n")
    write(package, "mid/part.py", "from . import other\n")
    write(package, "mid/other.py", "")
    write(package, "high.py", "from pnp.mid import part\nfrom pnp import low\n")
    return package


FLOORS = {"pnp": 1, "low": 1, "mid": 2, "high": 3}


def test_a_toy_package_built_in_floors_passes(toy):
    assert layering_problems(toy, FLOORS) == []


def test_a_function_local_import_of_a_higher_floor_is_named_with_its_line(toy):
    write(toy, "low.py", "X = 1\n\n\ndef later():\n    from pnp.high import part\n")
    assert layering_problems(toy, FLOORS)[0] == "pnp/low.py:5: low (floor 1) imports high (floor 3)"


def test_an_import_only_for_type_checking_counts_too(toy):
    write(toy, "mid/other.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pnp.high\n")
    assert "pnp/mid/other.py:3: mid (floor 2) imports high (floor 3)" in layering_problems(toy, FLOORS)


def test_units_on_one_floor_importing_each_other_are_a_circle(toy):
    write(toy, "__init__.py", "from pnp import low\n")
    write(toy, "low.py", "import pnp\n")
    assert layering_problems(toy, FLOORS) == ["a circle: low -> pnp -> low"]


def test_a_unit_without_a_floor_is_told(toy):
    write(toy, "new.py", "")
    assert layering_problems(toy, FLOORS) == ["new has no floor in docs/architecture.md"]
