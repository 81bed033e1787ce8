"""The fonts in a root's fonts/ folder, registered with reportlab once per process.

fonts/fonts.yaml names families ("display", "text") and the TTF behind each style. Layouts
name families; a family or style that is missing is an error, never a quiet Helvetica.
"""

from __future__ import annotations

import struct

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from pnp.config.typed import Where, load_as, where_of
from pnp.yaml_source import display_path, load_yaml
from pnp.errors import PnpError, did_you_mean, known
from pnp.paths import file_error, gate, inside, own_folders
from pnp.resources import fonts_folder

STYLES = ("regular", "bold", "italic", "bolditalic")
_names: dict[Path, str] = {}     # reportlab names given to font files, once per process
_loaded: set[str] = set()        # the names registered so far
_family_of: dict[str, "Family"] = {}   # a registered name's family, for its fallbacks


@dataclass
class FamilySpec:
    regular: str
    bold: str | None = None
    italic: str | None = None
    bolditalic: str | None = None
    fallback: list[str] = field(default_factory=list)   # families for characters this one lacks


@dataclass
class Face:
    """One TTF of a family, parsed and registered with reportlab only when first used:
    parsing a large TTF takes longer than drawing a small deck."""

    name: str
    path: Path
    where: Where

    def registered(self) -> str:
        if self.name not in _loaded:
            try:
                # validate: every table's checksum, so a truncated or damaged file is refused
                # here, not half-read now and failing later while the PDF is written
                font = TTFont(self.name, str(self.path), validate=1)
                if not known_good(self.path):
                    every_glyph_embeds(font)
                pdfmetrics.registerFont(font)
            except (TTFError, OSError, ValueError, struct.error, IndexError, KeyError) as exc:
                # a truncated or damaged file fails deep inside the font parser
                raise self.where.error(f"cannot use '{self.path.name}' as a TrueType font: the file is damaged "
                                       f"({exc})") from None
            except Exception as exc:  # noqa: BLE001 - any other failure of the third-party reader
                raise self.where.error(f"cannot use '{self.path.name}' as a TrueType font: damaged or "
                                       f"truncated ({exc.__class__.__name__})") from None
            _loaded.add(self.name)
        return self.name


def known_good(path: Path) -> bool:
    """One of pnp's own fonts, where it is or copied into a project (the same bytes)."""
    resolved = path.resolve()
    if inside(resolved, own_folders(), resolved=True):
        return True
    same_size = own_fonts_by_size().get(resolved.stat().st_size)
    return same_size is not None and file_digest(same_size) == file_digest(resolved)


@lru_cache(maxsize=1)
def own_fonts_by_size() -> dict[int, Path]:
    from pnp.resources import BUNDLED
    return {font.stat().st_size: font for font in sorted((BUNDLED / "fonts").glob("*.ttf"))}


@lru_cache(maxsize=32)
def file_digest(path: Path) -> str:
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()


def every_glyph_embeds(font: TTFont) -> None:
    """Each glyph of a font from a game's own folder embedded once, as a PDF's font subset is:
    a font whose tables pass their checksums can still hold damaged glyphs, which failed only
    as the file was written (an internal error, where `validate` said the game was fine). A
    few milliseconds a face; pnp's own fonts are known good."""
    codes = sorted(font.face.charToGlyph)
    for start in range(0, len(codes), 255):   # a subset holds at most 255 characters
        font.face.makeSubset(codes[start:start + 255])


@dataclass
class Family:
    """A family's faces by style; styles the family lacks use regular."""

    name: str
    faces: dict[str, Face] = field(default_factory=dict)
    fallbacks: list["Family"] = field(default_factory=list)

    def face(self, bold: bool = False, italic: bool = False) -> str:
        """The reportlab name of a face, registered on first use."""
        style = ("bold" if bold else "") + ("italic" if italic else "") or "regular"
        name = self.faces.get(style, self.faces["regular"]).registered()
        self.map_styles()
        _family_of[name] = self
        return name

    def with_markup(self) -> "Family":
        """Register every face, for text whose **bold** and *italic* switch faces mid-line."""
        for face in self.faces.values():
            _family_of[face.registered()] = self
        self.map_styles()
        return self

    def map_styles(self) -> None:
        """Tell reportlab which face <b> and <i> switch to. Registering a TrueType face makes
        reportlab map that face's bold and italic to itself, so this runs after every
        registration, or emphasis would print in the regular face."""
        regular = self.faces["regular"].name
        for bold, italic, style in ((0, 0, "regular"), (1, 0, "bold"), (0, 1, "italic"), (1, 1, "bolditalic")):
            addMapping(regular, bold, italic, self.faces.get(style, self.faces["regular"]).name)


