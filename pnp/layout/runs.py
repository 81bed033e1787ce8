"""Text set as styled runs: bold, italic, inline icons and fallback fonts, in any direction.

reportlab's paragraphs know no right-to-left text and draw inline pictures as images, so text
in a right-to-left script, and text with icons that is more than plain words, is laid out here:
the markup (`<b>`, `<i>`, `<br/>`, a span's `<font color= size=>`, entities, icon tokens) becomes
words of atoms (letters of one style, colour and size, or one icon), Arabic letters are joined
(arabic-reshaper) atom by atom, the words are broken greedily into lines in reading order, and
each line is put in visual order by the Unicode bidi algorithm (python-bidi's levels, reordered
here so each letter keeps its style and each icon its place; an icon counts as a neutral object,
U+FFFC). A style the font has no face for is still drawn: italic without an italic face is
slanted.

Plain left-to-right text never comes here (pnp.layout.text keeps its fast paths)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

from pnp.layout.icon_draw import draw_icon
from pnp.layout.icons import FIRST_TOKEN, TOKEN, Icon

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from pnp.fonts import Face, Styled

BOLD, ITALIC = 1, 2
SLANT = 0.21                     # tan 12 degrees: italic for a face without an italic
OBJECT = "\ufffc"                # how an icon takes part in the bidi algorithm: a neutral
_PIECE = re.compile(r"<[^>]*>|&#?[A-Za-z0-9]+;|[^<&]+|[<&]")
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]")
_ATTRIBUTE = re.compile(r'(color|size)="([^"]*)"')


@dataclass(frozen=True, slots=True)
class Atom:
    """Part of a word: letters in one style, or one icon (`icon` >= 0, its token's number). A
    span gives it a colour (`rrggbb`, "" for the text's) and a size ("80%" of the text's, "12"
    points, "" for the text's)."""

    text: str
    style: int
    icon: int = -1
    colour: str = ""
    size: str = ""

    def size_at(self, size: float) -> float:
        if not self.size:
            return size
        return size * float(self.size[:-1]) / 100 if self.size.endswith("%") else float(self.size)


Word = tuple[Atom, ...]
Piece = tuple[str, str, bool, float]   # letters, the face they are set in, slanted, width
# An atom as measured at a size: an icon with its width, or letters with their pieces.
Measured = tuple[Atom, "float | list[Piece]"]


@lru_cache(maxsize=4096)
def words_of(markup: str) -> tuple[tuple[Word, ...], ...]:
    """The markup's hard lines (split at <br/>), each a tuple of words, each a tuple of atoms,
    Arabic letters already joined."""
    lines: list[tuple[Word, ...]] = []
    words: list[Word] = []
    word: list[Atom] = []
    letters: list[str] = []
    bold = italic = 0
    spans: list[tuple[str, str]] = [("", "")]   # (colour, size) of each open span, innermost last

    def style() -> int:
        return (BOLD if bold > 0 else 0) | (ITALIC if italic > 0 else 0)

    def end_atom() -> None:
        if letters:
            text = "".join(letters)
            if _ARABIC.search(text):
                text = arabic_shaper().reshape(text)
            word.append(Atom(text, style(), -1, *spans[-1]))
            letters.clear()

    def end_word() -> None:
        end_atom()
        if word:
            words.append(tuple(word))
            word.clear()

    for piece in _PIECE.findall(markup):
        if piece.startswith("<") and piece.endswith(">"):
            name = piece.strip("</> ").split()[0].lower() if piece.strip("</> ") else ""
            closing = piece.startswith("</")
            if name == "br":
                end_word()
                lines.append(tuple(words))
                words = []
            elif name in ("b", "strong", "i", "em"):
                end_atom()
                step = -1 if closing else 1
                if name in ("b", "strong"):
                    bold += step
                else:
                    italic += step
            elif name == "font":
                end_atom()
                if closing:
                    if len(spans) > 1:
                        spans.pop()
                else:
                    given = dict(_ATTRIBUTE.findall(piece))
                    colour, size = spans[-1]
                    spans.append((given["color"].lstrip("#") if "color" in given else colour, given.get("size", size)))
            continue   # other tags (none are written for this path) draw nothing
        text = html.unescape(piece) if piece.startswith("&") else piece
        for char in text:
            if char.isspace():
                end_word()
            elif TOKEN.fullmatch(char):
                end_atom()
                word.append(Atom(char, style(), ord(char) - FIRST_TOKEN, *spans[-1]))
            else:
                letters.append(char)
    end_word()
    lines.append(tuple(words))
    return tuple(lines)


@lru_cache(maxsize=1)
def arabic_shaper() -> Any:
    """Arabic letters joined into their forms, the vowel marks kept (the reshaper's own
    default drops them: يُهاجَم printed bare)."""
    import arabic_reshaper
    return arabic_reshaper.ArabicReshaper(configuration={"delete_harakat": False})


def is_rtl_char(char: str) -> bool:
    import unicodedata
    return ord(char) >= 0x0590 and unicodedata.bidirectional(char) in ("R", "AL")


_faces: dict[str, Face] = {}   # a face's reportlab name -> its pnp.fonts.Face, to register on use


@lru_cache(maxsize=256)
def faces_of(font: str, fallbacks: tuple[Styled, ...]) -> tuple[tuple[Styled, ...], int]:
    """The font's family as (regular, bold, italic, bold italic) faces, then each fallback's,
    and the style bits the font itself has (a bold face makes all its text bold). A style the
    family lacks is its regular face, as everywhere in pnp."""
    from pnp.fonts import STYLES, _family_of
    family = _family_of.get(font)
    if family is None:
        return ((font, font, font, font),) + tuple(fallbacks), 0
    chosen = [family.faces.get(style, family.faces["regular"]) for style in STYLES]
    for face in chosen:
        _faces[face.name] = face
    regular, bold, italic, bold_italic = (face.name for face in chosen)
    names: Styled = (regular, bold, italic, bold_italic)
    base = names.index(font) if font in names else 0
    return (names,) + tuple(fallbacks), base


def registered(name: str) -> str:
    face = _faces.get(name)
    return face.registered() if face is not None else name


@lru_cache(maxsize=8192)
def pieces_of(text: str, style: int, font: str, fallbacks: tuple[Styled, ...]) -> tuple[Piece, ...]:
    """An atom's letters split where the font changes: (letters, face, slanted, width at 1 pt).
    Each letter is set in the first family that has it, in the atom's style."""
    families, base = faces_of(font, fallbacks)
    style |= base
    chosen = []
    for styled in families:
        face, slanted = styled[style], False
        upright = styled[style & ~ITALIC]
        if style & ITALIC and face in (upright, styled[0]):   # no italic face: the upright one, slanted
            face, slanted = upright, True
        chosen.append((face, slanted, getFont(registered(face)).face.charToGlyph))
    pieces: list[tuple[str, str, bool]] = []
    for char in text:
        face, slanted, _ = next((c for c in chosen if ord(char) in c[2]), chosen[0])
        if pieces and pieces[-1][1] == face and pieces[-1][2] == slanted:
            pieces[-1] = (pieces[-1][0] + char, face, slanted)
        else:
            pieces.append((char, face, slanted))
    return tuple((letters, face, slanted, stringWidth(letters, face, 1)) for letters, face, slanted in pieces)


@dataclass(slots=True)
class Item:
    """One thing drawn on a line, left to right: letters (`text` in `face`), an icon, or the
    space between words (`text` empty, `icon` -1, `face` empty); in a span's colour and size
    (`colour` "" for the text's)."""

    text: str
    face: str
    slanted: bool
    icon: int
    width: float
    colour: str = ""
    size: float = 0.0

    def looks_like(self, other: Item) -> bool:
        """Whether the two are letters drawn alike, so one run can hold both."""
        return (self.face == other.face and self.slanted == other.slanted and self.colour == other.colour
                and self.size == other.size)


class StyledLines:
    """Lines of items in visual order, drawn left to right from where the alignment puts them."""

    def __init__(self, lines: list[list[Item]], widths: list[float], spread: list[bool], size: float,
                 leading: float, colour_hex: str, align: str, width: float, icons: tuple[Icon, ...]):
        self.lines, self.widths, self.spread, self.size, self.leading = lines, widths, spread, size, leading
        self.colour = HexColor("#" + colour_hex)
        self.align, self.width, self.icons = align, width, icons
        self.height = leading * len(lines)

    def getActualLineWidths0(self) -> list[float]:   # noqa: N802 - the name reportlab's Paragraph has
        return list(self.widths)

    def drawOn(self, canvas: Canvas, x: float, y: float) -> None:   # noqa: N802
        canvas.setFillColor(self.colour)
        ink = ""   # the span colour the canvas holds ("" the text's)
        baseline = y + self.height - self.size
        for items, line_width, spread in zip(self.lines, self.widths, self.spread):
            gaps = sum(1 for item in items if item.face == "" and item.icon < 0)
            extra = (self.width - line_width) / gaps if spread and gaps else 0.0
            left = x + {"center": (self.width - line_width) / 2,
                        "right": self.width - line_width}.get(self.align, 0.0) if not extra else x
            for item in items:
                if item.colour != ink and (item.face or item.icon >= 0):
                    ink = item.colour
                    canvas.setFillColor(HexColor("#" + ink) if ink else self.colour)
                if item.icon >= 0:
                    icon = self.icons[item.icon]
                    if item.colour:   # a single-colour icon takes its span's colour, as its letters do
                        icon = icon._replace(colour=item.colour)
                    draw_icon(canvas, icon, left, baseline, item.width, icon.height_at(item.size))
                elif item.face:
                    canvas.setFont(item.face, item.size)
                    if item.slanted:
                        canvas.saveState()
                        canvas.transform(1, 0, SLANT, 1, left, baseline)
                        canvas.drawString(0, 0, item.text)
                        canvas.restoreState()
                    else:
                        canvas.drawString(left, baseline, item.text)
                else:
                    left += extra
                left += item.width
            baseline -= self.leading


def lay_out(markup: str, font: str, fallbacks: tuple[Styled, ...], icons: tuple[Icon, ...], size: float, leading: float,
            colour_hex: str, align: str, width: float, height: float, force: bool = False) -> StyledLines | None:
    """The markup set at `size` in lines that fit `width`, if they fit `height`; None otherwise
    (with `force`, lines as they come, a word wider than the box on a line of its own). A
    paragraph whose first strong letter is right-to-left is aligned from the right: `left`
    means where reading starts."""
    from reportlab import rl_config
    hard_lines = words_of(markup)
    space = stringWidth(" ", font, size)
    shrink = rl_config.spaceShrinkage * space
    rtl = starts_right_to_left(hard_lines)
    lines: list[list[tuple[Word, list[Measured]]]] = []   # each line: its words, each with its measured atoms
    ends: list[bool] = []                        # whether a line ends its hard line
    for hard in hard_lines:
        line: list[tuple[Word, list[Measured]]] = []
        line_width = 0.0
        for word in hard:
            measured: list[Measured] = []
            for atom in word:
                if atom.icon >= 0:
                    if atom.icon >= len(icons):   # a token without its icon: nothing to draw
                        continue
                    measured.append((atom, icons[atom.icon].width_at(atom.size_at(size))))
                else:
                    at = atom.size_at(size)
                    measured.append((atom, [(letters, face, slanted, unit * at) for letters, face, slanted, unit
                                            in pieces_of(atom.text, atom.style, font, fallbacks)]))
            word_width = sum(m[1] if isinstance(m[1], float) else sum(p[3] for p in m[1]) for m in measured)
            if word_width > width + 0.01 and not force:
                return None
            if line and line_width + space + word_width > width + shrink * len(line):
                lines.append(line)
                ends.append(False)
                line, line_width = [], 0.0
            line_width = line_width + space + word_width if line else word_width
            line.append((word, measured))
        lines.append(line)
        ends.append(True)
    if not any(lines) or (len(lines) * size * leading > height + 0.01 and not force):
        return None
    spread = [align == "justify" and not end for end in ends]
    visual = [in_visual_order(line, space, rtl, size, not spread_line) for line, spread_line in zip(lines, spread)]
    widths = [sum(item.width for item in items) for items in visual]
    if rtl:
        align = {"left": "right", "right": "left", "justify": "justify"}.get(align, align)
    if align == "justify":
        align = "right" if rtl else "left"
    return StyledLines(visual, widths, spread, size, size * leading, colour_hex, align, width, icons)


def starts_right_to_left(hard_lines: tuple[tuple[Word, ...], ...]) -> bool:
    """Whether the paragraph's first strong letter is right-to-left (Unicode's rule P2)."""
    import unicodedata
    for line in hard_lines:
        for word in line:
            for atom in word:
                if atom.icon >= 0:
                    continue
                for char in atom.text:
                    kind = unicodedata.bidirectional(char)
                    if kind in ("R", "AL"):
                        return True
                    if kind == "L":
                        return False
    return False


def in_visual_order(line: list[tuple[Word, list[Measured]]], space: float, rtl: bool, size: float,
                    join_spaces: bool) -> list[Item]:
    """A line's items left to right: each letter, icon and space carried through the bidi
    algorithm with what it is drawn as, then letters drawn alike joined into runs again, with
    the spaces between them when `join_spaces` (so the words read as one line of text)."""
    chars: list[str] = []
    what: list[Item] = []
    for index, (_, measured) in enumerate(line):
        if index:
            chars.append(" ")
            what.append(Item("", "", False, -1, space))
        for atom, parts in measured:
            at = atom.size_at(size)
            if not isinstance(parts, list):   # an icon, measured by its width
                chars.append(OBJECT)
                what.append(Item("", "", False, atom.icon, parts, atom.colour, at))
                continue
            for letters, face, slanted, _ in parts:
                for char in letters:
                    chars.append(char)
                    what.append(Item(char, face, slanted, -1, 0.0, atom.colour, at))
    if not rtl and not any(is_rtl_char(c) for c in chars):
        order = list(range(len(chars)))
        shown = chars
    else:
        order, shown = bidi_order("".join(chars), rtl)
    items: list[Item] = []
    for position, index in enumerate(order):
        item = what[index]
        if item.face and items and items[-1].looks_like(item):
            items[-1].text += shown[position]
        else:
            items.append(Item(shown[position] if item.face else "", item.face, item.slanted, item.icon, item.width,
                              item.colour, item.size))
    if join_spaces:
        items = spaces_joined(items)
    for item in items:   # letters measured whole (reportlab does not kern): as the line measured them
        if item.face:
            item.width = stringWidth(item.text, item.face, item.size)
    return items


def spaces_joined(items: list[Item]) -> list[Item]:
    """A space between two runs in the same face becomes part of one run."""
    joined: list[Item] = []
    index = 0
    while index < len(items):
        item = items[index]
        if (not item.face and item.icon < 0 and joined and joined[-1].face and index + 1 < len(items)
                and items[index + 1].looks_like(joined[-1])):
            joined[-1].text += " " + items[index + 1].text
            index += 2
            continue
        joined.append(item)
        index += 1
    return joined


def bidi_order(text: str, rtl: bool) -> tuple[list[int], list[str]]:
    """The Unicode bidi algorithm (python-bidi's pure-Python steps, whose brackets mirror) on one
    line: the logical index of each character in visual order, and the character shown there
    (a bracket mirrored in right-to-left runs)."""
    from bidi import algorithm as bidi
    storage = bidi.get_empty_storage()
    storage["base_level"] = 1 if rtl else 0
    storage["base_dir"] = "R" if rtl else "L"
    bidi.get_embedding_levels(text, storage)
    for index, char in enumerate(storage["chars"]):
        char["index"] = index
    bidi.explicit_embed_and_overrides(storage)
    bidi.resolve_weak_types(storage)
    bidi.resolve_neutral_types(storage, False)
    bidi.resolve_implicit_levels(storage, False)
    bidi.reorder_resolved_levels(storage, False)
    bidi.apply_mirroring(storage, False)
    return [char["index"] for char in storage["chars"]], [char["ch"] for char in storage["chars"]]
