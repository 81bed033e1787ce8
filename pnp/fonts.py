"""The fonts in a root's fonts/ folder, registered with reportlab once per process.

fonts/fonts.yaml names families ("display", "text") and the TTF behind each style. Layouts
name families; a family or style that is missing is an error, never a quiet Helvetica.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from pnp.config.typed import load_as, where_of
from pnp.data import display_path, load_yaml
from pnp.errors import PnpError, did_you_mean, known

STYLES = ("regular", "bold", "italic", "bolditalic")
_registered: dict[Path, str] = {}


@dataclass
class FamilySpec:
    regular: str
    bold: str | None = None
    italic: str | None = None
    bolditalic: str | None = None


@dataclass
class Family:
    """A family's reportlab font names by style; styles the family lacks use regular."""

    name: str
    faces: dict[str, str] = field(default_factory=dict)

    def face(self, bold: bool = False, italic: bool = False) -> str:
        style = ("bold" if bold else "") + ("italic" if italic else "") or "regular"
        return self.faces.get(style, self.faces["regular"])


class FontBook:
    """Families by name, for one root."""

    def __init__(self, root: Path):
        self.folder = root / "fonts"
        manifest = self.folder / "fonts.yaml"
        if not manifest.exists():
            raise PnpError("no fonts/fonts.yaml: pnp needs the fonts it draws with",
                           file=display_path(manifest))
        node = load_yaml(manifest)
        self.families: dict[str, Family] = {}
        where = where_of(node)
        for name in node:
            family_where = where.key(node, name)
            spec = load_as(FamilySpec, node[name], family_where)
            family = Family(name)
            for style in STYLES:
                file_name = getattr(spec, style)
                if file_name:
                    family.faces[style] = self._register(file_name, family_where.key(node[name], style))
            self.families[name] = family
            faces = family.faces
            addMapping(faces["regular"], 0, 0, faces["regular"])
            addMapping(faces["regular"], 1, 0, family.face(bold=True))
            addMapping(faces["regular"], 0, 1, family.face(italic=True))
            addMapping(faces["regular"], 1, 1, family.face(bold=True, italic=True))

    def _register(self, file_name: str, where) -> str:
        path = (self.folder / file_name).resolve()
        if self.folder.resolve() not in path.parents:
            raise where.error(f"'{file_name}' is outside the fonts folder")
        if path in _registered:
            return _registered[path]
        if not path.is_file():
            raise where.error(f"font file '{file_name}' not found in {display_path(self.folder)}")
        name = f"pnp-{path.stem}-{len(_registered)}"
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except (TTFError, OSError, ValueError) as exc:
            raise where.error(f"cannot use '{file_name}' as a TrueType font: {exc}") from None
        _registered[path] = name
        return name

    def family(self, name: str, where) -> Family:
        if name not in self.families:
            raise where.error(f"unknown font family '{name}'",
                              hint=did_you_mean(name, self.families)
                              or f"fonts.yaml has: {known(self.families)}")
        return self.families[name]


def missing_glyphs(font_name: str, text: str) -> list[str]:
    """Characters of `text` that the font cannot draw (spaces and line breaks aside)."""
    font = pdfmetrics.getFont(font_name)
    has = font.face.charToGlyph
    return sorted({ch for ch in text if ch not in "\n\r\t" and ord(ch) not in has})