class FontBook:
    """Families by name, for one root."""

    def __init__(self, root: Path):
        self.folder = fonts_folder(root)
        manifest = self.folder / "fonts.yaml"
        if not manifest.exists():
            raise PnpError("no fonts/fonts.yaml: pnp needs the fonts it draws with",
                           file=display_path(manifest))
        gate(manifest, [self.folder], file_error(manifest), "fonts.yaml", where_to="the fonts folder")
        node = load_yaml(manifest)
        self.families: dict[str, Family] = {}
        where = where_of(node)
        specs = {}
        for name in node:
            family_where = where.key(node, name)
            spec = specs[name] = load_as(FamilySpec, node[name], family_where)
            if not spec.regular.strip():
                raise family_where.key(node[name], "regular").error(
                    "a family needs its regular face: give the .ttf file's name", hint="e.g. regular: Lato-Regular.ttf")
            family = Family(name)
            for style in STYLES:
                file_name = getattr(spec, style)
                if file_name:
                    family.faces[style] = self._face(file_name, family_where.key(node[name], style))
            self.families[name] = family
            family.map_styles()
        for name, spec in specs.items():
            fallback_where = where.key(node, name).key(node[name], "fallback")
            self.families[name].fallbacks = [self.family(other, fallback_where) for other in spec.fallback
                                             if other != name]

    def _face(self, file_name: str, where: Where) -> Face:
        if "\0" in file_name:
            raise where.error("a font file name contains a NUL character; remove it")
        if Path(file_name).is_absolute():
            raise where.error(f"font path '{file_name}' is absolute, outside the fonts folder")
        path = gate(self.folder / file_name, [self.folder], where.error, "font", shown=file_name,
                    where_to="the fonts folder")
        if not path.is_file():
            raise where.error(f"font file '{file_name}' not found in {display_path(self.folder)}")
        if path not in _names:
            _names[path] = f"pnp-{path.stem}-{len(_names)}"
        return Face(_names[path], path, where)

    def family(self, name: str, where: Where) -> Family:
        if name not in self.families:
            raise where.error(f"unknown font family '{name}'",
                              hint=did_you_mean(name, self.families)
                              or f"fonts.yaml has: {known(self.families)}")
        return self.families[name]


Styled = tuple[str, str, str, str]   # a family's regular, bold, italic and bold italic faces


def fallback_faces(family: Family) -> tuple[Styled, ...]:
    """Each fallback family's faces by style (a `<font>` run inside `<b>` names the fallback's
    bold itself: reportlab's <font name> would otherwise reset the run to regular)."""
    return tuple((other.face(), other.face(bold=True), other.face(italic=True), other.face(bold=True, italic=True))
                 for other in family.fallbacks)


def fallbacks_for(font_name: str, text: str) -> tuple[Styled, ...]:
    """The fallback fonts to draw `text` in `font_name` with: none when the font has every
    character (most text, which then keeps the fast path), else its family's fallbacks."""
    if not missing_glyphs(font_name, text):
        return ()
    family = _family_of.get(font_name)
    return fallback_faces(family) if family is not None else ()


@lru_cache(maxsize=8192)
def undrawable(font_name: str, fallbacks: tuple[Styled, ...], text: str) -> list[str]:
    """Characters of `text` that neither the font nor its fallbacks can draw."""
    missing = set(missing_glyphs(font_name, text))
    for name, *_ in fallbacks:
        if not missing:
            break
        has = pdfmetrics.getFont(name).face.charToGlyph
        missing = {ch for ch in missing if ord(ch) not in has}
    return sorted(missing)


@lru_cache(maxsize=8192)
def missing_glyphs(font_name: str, text: str) -> list[str]:
    """Characters of `text` that the font cannot draw (spaces and line breaks aside)."""
    font = pdfmetrics.getFont(font_name)
    has = font.face.charToGlyph
    return sorted({ch for ch in text if ch not in "\n\r\t" and ord(ch) not in has})
