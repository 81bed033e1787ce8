"""Text that wraps inside its box and shrinks until it fits: plain text broken into lines
here, anything more set as styled runs (pnp.layout.runs).

Card text is data, not markup: it is escaped first, then `**bold**`, `*italic*` and line
breaks become markup, so a card can never inject tags of its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol, TypeAlias, TypeVar

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.layout.icon_draw import draw_icon
from pnp.layout.icons import FIRST_TOKEN, TOKEN, Icon
from pnp.layout.text_ops import draw_line

if TYPE_CHECKING:
    from re import Match

    from reportlab.pdfgen.canvas import Canvas

    from pnp.fonts import Styled

TOKEN_SPLIT = re.compile(f"({TOKEN.pattern})")

_BOLD_ITALIC = re.compile(r"\*\*\*(?!\s)(.+?)(?<!\s)\*\*\*")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_TAG = re.compile(r"<(/?)([bi])>")
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")
SHRINK_STEP = 0.5
T = TypeVar("T")


class SetText(Protocol):
    """Text set in its box, drawn from the box's bottom-left: PlainLines, or StyledLines
    (pnp.layout.runs); both answer as reportlab's Paragraph does."""

    align: str   # where its lines start, as drawn: a right-to-left paragraph's `left` is from the right

    def getActualLineWidths0(self) -> list[float]: ...   # noqa: N802 - the name reportlab's Paragraph has

    def drawOn(self, canvas: Canvas, x: float, y: float) -> None: ...   # noqa: N802


# What fitting a text gives: the set text, the height it takes, whether it fits its box.
Fitted: TypeAlias = "tuple[SetText, float, bool]"
Fit: TypeAlias = "Callable[[str], Fitted]"


class MarkupError(ValueError):
    """Emphasis marks that cross or never close in a way that can't be drawn."""


def escape_text(text: str) -> str:
    """Text as paragraph markup that says exactly it: no emphasis, no tags."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_markup(text: str) -> str:
    """Escape the text, then turn ***bold italic***, **bold**, *italic* and line breaks into
    paragraph markup. Marks that cross (`**a *b** c*`) raise MarkupError."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _BOLD_ITALIC.sub(r"<b><i>\1</i></b>", text)
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = _ITALIC.sub(r"<i>\1</i>", text)
    check_nesting(text)
    return text.replace("\n", "<br/>")


# [red|+2], [80%|a footnote], [#1f4e9c 120%|**big**]: part of a text in another colour or
# size. Square brackets, as {field} holes already use braces; the style words before the bar
# are a colour (CSS name or #rrggbb; layouts put their palette's names in first) and a size
# (a percentage of the text's size, so it shrinks with it, or points).
SPAN = re.compile(r"\[([^\[\]|\n]+)\|([^\[\]]*)\]")


def palette_spans(text: str, palette: dict[str, str]) -> str:
    """Spans' style words that name a colour of the layout's palette ([law|+2]) as that colour,
    before span_markup reads them (a palette name may shadow a CSS name)."""
    if "|" not in text or not palette:
        return text
    return SPAN.sub(lambda m: "[" + " ".join(palette.get(word, word) for word in m.group(1).split())
                    + "|" + m.group(2) + "]", text)


def span_markup(markup: str) -> str:
    """Spans in escaped markup as `<font color= size=>` runs; a style word that is neither a
    colour nor a size raises MarkupError. A percentage stays `size="80%"` until the paragraph
    is set at a size (`sized`)."""
    from pnp.units import colour_hex, parse_colour

    def span(match: Match[str]) -> str:
        attributes = ""
        for word in match.group(1).split():
            number = re.fullmatch(r"(\d+(?:\.\d+)?)(%|pt)", word)
            if number is not None:
                low, high = (10, 1000) if number.group(2) == "%" else (2, 500)
                if not low <= float(number.group(1)) <= high:
                    raise MarkupError(f"[{match.group(1)}|...]: a span's size is 10% to 1000% or 2pt to 500pt, "
                                      f"not {word}")
                attributes += f' size="{word[:-2] if number.group(2) == "pt" else word}"'
                continue
            try:
                colour = parse_colour(word.replace("&amp;", "&"))
            except ValueError as exc:
                raise MarkupError(f"[{match.group(1)}|...]: {exc}; a span is [colour size|text], "
                                  f"e.g. [red|+2] or [80%|a footnote]") from None
            if colour is not None:
                attributes += f' color="#{colour_hex(colour)}"'
        return f"<font{attributes}>{match.group(2)}</font>" if attributes else match.group(2)

    return SPAN.sub(span, markup)


