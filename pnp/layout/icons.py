"""Icons inside text: `Gain 2 :coin:` draws icons/coin.svg (or .png) from the game folder at
the height of the text's capitals, on its baseline, wrapping and shrinking with the words.
`\\:` writes a colon that starts no icon. A single-colour SVG takes the text's colour.

An icon stands in the text as a private-use character until the paragraph is laid out at its
final size, where it becomes an inline image; SVG icons are rasterised once per colour at a
resolution well above print (pdfium). The pictures are kept in one folder under the system's
temporary folder, named by what they are drawn from (the SVG's bytes and the colour): reportlab
names an image in the PDF after its file name, so the same input gives the same bytes, and a
later build finds the picture made and need not read the SVG again."""

from __future__ import annotations

import hashlib
import io
import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path

from pnp.errors import PnpError, did_you_mean, known

ICON = re.compile(r"(?<!\\):([a-z0-9][a-z0-9_-]*):")
FIRST_TOKEN = 0xE100          # private-use characters stand for icons 0, 1, 2 ... in a text
TOKEN = re.compile("[\ue100-\ue1ff]")
CAP_HEIGHT = 0.72             # of the font size: where capitals reach, near enough for every face
PIXELS_PER_POINT = 8          # about 580 dpi at the size drawn: crisp in print

_folder: Path | None = None


def icons_of(game_dir: Path) -> dict[str, Path]:
    """The icons a game has: icons/NAME.svg or .png (SVG first)."""
    folder = game_dir / "icons"
    if not folder.is_dir():
        return {}
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in (".svg", ".png") and path.stem not in found:
            found[path.stem] = path
    return found


def with_tokens(text: str, icons: dict[str, Path], fail) -> tuple[str, tuple[str, ...]]:
    """The text with each `:name:` replaced by a token, and the icon names in token order;
    `\\:` becomes a plain colon. An unknown name calls `fail(message)`."""
    names: list[str] = []

    def token(match) -> str:
        name = match.group(1)
        if name not in icons:
            fail(f"no icon ':{name}:' in icons/" + (f" ({did_you_mean(name, icons)})" if did_you_mean(name, icons)
                                                     else f"; it has {known(icons)}" if icons else " (the game has no icons/ folder)")
                 + "; write \\: for a colon that starts no icon")
        names.append(name)
        return chr(FIRST_TOKEN + len(names) - 1)

    return ICON.sub(token, text).replace("\\:", ":"), tuple(names)


def without_tokens(text: str) -> str:
    return TOKEN.sub("", text)


def image_markup(markup: str, images: tuple[tuple[str, float], ...], size: float) -> str:
    """Tokens become inline images (path, width / height) at the cap height of `size`."""
    height = size * CAP_HEIGHT

    def image(match) -> str:
        path, aspect = images[ord(match.group(0)) - FIRST_TOKEN]
        return f'<img src="{path}" width="{height * aspect:.2f}" height="{height:.2f}" valign="baseline"/>'

    return TOKEN.sub(image, markup)


@lru_cache(maxsize=512)
def icon_image(path: Path, colour_hex: str, where_text: str) -> tuple[str, float]:
    """A PNG of the icon (its file, width / height): PNG icons as they are, SVG icons drawn
    once per colour (a single-colour SVG recoloured to the text's colour)."""
    if path.suffix.lower() == ".png":
        from PIL import Image
        try:
            with Image.open(path) as probe:
                width, height = probe.size
        except Exception:   # Pillow's words name no card
            raise PnpError(f"{where_text}: icon '{path.name}' is not a PNG pnp can read") from None
        return str(path), width / height
    # named by what it is drawn from: a picture made before (by any build) is used again
    # without reading the SVG, which spares loading the SVG reader at all
    key = hashlib.sha256(path.read_bytes() + f"\0{colour_hex}\0{PIXELS_PER_POINT}".encode()).hexdigest()[:20]
    target = icon_folder() / f"{path.stem}-{key}.png"
    if not target.is_file():
        drawing = svg_drawing(path, where_text)
        recolour(drawing, colour_hex)
        write_whole(target, rasterise(drawing))
    from PIL import Image
    with Image.open(target) as picture:
        return str(target), picture.width / picture.height


def svg_drawing(path: Path, where_text: str):
    import logging
    from svglib.svglib import svg2rlg
    logger = logging.getLogger("svglib")
    previous = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        drawing = svg2rlg(str(path))
    except Exception:
        drawing = None
    finally:
        logger.setLevel(previous)
    if drawing is None or not drawing.width or not drawing.height:
        raise PnpError(f"{where_text}: icon '{path.name}' is not an SVG pnp can read")
    return drawing


def recolour(drawing, colour_hex: str) -> None:
    """A single-colour icon takes the text's colour; one of several colours keeps its own."""
    from reportlab.lib.colors import HexColor
    shapes, colours = [], set()
    stack = [drawing]
    while stack:
        node = stack.pop()
        stack.extend(getattr(node, "contents", []) or [])
        for attribute in ("fillColor", "strokeColor"):
            colour = getattr(node, attribute, None)
            if colour is not None:
                shapes.append((node, attribute))
                colours.add(colour.hexval())
    if len(colours) == 1:
        ink = HexColor("#" + colour_hex)
        for node, attribute in shapes:
            setattr(node, attribute, ink)


def rasterise(drawing) -> bytes:
    """The drawing as a PNG with a transparent background, about 96 px on its longer side."""
    import pypdfium2
    from reportlab.graphics import renderPDF
    page = pypdfium2.PdfDocument(renderPDF.drawToString(drawing))[0]
    image = page.render(scale=PIXELS_PER_POINT * 12 / max(drawing.width, drawing.height),
                        fill_color=(255, 255, 255, 0)).to_pil()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def write_whole(target: Path, data: bytes) -> None:
    """Written to a temporary name, then renamed: a parallel build never reads half a file."""
    fd, temp = tempfile.mkstemp(prefix=".pnp-part.", dir=target.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(temp, target)


def icon_folder() -> Path:
    global _folder
    if _folder is None:
        _folder = Path(tempfile.gettempdir()) / "pnp-icons"
        _folder.mkdir(exist_ok=True)
    return _folder
