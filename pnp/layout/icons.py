"""Icons inside text: `Gain 2 :coin:` draws icons/coin.svg (or .png) from the game folder at
the height of the text's capitals, on its baseline, wrapping and shrinking with the words.
`\\:` writes a colon that starts no icon. A single-colour SVG takes the text's colour.

`:coin@1.5:` draws it 1.5 times as tall (any size from 0.1 to 20 times the cap height).

An icon stands in the text as a private-use character until the text is laid out at its final
size, where it becomes an `Icon` drawn by pnp.layout.icon_draw.draw_icon: an SVG as vector art (a
form made once per PDF and colour), a PNG with its own pixels (a form once per PDF)."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from pnp.errors import PnpError, did_you_mean, display_path, known
from pnp.paths import file_error, gate

if TYPE_CHECKING:
    from re import Match

    from reportlab.graphics.shapes import Drawing

ICON = re.compile(r"(?<!\\):([a-z0-9][a-z0-9_-]*)(?:@([0-9]+(?:\.[0-9]+)?))?:")
FIRST_TOKEN = 0xE100          # private-use characters stand for icons 0, 1, 2 ... in a text
TOKEN = re.compile("[\ue100-\ue1ff]")
CAP_HEIGHT = 0.72             # of the font size: where capitals reach, near enough for every face


def icons_of(game_dir: Path) -> dict[str, Path]:
    """The icons a game has: icons/NAME.svg or .png (SVG first), each inside the game folder.
    Every text element asks; the folder is gone through again only when an entry in it changed."""
    return dict(_icons_found(game_dir, _folder_state(game_dir / "icons")))


def _folder_state(folder: Path) -> tuple[object, ...]:
    """What changes when anything in the folder does: each entry's name, inode, change time
    and mode (a file edited, replaced, linked or made a link), and where each link points."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        state = os.lstat(folder)
        return (state.st_ino, state.st_ctime_ns, state.st_mode, folder.resolve(),
                tuple((entry.name, *_entry_state(entry)) for entry in entries))
    except OSError:
        return ()


def _entry_state(entry: os.DirEntry[str]) -> tuple[object, ...]:
    state = entry.stat(follow_symlinks=False)
    target = os.readlink(entry.path) if entry.is_symlink() else ""
    return state.st_ino, state.st_ctime_ns, state.st_mode, target


@lru_cache(maxsize=8)
def _icons_found(game_dir: Path, state: tuple[object, ...]) -> tuple[tuple[str, Path], ...]:
    folder = game_dir / "icons"
    if not folder.is_dir():
        return ()
    gate(folder, [game_dir], file_error(folder), "the icons folder", shown="icons")
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in (".svg", ".png") and path.stem not in found:
            gate(path, [game_dir], file_error(path), "icon", shown=f"icons/{path.name}")
            found[path.stem] = path
    return tuple(found.items())


def with_tokens(text: str, icons: dict[str, Path],
                fail: Callable[[str], object]) -> tuple[str, tuple[tuple[str, float], ...]]:
    """The text with each `:name:` replaced by a token, and (icon name, size) in token order,
    the size a multiple of the cap height (`:name@2:` draws it twice as tall); `\\:` becomes
    a plain colon. An unknown name, or a size that is no size, calls `fail(message)`, which raises."""
    names: list[tuple[str, float]] = []

    def token(match: Match[str]) -> str:
        name = match.group(1)
        scale = float(match.group(2)) if match.group(2) else 1.0
        if not 0.1 <= scale <= 20:
            fail(f"icon ':{name}@{match.group(2)}:' asks for {scale:g} times the text's cap height; "
                 f"give a size from 0.1 to 20")
        if name not in icons:
            fail(f"no icon ':{name}:' in icons/" + (f" ({did_you_mean(name, icons)})" if did_you_mean(name, icons)
                                                     else f"; it has {known(icons)}" if icons else " (the game has no icons/ folder)")
                 + "; write \\: for a colon that starts no icon")
        names.append((name, scale))
        return chr(FIRST_TOKEN + len(names) - 1)

    return ICON.sub(token, text).replace("\\:", ":"), tuple(names)