def check_nesting(markup: str) -> None:
    open_tags: list[str] = []
    for closing, tag in _TAG.findall(markup):
        if not closing:
            open_tags.append(tag)
        elif not open_tags or open_tags.pop() != tag:
            raise MarkupError("bold and italic marks cross each other; close the inner one first, "
                              "e.g. **bold *and italic***")
    if open_tags:
        raise MarkupError("a bold or italic mark is never closed")


def plain(text: str) -> str:
    """The characters that will be drawn, without the bold/italic marks and span styles."""
    return _ITALIC.sub(r"\1", _BOLD.sub(r"\1", _BOLD_ITALIC.sub(r"\1", SPAN.sub(r"\2", text))))


class PlainLines:
    """Plain text (no bold or italic) broken into lines and drawn straight onto the canvas,
    where a Paragraph would put them. Most card text is plain, and a Paragraph costs several
    times as much to draw; the line breaks are the same greedy breaks at spaces."""

    __slots__ = ("lines", "widths", "font", "size", "leading", "colour", "align", "width", "height", "images")

    def __init__(self, lines: list[str], widths: list[float], font: str, size: float, leading: float,
                 colour_hex: str, align: str, width: float, images: tuple[Icon, ...] = ()):
        self.lines, self.widths, self.font, self.size, self.align = lines, widths, font, size, align
        self.leading = leading
        self.colour = HexColor("#" + colour_hex)
        self.width, self.height = width, leading * len(lines)
        self.images = images   # inline icons (pnp.layout.icons): lines hold a token for each

    def getActualLineWidths0(self) -> list[float]:   # noqa: N802 - the name reportlab's Paragraph has
        return list(self.widths)

    def drawOn(self, canvas: Canvas, x: float, y: float) -> None:   # noqa: N802
        canvas.setFillColor(self.colour)
        canvas.setFont(self.font, self.size)
        baseline = y + self.height - self.size   # where Paragraph puts its first line
        # where each line is anchored, and how much of its width lies left of that point
        anchor, share = {"center": (x + self.width / 2, 0.5), "right": (x + self.width, 1.0)}.get(self.align, (x, 0.0))
        for line, line_width in zip(self.lines, self.widths):
            if self.images and TOKEN.search(line):
                left = x + {"center": (self.width - line_width) / 2, "right": self.width - line_width}.get(self.align, 0.0)
                self._draw_with_icons(canvas, line, left, baseline)
            else:
                draw_line(canvas, anchor, baseline, line, share)
            baseline -= self.leading

    def _draw_with_icons(self, canvas: Canvas, line: str, left: float, baseline: float) -> None:
        for piece in TOKEN_SPLIT.split(line):
            if not piece:
                continue
            if TOKEN.fullmatch(piece):
                icon = self.images[ord(piece) - FIRST_TOKEN]
                width = icon.width_at(self.size)
                draw_icon(canvas, icon, left, baseline, width, icon.height_at(self.size))
                left += width
            else:
                canvas.drawString(left, baseline, piece)
                left += stringWidth(piece, self.font, self.size)


