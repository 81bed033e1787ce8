"""Lengths with units (mm, cm, in, pt, %) and colours, as config types."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pnp.errors import type_name
from pnp.errors import PnpError, did_you_mean

if TYPE_CHECKING:
    from reportlab.lib.colors import Color

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54}
MAX_NUMBER = 100_000   # in any unit: 100 m, or 1,000 times a piece; past it a length is a typo
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([a-z%]*)\s*$")


class Located(Protocol):
    """Where a value was written (pnp.config.typed.Where, a floor up): it words the error."""

    def error(self, message: str, hint: str | None = None) -> PnpError: ...


@dataclass(frozen=True)
class Length:
    """A length in points, or a percentage of the length it is measured against."""

    points: float = 0.0
    percent: float | None = None

    @classmethod
    def parse(cls, value: object, where: Located) -> "Length":
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


# The print shops' usual safe zone (1/8 in, 3.175 mm): the guides of `pnp proof --guides` and of
# the preview draw it, so the two show one line
SAFE_ZONE = 0.125 * 72.0


_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
NO_COLOUR = ("none", "transparent", "")


# reportlab's colour names a layout or card may use (tests/test_start_up.py keeps the list
# equal to reportlab's), so that a deck's colour fields are checked without loading reportlab
COLOUR_NAMES = frozenset("""
    aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
    blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflower cornflowerblue
    cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki
    darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
    darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue
    dimgray dimgrey dodgerblue fidblue fidlightblue fidred firebrick floralwhite forestgreen
    fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink
    indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue
    lightcoral lightcyan lightgoldenrodyellow lightgreen lightgrey lightpink lightsalmon
    lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime
    limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple
    mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred
    midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange
    orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff
    peru pink plum powderblue purple red rosybrown royalblue saddlebrown salmon sandybrown
    seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen
    steelblue tan teal thistle tomato transparent turquoise violet wheat white whitesmoke yellow
    yellowgreen
""".split())


def colour_problem(text: str) -> str | None:
    """Why `text` is not a colour ('#rrggbb', '#rgb', a CSS name or 'none'); None if it is one."""
    text = text.strip()
    if text.lower() in NO_COLOUR or _HEX.match(text) or text.lower() in COLOUR_NAMES:
        return None
    hint = did_you_mean(text.lower(), sorted(COLOUR_NAMES))
    return (f"'{text}' is not a colour; use '#rrggbb' or a name like 'navy'"
            + (f" ({hint})" if hint else ""))


def parse_colour(text: str) -> Color | None:
    """A reportlab colour for '#rrggbb', '#rgb' or a CSS colour name; None for 'none'.

    Raises ValueError with a sentence when the text is not a colour."""
    problem = colour_problem(text)
    if problem is not None:
        raise ValueError(problem)
    from reportlab.lib import colors as rl_colors   # here: loading a game's data draws nothing
    text = text.strip()
    if text.lower() in NO_COLOUR:
        return None
    if _HEX.match(text):
        digits = text[1:]
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return rl_colors.HexColor("#" + digits)
    return rl_colors.getAllNamedColors()[text.lower()]


def colour_hex(colour: Color | None) -> str:
    return colour.hexval()[2:] if colour is not None else "none"
