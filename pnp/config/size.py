"""A piece's trim size: a card size by name, or [width, height] with limits."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.config.typed import Where
from pnp.errors import did_you_mean, known
from pnp.units import Length, mm
from pnp.yaml_source import type_name

# Trim sizes in mm. Poker is the default; the rest are the common print-shop sizes.
CARD_SIZES = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini": (44.45, 63.5),
    "tarot": (69.85, 120.65),
    "square": (88.9, 88.9),
    "token": (25.4, 25.4),
}


MIN_SIDE = mm(5)


@dataclass(frozen=True)
class Size:
    """A piece's trim size in points."""

    width: float
    height: float
    name: str = "custom"

    @classmethod
    def parse(cls, value: object, where: Where) -> "Size":
        if isinstance(value, str):
            if value not in CARD_SIZES:
                raise where.error(f"unknown size '{value}'",
                                  hint=did_you_mean(value, CARD_SIZES) or f"known sizes: {known(CARD_SIZES)}")
            w, h = CARD_SIZES[value]
            return cls(mm(w), mm(h), value)
        if isinstance(value, list) and len(value) == 2:
            wide, high = (Length.parse(v, where.item(value, i)) for i, v in enumerate(value))
            if wide.percent is not None or high.percent is not None:
                raise where.error("a size needs real lengths, not percentages")
            if not (MIN_SIDE <= wide.points <= mm(3000) and MIN_SIDE <= high.points <= mm(3000)):
                raise where.error("each side of a size must be at least 5 mm (a piece you can cut out) "
                                  "and at most 3 m")
            return cls(wide.points, high.points)
        raise where.error(f"expected a size name ({known(CARD_SIZES)}) or [width, height], "
                          f"found {type_name(value)}")