def plain_lines(text: str, font: str, size: float, leading: float, colour_hex: str, align: str,
                width: float, height: float, images: tuple[Icon, ...] = ()) -> PlainLines | None:
    """The text broken greedily at spaces to fit `width`, if every word fits and the lines
    fit `height`; None otherwise. Like Paragraph, a line may run over by letting its spaces
    shrink a little (reportlab's spaceShrinkage), so both break the same text the same way."""
    known = word_widths(font, size)
    space = known[" "]
    shrink = rl_config.spaceShrinkage * space

    def measure(word: str) -> float:
        if not images or not TOKEN.search(word):
            return known[word]
        return sum(images[ord(piece) - FIRST_TOKEN].width_at(size) if TOKEN.fullmatch(piece)
                   else stringWidth(piece, font, size) for piece in TOKEN_SPLIT.split(word) if piece)

    lines: list[str] = []
    widths: list[float] = []
    line: list[str] = []
    line_width = 0.0
    for word in text.split():
        word_width = measure(word)
        if word_width > width + 0.01:
            return None
        if line and line_width + space + word_width > width + shrink * len(line):
            lines.append(" ".join(line))
            widths.append(line_width)
            line, line_width = [], 0.0
        line_width = line_width + space + word_width if line else word_width
        line.append(word)
    if line:
        lines.append(" ".join(line))
        widths.append(line_width)
    if not lines or len(lines) * size * leading > height + 0.01:
        return None
    return PlainLines(lines, widths, font, size, size * leading, colour_hex, align, width, images)


class WordWidths(dict[str, float]):
    """Widths of words in one face at one size, each measured once: card text repeats its
    words across a deck, and every size tried while fitting measures them all again."""

    __slots__ = ("font", "size")

    def __init__(self, font: str, size: float):
        super().__init__()
        self.font, self.size = font, size

    def __missing__(self, word: str) -> float:
        if len(self) > 100_000:   # a long-running preview: keep it bounded
            self.clear()
        width: float = stringWidth(word, self.font, self.size)
        self[word] = width
        return width


_WORD_WIDTHS: dict[tuple[str, float], WordWidths] = {}


def word_widths(font: str, size: float) -> WordWidths:
    known = _WORD_WIDTHS.get((font, size))
    if known is None:
        known = _WORD_WIDTHS[(font, size)] = WordWidths(font, size)
    return known


_ENTITY_OR_TAG = re.compile(r"(<[^>]*>|&[a-z]+;)")


def with_fallbacks(markup: str, font: str, fallbacks: tuple[Styled, ...]) -> str:
    """Markup in which each run of characters `font` lacks is set in the first fallback that
    has them (`<font name=…>`, in the fallback's own bold or italic inside <b> or <i>); tags
    and entities pass through untouched."""
    from reportlab.pdfbase.pdfmetrics import getFont
    own = getFont(font).face.charToGlyph
    covers = [(styled, getFont(styled[0]).face.charToGlyph) for styled in fallbacks]
    out: list[str] = []
    current = font   # the font of the run being written
    bold = italic = 0   # depth of <b> and <i> around the text

    def switch(to: str) -> None:
        nonlocal current
        if to != current:
            if current != font:
                out.append("</font>")
            if to != font:
                out.append(f'<font name="{to}">')
            current = to

    for piece in _ENTITY_OR_TAG.split(markup):
        if not piece:
            continue
        if piece.startswith("<"):
            switch(font)   # a run never spans a tag, so the markup stays well nested
            out.append(piece)
            step = -1 if piece.startswith("</") else 1
            if piece.strip("</>") == "b":
                bold += step
            elif piece.strip("</>") == "i":
                italic += step
            continue
        if piece.startswith("&") and piece.endswith(";"):
            out.append(piece)   # &amp; &lt; &gt;: characters every font has
            continue
        for char in piece:
            if char.isspace():
                out.append(char)
                continue
            code = ord(char)
            styled = None if code in own else next((s for s, has in covers if code in has), None)
            switch(font if styled is None else styled[(1 if bold > 0 else 0) + (2 if italic > 0 else 0)])
            out.append(char)
    switch(font)
    return "".join(out)


