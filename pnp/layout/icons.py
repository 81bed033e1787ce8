"""Icons inside text: `Gain 2 :coin:` draws icons/coin.svg (or .png) from the game folder at
the height of the text's capitals, on its baseline, wrapping and shrinking with the words.
`\\:` writes a colon that starts no icon. A single-colour SVG takes the text's colour.

An icon stands in the text as a private-use character until the paragraph is laid out at its
final size, where it becomes an inline image; SVG icons are rasterised once per colour at a
resolution well above print (pdfium). The pictures are kept in a folder of the user's own under
the system's temporary folder (`pnp-icons-UID`, which only its owner may write; pnp checks
that), named by what they are drawn from (the SVG's bytes and the colour), so a later build
finds the picture made and need not read the SVG again. Each picture carries that name and a
hash of its pixels, checked when it is read: one that was changed, damaged or put there by
anyone else is drawn again, never used. Icon files and the icons/ folder are read through the
read gate (`pnp.paths`): a link that leads out of the game folder is an error."""

from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import tempfile
from functools import lru_cache
from pathlib import Path

from pnp.errors import PnpError, did_you_mean, known
from pnp.paths import file_error, gate

ICON = re.compile(r"(?<!\\):([a-z0-9][a-z0-9_-]*):")
FIRST_TOKEN = 0xE100          # private-use characters stand for icons 0, 1, 2 ... in a text
TOKEN = re.compile("[\ue100-\ue1ff]")
CAP_HEIGHT = 0.72             # of the font size: where capitals reach, near enough for every face
PIXELS_PER_POINT = 8          # about 580 dpi at the size drawn: crisp in print

NOTE = "pnp-icon"             # the PNG text chunk that says what a cached picture was drawn for
_folder: Path | None = None
_private: Path | None = None


def icons_of(game_dir: Path) -> dict[str, Path]:
    """The icons a game has: icons/NAME.svg or .png (SVG first), each inside the game folder."""
    folder = game_dir / "icons"
    if not folder.is_dir():
        return {}
    gate(folder, [game_dir], file_error(folder), "the icons folder", shown="icons")
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in (".svg", ".png") and path.stem not in found:
            gate(path, [game_dir], file_error(path), "icon", shown=f"icons/{path.name}")
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
        from pnp.layout.svg import MAX_IMAGE_PIXELS
        try:
            with Image.open(path) as probe:
                kind, (width, height) = probe.format, probe.size
        except Exception:   # Pillow's words name no card
            raise PnpError(f"{where_text}: icon '{path.name}' is not a PNG pnp can read") from None
        if kind != "PNG" or width * height > MAX_IMAGE_PIXELS:
            raise PnpError(f"{where_text}: icon '{path.name}' is not a PNG pnp can place "
                           f"({kind}, {width}x{height} pixels)")
        return str(path), width / height
    # named by what it is drawn from: a picture made before (by any build) is used again
    # without reading the SVG, which spares loading the SVG reader at all
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise PnpError(f"{where_text}: icon '{path.name}' cannot be read: {exc.strerror or exc}") from None
    key = hashlib.sha256(source + f"\0{colour_hex}\0{PIXELS_PER_POINT}".encode()).hexdigest()[:20]
    target = icon_folder() / f"{path.stem}-{key}.png"
    aspect = cached_aspect(target, key)
    if aspect is None:
        drawing = svg_drawing(path, where_text)
        recolour(drawing, colour_hex)
        data = rasterise(drawing, key)
        try:
            write_whole(target, data)
        except OSError:   # the shared folder is unusable: this process keeps a private one
            target = private_folder() / target.name
            write_whole(target, data)
        aspect = cached_aspect(target, key)
        if aspect is None:
            raise PnpError(f"{where_text}: icon '{path.name}' could not be kept as a picture in "
                           f"{target.parent}")
    return str(target), aspect


def cached_aspect(target: Path, key: str) -> float | None:
    """The width / height of a picture pnp drew for `key`, if the file is one: a plain file
    (no link), a PNG whose note names that key and the hash of its own pixels. Anything else
    (changed, damaged, or put there by another) is None, and is drawn again."""
    from PIL import Image
    try:
        if not target.is_file() or target.is_symlink():
            return None
        with Image.open(target) as picture:
            note = picture.info.get(NOTE, "")
            picture.load()
            if picture.format != "PNG" or note != f"{key} {pixel_hash(picture)}":
                return None
            return picture.width / picture.height
    except Exception:   # whatever the file holds, it is not a picture pnp drew
        return None


def pixel_hash(picture) -> str:
    return hashlib.sha256(f"{picture.mode}{picture.size}".encode() + picture.tobytes()).hexdigest()[:32]


def svg_drawing(path: Path, where_text: str):
    """The icon as a drawing, read like any SVG (pnp.layout.svg): references only inside the
    game folder (the folder that holds icons/), text in pnp's own fonts."""
    from pnp.layout.svg import load_drawing
    return load_drawing(path, path.parent.parent,
                        lambda message: PnpError(f"{where_text}: icon '{path.name}' {message}"))


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


def rasterise(drawing, key: str) -> bytes:
    """The drawing as a PNG with a transparent background, about 96 px on its longer side,
    noting the key it was drawn for and the hash of its pixels."""
    import pypdfium2
    from PIL.PngImagePlugin import PngInfo
    from reportlab.graphics import renderPDF
    page = pypdfium2.PdfDocument(renderPDF.drawToString(drawing))[0]
    image = page.render(scale=PIXELS_PER_POINT * 12 / max(drawing.width, drawing.height),
                        fill_color=(255, 255, 255, 0)).to_pil()
    note = PngInfo()
    note.add_text(NOTE, f"{key} {pixel_hash(image)}")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", pnginfo=note)
    return buffer.getvalue()


def write_whole(target: Path, data: bytes) -> None:
    """Written to a temporary name, then renamed: a parallel build never reads half a file."""
    fd, temp = tempfile.mkstemp(prefix=".pnp-part.", dir=target.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(temp, target)


def icon_folder() -> Path:
    """The user's own icon folder under the temporary folder, made 0700 and checked: a
    folder of that name that is a link, another user's or writable by others is not used."""
    global _folder
    if _folder is None:
        folder = Path(tempfile.gettempdir()) / f"pnp-icons-{os.getuid()}"
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            state = os.lstat(folder)
            private = (stat.S_ISDIR(state.st_mode) and state.st_uid == os.getuid()
                       and not state.st_mode & 0o077)
        except OSError:
            private = False
        _folder = folder if private else private_folder()
    return _folder


def private_folder() -> Path:
    """A folder for this process alone (mkdtemp makes it 0700), removed at exit."""
    global _private
    if _private is None:
        import atexit
        import shutil
        _private = Path(tempfile.mkdtemp(prefix="pnp-icons-"))
        atexit.register(shutil.rmtree, _private, True)
    return _private
