"""SVG files read safely: the one way pnp turns an SVG (an `image`, an icon) into a drawing.

An SVG can name other files (`<image href>`, `<use href="other.svg#a">`, `url(...)` and
`@import` in its styles, `<?xml-stylesheet?>`), fonts by path (svglib would load
`font-family="/some/file"` and ask fontconfig for any other name) and addresses on the network
(XML entities, `http:` references). Before svglib sees a file, pnp parses it itself without
entities, DTDs or network, and checks every reference: only fragments (`#a`), PNG and JPEG data
URLs and files inside the game folder (through the read gate, `pnp.paths`) are let through,
each checked in turn (an SVG it names has its own references checked). Text is set in the
game's own fonts (a `font-family` naming one of fonts.yaml's families, else `text`), so nothing
unembedded and nothing outside is used. The drawing svglib makes is checked for numbers that are
not finite or too large to print (`x="1e308"`, `stroke-width="inf"`, `width="nan"`)."""

from __future__ import annotations

import base64
import binascii
import io
import logging
import math
import os
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.paths import Fail, gate

if TYPE_CHECKING:
    from lxml.etree import _Element as XmlElement
    from reportlab.graphics.shapes import Drawing
    from svglib.svglib import SvgRenderer

    from pnp.fonts import FontBook

MAX_SVG_BYTES = 5 * 2**20
MAX_IMAGE_PIXELS = 12_000 * 12_000
MAX_NUMBER = 1e7          # user units; a card's art is a few hundred
MAX_REFERENCED = 50       # SVG files one drawing may pull in, all told
MAX_SVG_ELEMENTS = 20_000  # shapes and groups in one SVG: a card's art has hundreds
NOT_A_NUMBER = re.compile(r"(?<![a-z])(nan|[+-]?inf(inity)?)(?![a-z])", re.IGNORECASE)
URL = re.compile(r"""url\(\s*(['"]?)(.*?)\1\s*\)""", re.IGNORECASE | re.DOTALL)
IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?(['"]?)([^'")\s;]+)""", re.IGNORECASE)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
# what svglib takes for a picture's data, as it tells one (case and all): anything else it opens as a path
DATA_IMAGE = re.compile(r"^data:image/(jpe?g|png);base64")
XLINK = "{http://www.w3.org/1999/xlink}href"
# attributes that hold names or text, not numbers: "inf" there is a word
WORDS = {"id", "class", "href", XLINK, "font-family", "style", "name", "title", "lang"}

Faces = Callable[[str, bool, bool], str]   # family, bold, italic -> a registered font name
_faces: ContextVar[Faces | None] = ContextVar("pnp_svg_faces", default=None)


def load_drawing(path: Path, folder: Path, fail: Fail, faces: Faces | None = None,
                 seen: set[str] | None = None) -> Drawing:
    """The SVG at `path` (already through the gate) as an svglib drawing; every problem is
    `fail(message)`. References must lie inside `folder`, the game's folder. `seen` gets the
    SVG files it names (and its own)."""
    source = str(path)
    root = parse(path, fail)
    seen = set() if seen is None else seen
    seen.add(source)
    check_references(root, path, folder, fail, seen=seen)
    install_font_map()
    logger = logging.getLogger("svglib")
    previous = logger.level
    logger.setLevel(logging.CRITICAL)   # its warnings name no card or layout; ours do
    token = _faces.set(faces)
    try:
        drawing: Drawing = renderer(source, folder).render(root)
    except Exception:   # svglib and reportlab raise many kinds for drawings they can't make
        raise fail("is not an SVG pnp can read: damaged, or not SVG") from None
    finally:
        _faces.reset(token)
        logger.setLevel(previous)
    check_numbers(drawing, fail)
    return drawing


def renderer(source: str, folder: Path) -> SvgRenderer:
    """svglib's renderer, told (where it can be) to refuse references outside the game folder
    as well: pnp has checked them already."""
    import inspect
    from svglib.svglib import SvgRenderer
    if "external_reference_root" in inspect.signature(SvgRenderer.__init__).parameters:
        return SvgRenderer(source, external_reference_root=str(folder.resolve()))
    return SvgRenderer(source)


def parse(path: Path, fail: Fail) -> XmlElement:
    """The file's root element, read with no entities, no DTD and no network. Damaged XML
    is refused at its line: read as far as it goes, a cut-off file drew part of its art."""
    from lxml import etree
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise fail(f"cannot be read: {exc.strerror or exc}") from None
    if size > MAX_SVG_BYTES:
        raise fail(f"is over {MAX_SVG_BYTES // 2**20} MB of SVG, too large to place")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True)
    try:
        root = etree.fromstring(path.read_bytes(), parser)
    except (etree.XMLSyntaxError, ValueError, OSError):
        root = None
    if root is None or not isinstance(root.tag, str):
        first = next(iter(parser.error_log.filter_from_errors()), None)   # the parser's words: where it broke
        raise fail("is not an SVG pnp can read: damaged, or not SVG"
                   + (f" (line {first.line}: {first.message})" if first is not None else ""))
    elements = sum(1 for _ in root.iter())
    if elements > MAX_SVG_ELEMENTS:   # 170,000 rectangles in 4.7 MB took a minute and 800 MB to draw
        raise fail(f"has {elements:,} elements, more than pnp draws in one picture ({MAX_SVG_ELEMENTS:,})")
    return root