@lru_cache(maxsize=8192)
def fit_paragraph(text: str, font: str, size: float, min_size: float, leading: float,
                  colour_hex: str, align: str, width: float, height: float, fallbacks: tuple[Styled, ...] = (),
                  images: tuple[Icon, ...] = (), simple: bool = False) -> Fitted:
    """(something to drawOn, its height, whether it fits) at the largest size from `size`
    down to `min_size`, in steps of SHRINK_STEP, that fits the box. Cached: cards that share
    a text share the work. The size is found by bisection, so a huge text in a huge font
    takes a dozen tries, not thousands. `fallbacks` (fonts for characters `font` lacks) is
    given only for text that needs them; `images` are the inline icons its tokens stand for
    (pnp.layout.icons), sized with the text at each try. `simple` text (see
    `TextDrawer.simple`) is known to be left-to-right and free of markup, so it is not
    scanned for either. Plain text is broken into lines directly (PlainLines); anything
    more (emphasis, spans, icons, right-to-left script, fallback fonts, justified lines) is
    set as styled runs (pnp.layout.runs), which draw what reportlab's Paragraph would at
    about half its cost, without importing platypus."""
    rtl = False if simple else has_rtl(text)
    markup = text if simple else span_markup(to_markup(text)) if "|" in text else to_markup(text)
    if not rtl and markup == text and align != "justify" and not fallbacks:
        found = largest_fitting(size, min_size, lambda current: plain_lines(
            text, font, current, leading, colour_hex, align, width, height, images))
        if found is not None:
            return found, found.height, True
    return fit_runs(markup, font, fallbacks, images, size, min_size, leading, colour_hex, align, width, height)


def steps_between(size: float, min_size: float) -> int:
    return max(0, int((size - min_size + 1e-9) // SHRINK_STEP))


def largest_fitting(size: float, min_size: float, attempt: Callable[[float], T | None]) -> T | None:
    """attempt(s) for the largest s = size - k * SHRINK_STEP (s >= min_size) where it gives
    something, or None. Text that fits at one size fits at every smaller one, so bisect."""
    best = attempt(size)
    if best is not None:
        return best
    low, high = 1, steps_between(size, min_size)   # in steps down from `size`
    while low <= high:
        middle = (low + high) // 2
        result = attempt(size - middle * SHRINK_STEP)
        if result is not None:
            best, high = result, middle - 1
        else:
            low = middle + 1
    return best


@lru_cache(maxsize=64)
def simple_characters(font: str) -> frozenset[str]:
    """The characters a text may be made of and still be plain for `fit_paragraph`: ones the
    face has, written left to right, none of them markup (`*`, `|`, `&<>`, line breaks), an
    icon's `:` or token. A text of these needs no markup, bidi or fallback work: a set
    comparison per card decides what was a scan of every character for each."""
    from reportlab.pdfbase.pdfmetrics import getFont
    special = set("*|:&<>\n\r\t")
    return frozenset(char for char in map(chr, getFont(font).face.charToGlyph)
                     if char not in special and not TOKEN.match(char)
                     and not (ord(char) >= 0x0590 and unicodedata.bidirectional(char) in ("R", "AL")))


# ---- right-to-left text -------------------------------------------------------------------------

def has_rtl(text: str) -> bool:
    """Whether the text holds Hebrew, Arabic or another right-to-left script."""
    return any(ord(ch) >= 0x0590 and unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def fit_runs(markup: str, font: str, fallbacks: tuple[Styled, ...], images: tuple[Icon, ...], size: float,
             min_size: float, leading: float, colour_hex: str, align: str, width: float, height: float) -> Fitted:
    """As fit_paragraph, for text set as styled runs (pnp.layout.runs): right-to-left text and
    text with icons, with its emphasis."""
    from pnp.layout.runs import StyledLines, lay_out

    def attempt(current: float) -> StyledLines | None:
        return lay_out(markup, font, fallbacks, images, current, leading, colour_hex, align, width, height)

    found = largest_fitting(size, min_size, attempt)
    if found is not None:
        return found, found.height, True
    smallest = size - SHRINK_STEP * steps_between(size, min_size)
    lines = lay_out(markup, font, fallbacks, images, smallest, leading, colour_hex, align, width, height, force=True)
    assert lines is not None   # forced, a text with a word in it is always set
    return lines, lines.height, False
