"""Low-ink printing (`--ink-saver`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor

if TYPE_CHECKING:
    from reportlab.lib.colors import Color

DARK_INK = HexColor("#333333")


def luminance(colour: Color) -> float:
    value: float = 0.2126 * colour.red + 0.7152 * colour.green + 0.0722 * colour.blue
    return value


class InkSaver:
    """Full-bleed backgrounds and dark fills become an outline in their own colour (a card
    stays recognisable by it), and light text or lines turn dark so they still read on white
    paper."""

    DARK, LIGHT = 0.55, 0.72

    def fill(self, colour: Color | None, full_bleed: bool) -> tuple[Color | None, Color | None]:
        """(fill to use, outline colour or None) for a fill of `colour`."""
        if colour is not None and (full_bleed or luminance(colour) < self.DARK):
            return None, colour
        return colour, None

    def ink(self, colour: Color | None) -> Color | None:
        """The colour to print text or a line in."""
        if colour is not None and luminance(colour) > self.LIGHT:
            return DARK_INK
        return colour
