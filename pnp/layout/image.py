"""The image element: PNG and JPEG pictures, and SVG drawn as vectors (svglib), from the game
folder; fitted to the box (`contain`, `cover`, `fill`), turned (`rotate`) and made see-through
(`opacity`). Each file is read once per layout; a file that can't be used is one error naming
the file, the layout line and the card, never a library's own message."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from reportlab.lib.utils import ImageReader

from pnp.errors import PnpError
from pnp.layout.binding import Binding
from pnp.layout.elements import BIND, Drawer, Element, PieceContext
from pnp.layout.svg import MAX_IMAGE_PIXELS, faces_of, load_drawing
from pnp.paths import safe_path

if TYPE_CHECKING:
    from pathlib import Path

    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfgen.canvas import Canvas

    from pnp.config.typed import Where
    from pnp.fonts import FontBook
    from pnp.layout.card import Card


@dataclass(kw_only=True)
class ImageSpec(Element, kind="image"):
    src: str = field(metadata=BIND)
    fit: Literal["contain", "cover", "fill", "stretch"] = "contain"   # stretch: the old name of fill
    rotate: float = field(default=0.0, metadata={"min": -360, "max": 360})   # degrees, anticlockwise
    opacity: float = field(default=1.0, metadata={"min": 0, "max": 1})

    def compile(self, piece: PieceContext) -> "ImageDrawer":
        return ImageDrawer(self, piece)


@dataclass
class Picture:
    """A loaded image: its natural size, and how to draw it at a size."""

    width: float
    height: float
    raster: ImageReader | None = None
    drawing: Drawing | None = None   # an svglib Drawing (vector)


class ImageDrawer(Drawer):
    """Draws an image from the game folder; each file is read and embedded once."""

    def __init__(self, spec: ImageSpec, piece: PieceContext):
        self.spec = spec
        self.rect = spec.box(piece)
        self.src = Binding(spec.src, spec.origin)
        self.game_dir = piece.game_dir
        self.fonts = piece.fonts
        # reportlab leaves a form's transparency settings out of the form's resources, so a
        # see-through image is drawn on the page itself, never stamped
        self.stampable = spec.opacity >= 1
        self._pictures: dict[str, Picture] = {}
        if self.src.static:
            self._picture(spec.src, None)

    def _picture(self, name: str, card: Card | None) -> Picture:
        if name not in self._pictures:
            where = self.spec.where_is("src")
            who = f" (card {card.label})" if card is not None else ""
            path = safe_path(self.game_dir, name, where, what="image")
            if not path.is_file():
                raise where.error(f"image '{name}' not found in the game folder{who}")
            if path.suffix.lower() == ".svg":
                picture = load_svg(path, self.game_dir, name, where, who, self.fonts)
                if self.spec.opacity < 1:   # each shape sets its own alpha: scale theirs
                    picture.drawing = see_through(picture.drawing, self.spec.opacity)
            else:
                picture = load_raster(path, name, where, who)
            self._pictures[name] = picture
        return self._pictures[name]

    def draw(self, canvas: Canvas, card: Card) -> None:
        name = self.src.render(card).strip()
        if not name:
            return
        picture = self._picture(name, card)
        x, y, w, h = self.rect
        spec = self.spec
        scale_x, scale_y = w / picture.width, h / picture.height
        if spec.fit == "contain":
            scale_x = scale_y = min(scale_x, scale_y)
        elif spec.fit == "cover":
            scale_x = scale_y = max(scale_x, scale_y)
        drawn_w, drawn_h = picture.width * scale_x, picture.height * scale_y
        canvas.saveState()
        if spec.fit == "cover" or spec.rotate:   # nothing outside the box
            box = canvas.beginPath()
            box.rect(x, y, w, h)
            canvas.clipPath(box, stroke=0, fill=0)
        if spec.opacity < 1:
            canvas.setFillAlpha(spec.opacity)
            canvas.setStrokeAlpha(spec.opacity)
        canvas.translate(x + w / 2, y + h / 2)   # centred in its box, turned about its middle
        if spec.rotate:
            canvas.rotate(spec.rotate)
        if picture.drawing is not None:
            canvas.translate(-drawn_w / 2, -drawn_h / 2)
            canvas.scale(scale_x, scale_y)
            draw_vector(picture.drawing, canvas)
        else:
            canvas.drawImage(picture.raster, -drawn_w / 2, -drawn_h / 2, drawn_w, drawn_h, mask="auto")
        canvas.restoreState()


def draw_vector(drawing: Drawing, canvas: Canvas) -> None:
    """renderPDF starts every drawing by setting Helvetica, which would name a font the PDF
    does not embed; it starts with pnp's starting font instead (written only if used)."""
    from reportlab.graphics import renderPDF
    from reportlab.graphics.shapes import STATE_DEFAULTS
    from pnp.outputs.pdf import starting_font
    default = STATE_DEFAULTS["fontName"]
    STATE_DEFAULTS["fontName"] = starting_font()
    try:
        renderPDF.draw(drawing, canvas, 0, 0)
    finally:
        STATE_DEFAULTS["fontName"] = default


def load_raster(path: Path, name: str, where: Where, who: str) -> Picture:
    try:
        from PIL import Image
        with warnings.catch_warnings():
            # pnp checks the size itself below, with a message that names the layout
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            probe = Image.open(path)
        with probe:
            if probe.format not in ("PNG", "JPEG"):
                raise where.error(f"image '{name}' is {probe.format}; use PNG, JPEG or SVG{who}")
            if probe.width * probe.height > MAX_IMAGE_PIXELS:
                raise where.error(f"image '{name}' is {probe.width}x{probe.height} pixels, too large to place{who}")
            probe.load()
            size = probe.size
        return Picture(float(size[0]), float(size[1]), raster=ImageReader(str(path)))
    except PnpError:
        raise
    except Image.DecompressionBombError:
        raise where.error(f"image '{name}' is too large to place{who}") from None
    except Exception:  # Pillow raises many kinds for broken files; its words name no card
        raise where.error(f"image '{name}' is not a PNG, JPEG or SVG file pnp can read: damaged, "
                          f"or of another kind{who}") from None


def load_svg(path: Path, game_dir: Path, name: str, where: Where, who: str, fonts: FontBook | None = None) -> Picture:
    """An SVG as a vector drawing, read through `pnp.layout.svg` (references kept inside the
    game folder, text in the game's fonts, numbers checked): every problem is one error."""
    drawing = load_drawing(path, game_dir, lambda message: where.error(f"image '{name}' {message}{who}"),
                           faces_of(fonts) if fonts is not None else None)
    return Picture(float(drawing.width), float(drawing.height), drawing=drawing)


def see_through(drawing: Drawing, opacity: float) -> Drawing:
    """A copy of the drawing with every shape's fill and stroke `opacity` times as opaque."""
    import copy
    from reportlab.lib.colors import Color
    drawing = copy.deepcopy(drawing)
    stack = [drawing]
    while stack:
        node = stack.pop()
        for attribute in ("fillOpacity", "strokeOpacity"):
            if hasattr(node, attribute):
                current = getattr(node, attribute)
                setattr(node, attribute, (1.0 if current is None else current) * opacity)
        for attribute in ("fillColor", "strokeColor"):   # a colour's own alpha wins over the opacity
            colour = getattr(node, attribute, None)
            if colour is not None and hasattr(colour, "alpha"):
                setattr(node, attribute, Color(colour.red, colour.green, colour.blue, colour.alpha * opacity))
        stack.extend(getattr(node, "contents", []) or [])
    return drawing
