"""Lengths with units (mm, cm, in, pt, %) and colours, as config types."""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.lib import colors as rl_colors

from pnp.yaml_source import type_name
from pnp.errors import did_you_mean

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54}
MAX_NUMBER = 100_000   # in any unit: 100 m, or 1,000 times a piece; past it a length is a typo
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([a-z%]*)\s*$")


@dataclass(frozen=True)
class Length:
    """A length in points, or a percentage of the length it is measured against."""

    points: float = 0.0
    percent: float | None = None

    @classmethod
    def parse(cls, value, where) -> "Length":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if value != value:   # NaN
                raise where.error("a length must be a number with a unit, not NaN")
            if value == 0:
                return cls(0.0)
            raise where.error(f"'{value}' needs a unit: mm, cm, in, pt or %, e.g. '{value}mm'")
        if not isinstance(value, str):
            raise where.error(f"expected a length such as '3mm', '0.5in', '12pt' or '50%', "
                              f"found {type_name(value)}")
        match = _LENGTH.match(value.lower())
        if not match:
            raise where.error(f"'{value}' is not a length; write a number and a unit, e.g. '3mm'")
        number, unit = float(match.group(1)), match.group(2)
        if abs(number) > MAX_NUMBER:
            raise where.error(f"'{value[:20]}…' is not a sane length; give at most {MAX_NUMBER:,} in its unit"
                              if len(value) > 20 else f"'{value}' is not a sane length; give at most "
                              f"{MAX_NUMBER:,} in its unit")
        if unit == "%":
            return cls(percent=number)
        if unit == "" and number == 0:
            return cls(0.0)
        if unit not in POINTS_PER:
            hint = did_you_mean(unit, POINTS_PER) if unit else None
            if unit:
                raise where.error(f"'{value}' has an unknown unit '{unit}'; use mm, cm, in, pt or %",
                                  hint=hint)
            raise where.error(f"'{value}' needs a unit: mm, cm, in, pt or %, e.g. '{value}mm'")
        return cls(number * POINTS_PER[unit])

    def of(self, whole: float) -> float:
        """This length in points, measuring a percentage against `whole` points."""
        return whole * self.percent / 100.0 if self.percent is not None else self.points

    @classmethod
    def mm(cls, value: float) -> "Length":
        return cls(value * POINTS_PER["mm"])


def mm(value: float) -> float:
    return value * POINTS_PER["mm"]


_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
NO_COLOUR = ("none", "transparent", "")


def parse_colour(text: str):
    """A reportlab colour for '#rrggbb', '#rgb' or a CSS colour name; None for 'none'.

    Raises ValueError with a sentence when the text is not a colour."""
    text = text.strip()
    if text.lower() in NO_COLOUR:
        return None
    if _HEX.match(text):
        digits = text[1:]
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return rl_colors.HexColor("#" + digits)
    named = rl_colors.getAllNamedColors()
    if text.lower() in named:
        return named[text.lower()]
    hint = did_you_mean(text.lower(), named)
    raise ValueError(f"'{text}' is not a colour; use '#rrggbb' or a name like 'navy'"
                     + (f" ({hint})" if hint else ""))


def colour_hex(colour) -> str:
    return colour.hexval()[2:] if colour is not None else "none"