def check_references(root: XmlElement, path: Path, folder: Path, fail: Fail, seen: set[str]) -> None:
    """Every file or address the SVG names, and every number it writes as a word (nan, inf)."""
    for sibling in root.itersiblings(preceding=True):   # <?xml-stylesheet href="..."?>
        if getattr(sibling, "target", None) == "xml-stylesheet":
            match = re.search(r"""href\s*=\s*(['"])(.*?)\1""", sibling.text or "")
            if match:
                check_reference(match.group(2), path, folder, fail, seen)
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        name = element.tag.rpartition("}")[2]
        for key, value in element.attrib.items():
            if key in ("href", XLINK) and name != "a":   # a link is never opened
                check_reference(value, path, folder, fail, seen)
            elif (key not in WORDS and "}" not in key and not key.startswith(("data-", "aria-"))
                  and NOT_A_NUMBER.search(value)):
                raise fail(f"has {name} {key}=\"{value[:40]}\": give a finite number")
            if key == "style" or "url(" in value.lower():
                check_styles(value, path, folder, fail, seen)
        if name == "style":
            check_styles(element.text or "", path, folder, fail, seen)
        if name == "path" and "d" in element.attrib:   # after its numbers were checked as words (inf)
            check_path_data(element.attrib["d"], element.sourceline, fail)


PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[\s,]+")


def check_path_data(data: str, line: int | None, fail: Fail) -> None:
    """A path's `d` of commands and numbers only: svglib draws a path up to a part it cannot
    read and drops the rest without a word (`H9 L13 8 Hxx` lost a stroke)."""
    left = PATH_TOKEN.sub("", data)
    if left:
        at = data.find(left[:1])
        raise fail(f"has a path (line {line}) whose data pnp cannot read at {data[max(0, at - 10):at + 10]!r}")


def check_styles(css: str, path: Path, folder: Path, fail: Fail, seen: set[str]) -> None:
    for match in URL.finditer(css):
        check_reference(match.group(2).strip(), path, folder, fail, seen)
    for match in IMPORT.finditer(css):
        check_reference(match.group(2), path, folder, fail, seen)
    for declaration in css.split(";"):
        prop, _, value = declaration.partition(":")
        if value and prop.strip().lower() not in ("font-family", "content") and NOT_A_NUMBER.search(value):
            raise fail(f"has the style {declaration.strip()[:60]!r}: give a finite number")


def check_reference(target: str, path: Path, folder: Path, fail: Fail, seen: set[str]) -> None:
    """A reference is a fragment, a PNG or JPEG data URL, or a file inside the game folder,
    read as svglib reads it: the attribute as written, spaces and all (` data:image/png;base64,
    ../h.png` is no data to svglib but a path, which leads to h.png)."""
    if DATA_IMAGE.match(target):
        check_data_image(target, fail)
        return
    iri = target.split("#", 1)[0]
    if not iri:
        return   # a fragment: a part of this very file
    shown = target if len(target) < 80 else target[:77] + "..."
    if SCHEME.match(target.strip()) or target.strip().startswith("//"):
        raise fail(f"refers to '{shown}': pnp reads nothing from the network or from a URL; "
                   f"put the file in the game folder and name it by a relative path")
    if os.path.isabs(iri):
        raise fail(f"refers to '{shown}', an absolute path; name a file in the game folder by a "
                   f"relative path")
    # the very path svglib opens: joined to the SVG's own folder, then normalised
    named = Path(os.path.normpath(os.path.join(os.path.dirname(str(path)), iri)))
    resolved = gate(named, [folder], lambda message: fail(f"refers to '{shown}': {message}"), "the", shown=iri)
    if not resolved.is_file():
        raise fail(f"refers to '{shown}', which is not a file in the game folder")
    if resolved.suffix.lower() == ".svg":
        if str(named) in seen:
            return
        seen.add(str(named))
        if len(seen) > MAX_REFERENCED:
            raise fail(f"pulls in more than {MAX_REFERENCED} other SVG files")
        check_references(parse(resolved, lambda m: fail(f"refers to '{shown}', which {m}")),
                         named, folder, fail, seen)
    else:
        check_picture(resolved.read_bytes(), fail, shown)


