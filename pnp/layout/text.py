"""Text that wraps inside its box and shrinks until it fits, using platypus paragraphs.

Card text is data, not markup: it is escaped first, then `**bold**`, `*italic*` and line
breaks become paragraph markup, so a card can never inject tags of its own.
"""

from __future__ import annotations

import re
from functools import lru_cache

from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

ALIGNMENTS = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")
SHRINK_STEP = 0.5


def to_markup(text: str) -> str:
    """Escape the text, then turn **bold**, *italic* and line breaks into paragraph markup."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = _ITALIC.sub(r"<i>\1</i>", text)
    return text.replace("\n", "<br/>")


def plain(text: str) -> str:
    """The characters that will be drawn, without the bold/italic marks."""
    return _ITALIC.sub(r"\1", _BOLD.sub(r"\1", text))


@lru_cache(maxsize=4096)
def _style(font: str, size: float, leading: float, colour_hex: str, align: str) -> ParagraphStyle:
    from reportlab.lib.colors import HexColor
    return ParagraphStyle("pnp", fontName=font, fontSize=size, leading=size * leading,
                          textColor=HexColor("#" + colour_hex), alignment=ALIGNMENTS[align])


@lru_cache(maxsize=8192)
def fit_paragraph(text: str, font: str, size: float, min_size: float, leading: float,
                  colour_hex: str, align: str, width: float, height: float):
    """(paragraph, its height, whether it fits) at the largest size from `size` down to
    `min_size` that fits the box. Cached: cards that share a text share the work."""
    markup = to_markup(text)
    current = size
    while True:
        para = Paragraph(markup, _style(font, current, leading, colour_hex, align))
        _, used = para.wrap(width, height)
        fits = used <= height + 0.01 and para.minWidth() <= width + 0.01
        if fits or current - SHRINK_STEP < min_size - 1e-9:
            return para, used, fits
        current -= SHRINK_STEP