def no_icons(text: str) -> str:
    """`text` with every colon escaped (`\\:`), so none starts an icon: words written for
    themselves (a game's title, a sheet's heading) print as written."""
    return text.replace(":", "\\:")


def without_tokens(text: str) -> str:
    return TOKEN.sub("", text)


class Icon(NamedTuple):
    """An icon as drawn in one text: its file, width / height, the colour a single-colour SVG
    takes, and its height as a multiple of the text's cap height."""

    path: str
    aspect: float
    colour: str = "000000"
    scale: float = 1.0

    @property
    def vector(self) -> bool:
        return self.path.lower().endswith(".svg")

    def width_at(self, size: float) -> float:
        return self.height_at(size) * self.aspect

    def height_at(self, size: float) -> float:
        return size * CAP_HEIGHT * self.scale


def load_icon(path: Path, colour_hex: str, where_text: str, scale: float = 1.0) -> Icon:
    """The icon at `path` for text in `colour_hex`: a PNG keeps its pixels, an SVG is drawn as
    vectors when placed (pnp.layout.icon_draw.draw_icon); `where_text` names the text for errors."""
    try:
        changed = path.stat().st_mtime_ns
    except OSError:
        raise icon_problem(path, "cannot be read", where_text) from None
    return _load_icon(path, changed, colour_hex, where_text, scale)


@lru_cache(maxsize=512)
def _load_icon(path: Path, _changed: int, colour_hex: str, where_text: str, scale: float) -> Icon:
    if path.suffix.lower() == ".png":
        from PIL import Image
        from pnp.layout.svg import MAX_IMAGE_PIXELS
        try:
            with Image.open(path) as probe:
                kind, (width, height) = probe.format, probe.size
        except Exception:   # Pillow's words name no card
            raise icon_problem(path, "is not a PNG pnp can read", where_text) from None
        if kind != "PNG" or width * height > MAX_IMAGE_PIXELS:
            raise icon_problem(path, f"is not a PNG pnp can place ({kind}, {width}x{height} pixels)", where_text)
        return Icon(str(path), width / height, colour_hex, scale)
    from pnp.layout import icon_art
    aspect = icon_art.aspect_of(path)   # kept by the last build: no SVG machinery loaded
    if aspect is None:
        drawing = parsed_svg(path, where_text)
        aspect = drawing.width / drawing.height
    return Icon(str(path), aspect, colour_hex, scale)


def parsed_svg(path: Path, where_text: str) -> Drawing:
    """The SVG's drawing, read once while the file stays as it is (`pnp serve` sees edits)."""
    try:
        stat = path.stat()
    except OSError:
        raise icon_problem(path, "cannot be read", where_text) from None
    drawing, problem, _ = _parsed(path, stat.st_mtime_ns, stat.st_size)
    if drawing is None:
        raise icon_problem(path, problem or "cannot be drawn", where_text)
    return drawing


def icon_problem(path: Path, problem: str, where_text: str) -> PnpError:
    """What is wrong with an icon's file, told at the file (the thing to fix), then where it
    is used."""
    return PnpError(f"this icon {problem}; it is used at {where_text}", file=display_path(path))


def self_contained(path: Path) -> bool:
    """Whether the SVG (read by parsed_svg) names no other SVG file, so its bytes alone say
    how it is drawn."""
    stat = path.stat()
    return _parsed(path, stat.st_mtime_ns, stat.st_size)[2]


@lru_cache(maxsize=256)
def _parsed(path: Path, _mtime: int, _size: int) -> tuple[Drawing, None, bool] | tuple[None, str, bool]:
    """(the drawing, None, whether it names no other SVG), or (None, what is wrong with the
    file, False)."""
    from pnp.layout.svg import load_drawing

    class Refused(Exception):
        pass
    seen: set[str] = set()
    try:
        return load_drawing(path, path.parent.parent, Refused, seen=seen), None, len(seen) == 1
    except Refused as exc:
        return None, str(exc), False


def icon_drawing(icon: Icon) -> Drawing:
    """The SVG icon's drawing (svglib) in its text's colour when it has a single colour."""
    import copy
    drawing: Drawing = copy.deepcopy(parsed_svg(Path(icon.path), icon.path))
    recolour(drawing, icon.colour)
    return drawing


def recolour(drawing: Drawing, colour_hex: str) -> None:
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