def check_data_image(target: str, fail: Fail) -> None:
    """The picture svglib will draw: decoded as it decodes it, from one character past `base64`."""
    match = DATA_IMAGE.match(target)
    assert match is not None
    try:
        data = base64.decodebytes(target[match.end() + 1:].encode("ascii"))
    except (binascii.Error, ValueError):
        raise fail("has a data URL that is not base64") from None
    check_picture(data, fail, "a data URL")


def check_picture(data: bytes, fail: Fail, shown: str) -> None:
    """A picture an SVG places: PNG or JPEG, of a size pnp can hold."""
    import warnings
    from PIL import Image
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:
                kind, width, height = probe.format, probe.width, probe.height
    except Exception:   # Pillow raises many kinds for broken files; its words name no card
        raise fail(f"places {shown}, which is not a PNG or JPEG pnp can read") from None
    if kind not in ("PNG", "JPEG"):
        raise fail(f"places {shown}, which is {kind}; an SVG may place PNG or JPEG pictures")
    if width * height > MAX_IMAGE_PIXELS:
        raise fail(f"places {shown}, {width}x{height} pixels, too large to place")


def check_numbers(drawing: Drawing, fail: Fail) -> None:
    """Every number of the drawing finite and, with the scaling above it, printable."""
    if not drawing.width or not drawing.height:
        raise fail("is not an SVG pnp can read: no drawing, or no size")
    if not all(isinstance(v, (int, float)) and math.isfinite(v) and 1e-3 <= v <= MAX_NUMBER
               for v in (drawing.width, drawing.height)):
        raise fail(f"has a size of {drawing.width} x {drawing.height}, which pnp cannot place")
    stack: list[tuple[Any, float]] = [(drawing, 1.0)]
    while stack:
        node, scale = stack.pop()
        transform = getattr(node, "transform", None)
        if transform is not None:
            values = list(numbers(transform))
            if not all(math.isfinite(v) and abs(v) * scale <= MAX_NUMBER for v in values):
                raise fail("has a transform with numbers too large or not finite")
            scale *= max([1.0] + [abs(v) for v in values[:4]])
        for key, value in vars(node).items():
            if key in ("transform", "contents"):
                continue
            for number in numbers(value):
                if not math.isfinite(number) or abs(number) * scale > MAX_NUMBER:
                    raise fail(f"has a number ({number:g}, {key}) that is not finite or too large to print")
        stack.extend((child, scale) for child in getattr(node, "contents", None) or [])


def numbers(value: object, depth: int = 0) -> Iterator[float]:
    """The numbers in a value: itself, or those in a list or tuple of them."""
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield float(value)
    elif isinstance(value, (list, tuple)) and depth < 3:
        for item in value:
            yield from numbers(item, depth + 1)


# --- fonts ------------------------------------------------------------------------------------
def faces_of(fonts: FontBook) -> Faces:
    """Font names for an SVG's text from a FontBook: the family of that name, else `text`,
    else the first (every family of a fonts.yaml is embedded when drawn)."""
    def face(family: str, bold: bool, italic: bool) -> str:
        families = fonts.families
        by_name = {name.lower(): name for name in families}
        name = by_name.get(family.strip().strip("'\"").lower()) or ("text" if "text" in families
                                                                 else next(iter(families)))
        return families[name].face(bold=bold, italic=italic)
    return face


@lru_cache(maxsize=1)
def default_faces() -> str:
    """pnp's bundled text font: for an SVG drawn where no game's fonts are at hand."""
    from pnp.fonts import FontBook
    from pnp.resources import BUNDLED
    book = FontBook(BUNDLED)   # a root without fonts.yaml: pnp's own fonts
    return faces_of(book)("text", False, False)


_installed = False


def install_font_map() -> None:
    """svglib's global font map, replaced once by one that only hands out the game's fonts.
    It is global because svglib makes a renderer of its own for an SVG that another names,
    and that renderer takes the global map."""
    global _installed
    if _installed:
        return
    import svglib.fonts as svg_fonts
    import svglib.svglib as svg_module

    class GameFonts(svg_fonts.FontMap):
        def find_font(self, font_name: str, weight: str = "normal", style: str = "normal") -> tuple[str, bool]:
            faces = _faces.get()
            bold = str(weight).lower() in ("bold", "bolder", "600", "700", "800", "900")
            italic = str(style).lower() in ("italic", "oblique")
            if faces is None:
                return default_faces(), True
            return faces(font_name, bold, italic), True

        def use_fontconfig(self, *_args: object, **_kwargs: object) -> tuple[None, bool]:   # never asks the system
            return None, False

    game_fonts = GameFonts()
    svg_fonts._font_map = game_fonts
    if hasattr(svg_module, "_font_map"):
        svg_module._font_map = game_fonts
    _installed = True
