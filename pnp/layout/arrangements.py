"""Where a repeat puts its items when not in a straight line: points measured in the repeat's
box, written in the layout, held by a card's field, or named (pnp's own sets, such as the pips
of playing cards, in `bundled/arrangements/NAME.yaml`, one arrangement per count)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pnp.config.typed import Where, load_as, where_of
from pnp.errors import did_you_mean, known
from pnp.units import Length
from pnp.resources import BUNDLED
from pnp.yaml_source import load_yaml, type_name

FOLDER = BUNDLED / "arrangements"
MAX_SCALE = 20.0


@dataclass(frozen=True)
class Spot:
    """One place in an arrangement: x and y from the box's top-left (a percentage is of the
    box's width or height), a turn in degrees (anticlockwise) and a scale for what is drawn
    there. Written `[x, y]`, `[x, y, turn]`, `{x, y, turn, scale}` or, in a card's list
    field, as text: `"50% 10%"`, `"50% 90% 180"`."""

    x: Length
    y: Length
    turn: float = 0.0
    scale: float = 1.0

    @classmethod
    def parse(cls, value: object, where: Where) -> Spot:
        if isinstance(value, str):
            value = [int(p) if re.fullmatch(r"-?\d+", p) else p for p in value.replace(",", " ").split()]
        if isinstance(value, dict):
            spot = load_as(_SpotMap, value, where)
            return cls(spot.x, spot.y, spot.turn, spot.scale)
        if not isinstance(value, list) or not 2 <= len(value) <= 3:
            raise where.error(f"a point is [x, y] or [x, y, turn] (e.g. [50%, 10%]), found {type_name(value)}"
                              if not isinstance(value, list) else
                              f"a point is [x, y] or [x, y, turn] (e.g. [50%, 10%]), not {len(value)} values")
        x, y = Length.parse(value[0], where), Length.parse(value[1], where)
        turn = value[2] if len(value) == 3 else 0.0
        if isinstance(turn, bool) or not isinstance(turn, (int, float)) or not -360 <= turn <= 360:
            raise where.error(f"a point's turn is degrees from -360 to 360, not {turn!r}")
        return cls(x, y, float(turn))


@dataclass
class _SpotMap:
    x: Length
    y: Length
    turn: float = field(default=0.0, metadata={"min": -360, "max": 360})
    scale: float = field(default=1.0, metadata={"min": 0.05, "max": MAX_SCALE})


@dataclass
class ArrangementFile:
    arrangements: dict[int, list[Spot]]
    description: str = ""


def names() -> list[str]:
    return sorted(path.stem for path in FOLDER.glob("*.yaml"))


def named(name: str, where: Where) -> dict[int, list[Spot]]:
    """A named set of arrangements, by count; an unknown name is an error at `where`."""
    if name not in names():
        raise where.error(f"no arrangement called '{name}'",
                          hint=did_you_mean(name, names()) or f"pnp's arrangements: {known(names())}")
    return _load(FOLDER / f"{name}.yaml")


@lru_cache(maxsize=None)
def _load(path: Path) -> dict[int, list[Spot]]:
    node = load_yaml(path)
    loaded = load_as(ArrangementFile, node, where_of(node))
    for count, spots in loaded.arrangements.items():
        if len(spots) != count:   # a slip in pnp's own data
            raise where_of(node).key(node["arrangements"], count).error(
                f"the arrangement for {count} has {len(spots)} points")
    arrangements: dict[int, list[Spot]] = loaded.arrangements
    return arrangements
